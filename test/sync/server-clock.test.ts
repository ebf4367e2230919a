/** The API client learns the service's clock from real answers of the reference server. */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { admin, demoClient, startDemoServer } from './support';

describe('the client learns the server clock from its answers', () => {
  let server: RunningServer | undefined;
  let client: ApiClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  it('within a few ms of a server ten minutes behind', async () => {
    server = await startDemoServer();
    await admin(server, 'clock', { offsetMs: -600_000 });
    client = await demoClient(server);
    for (let i = 0; i < 5; i++) await client.ops.getAllSpaces({});
    // An error answer counts too (its HTTP Date, coarser).
    await client.ops.getTaskById({ path: { taskId: 999_999 } }).catch(() => undefined);
    const e = client.serverClock.estimate();
    expect(e).not.toBeNull();
    expect(Math.abs((e?.offsetMs ?? 0) + 600_000)).toBeLessThanOrEqual((e?.errorMs ?? 0) + 1);
    expect(e?.errorMs).toBeLessThan(50);
    // Siblings for other orgs share it.
    expect(client.forOrg(2).serverClock).toBe(client.serverClock);
  });
});
