import { afterAll, beforeAll } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { demoClient, startDemoServer } from './support';

/** A demo server and its signed-in client for a whole test file: started before, closed after. */
export const demoServerForFile = (): {
  readonly server: RunningServer;
  readonly client: ApiClient;
} => {
  const env = {} as { server: RunningServer; client: ApiClient };
  beforeAll(async () => {
    env.server = await startDemoServer();
    env.client = await demoClient(env.server);
  });
  afterAll(async () => {
    await env.client?.close();
    await env.server?.close();
  });
  return env;
};
