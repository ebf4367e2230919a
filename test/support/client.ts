/**
 * The typed client (sync/api) signed in as a fixture user of the test server, for the
 * conformance suites. Kept small and stable: other suites import it.
 */
import { type ApiClient, createApiClient, signIn } from '../../sync/api';
import type { TestServer } from './server';

export type FixtureUser = 'alice' | 'bob' | 'carol';
export type FixtureOrg = 'acme' | 'globex';

/** A client acting as `user` in `org` (X-Org-Id). Close it with `client.close()`. */
export const clientFor = async (
  server: TestServer,
  user: FixtureUser,
  org: FixtureOrg,
): Promise<ApiClient> => {
  const session = await signIn(server.url, `${user}@example.com`, server.password);
  return createApiClient({ baseUrl: server.url, orgId: server.orgs[org], session });
};
