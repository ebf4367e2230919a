import { type RunningServer, startServer } from '../../server/app';
import { type ApiClient, createApiClient, signIn } from '../../sync/api';
import { tempDir as makeTempDir } from '../../sync/test-support/temp-dir';

export const demo = {
  email: 'demo@example.com',
  password: 'demo1234',
  other: 'other@example.com',
  otherPassword: 'other1234',
};

/** A fresh directory, removed when the test process exits. */
export const tempDir = (prefix = 'wt-sync-') => makeTempDir(prefix);

/** The reference server with the demo data set, admin routes on, on 127.0.0.1 port 0. */
export const startDemoServer = (): Promise<RunningServer> =>
  startServer({ dataDir: null, admin: true, seed: { kind: 'demo' } });

export const demoClient = async (
  server: RunningServer,
  orgId = 1,
  who: 'demo' | 'other' = 'demo',
  /** This machine's clock as the session and client read it (an engine's, shared). */
  clock?: () => number,
): Promise<ApiClient> => {
  const session = await signIn(
    server.url,
    who === 'demo' ? demo.email : demo.other,
    who === 'demo' ? demo.password : demo.otherPassword,
    clock ? { clock } : {},
  );
  return createApiClient({ baseUrl: server.url, orgId, session });
};

export const admin = async (server: RunningServer, path: string, body: unknown) => {
  const res = await fetch(`${server.url}/__admin/${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<unknown>;
};

/** Every bulk item of an org as the server exports it, by id. */
export const serverTaskIds = (server: RunningServer, orgId: number): number[] =>
  (
    server.deps.db
      .prepare('SELECT task_id FROM tasks WHERE org_id = ? AND deleted = 0 ORDER BY task_id')
      .all(orgId) as { task_id: number }[]
  ).map((r) => r.task_id);
