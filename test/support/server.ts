import { type BuiltApp, buildApp, type ServerOptions } from '../../server/app';
import type { ServerDeps } from '../../server/deps';
import { addOrgMember, createOrg, createUser } from '../../server/seed/fixtures';

export interface TestServer {
  url: string;
  deps: ServerDeps;
  built: BuiltApp;
  /** Org 1 ("Acme") has alice and bob; org 2 ("Globex") has carol and alice. */
  orgs: { acme: number; globex: number };
  users: { alice: number; bob: number; carol: number };
  /** Password of every fixture user. */
  password: string;
  close(): Promise<void>;
}

export const fixturePassword = 'secret-password';

/**
 * The reference server on 127.0.0.1 port 0 with an in-memory database, fixture orgs and
 * users, for tests. Route completeness is asserted by its own test, so a suite can run while
 * another route module is missing.
 */
export const startTestServer = async (
  options: Partial<ServerOptions> = {},
): Promise<TestServer> => {
  const built = await buildApp({ dataDir: null, admin: true, ...options });
  const { deps } = built;
  const now = deps.clock.now();
  const fixture = deps.db.transaction(() => {
    const acme = createOrg(deps.db, 'Acme', now);
    const globex = createOrg(deps.db, 'Globex', now);
    const make = (first: string) =>
      createUser(
        deps.db,
        {
          email: `${first.toLowerCase()}@example.com`,
          password: fixturePassword,
          firstName: first,
          lastName: 'Test',
        },
        now,
      );
    const alice = make('Alice');
    const bob = make('Bob');
    const carol = make('Carol');
    addOrgMember(deps.db, acme, alice, 'Owner');
    addOrgMember(deps.db, acme, bob);
    addOrgMember(deps.db, globex, carol, 'Owner');
    addOrgMember(deps.db, globex, alice);
    return { orgs: { acme, globex }, users: { alice, bob, carol } };
  })();
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    deps,
    built,
    ...fixture,
    password: fixturePassword,
    close: () => built.app.close(),
  };
};

/** Signs in over HTTP and returns the access token (raw fetch: independent of the client). */
export const signInRaw = async (url: string, email: string, password = fixturePassword) => {
  const res = await fetch(`${url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { data: { accessToken: string; refreshToken: string } };
  return body.data;
};
