/**
 * Item 9 of issue 15, sign-out: the host's sign-out ends the session on the server too, so a
 * copy of its tokens (a backup of the vault, a stolen session.json) is worth nothing after.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import { openTestServices, serviceCall } from '../bridge/support';
import { tempDir } from '../sync/support';

const dirs: string[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('sign-out', () => {
  it('revokes the session server-side: its tokens stop working', async () => {
    const server = await startServer({ dataDir: null, seed: { kind: 'demo' } });
    servers.push(server);
    const dataDir = tempDir('wt-signout-');
    dirs.push(dataDir);
    const services = await openTestServices(dataDir);
    try {
      await serviceCall(services, 'session.signIn', {
        serverUrl: server.url,
        email: 'demo@example.com',
        password: 'demo1234',
      });
      const { tokens } = JSON.parse(readFileSync(join(dataDir, 'session.json'), 'utf8')) as {
        tokens: { accessToken: string; refreshToken: string };
      };
      await serviceCall(services, 'session.signOut', {});

      const refresh = await fetch(`${server.url}/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: tokens.refreshToken }),
      });
      expect(refresh.status).toBe(401);
      const spaces = await fetch(`${server.url}/v1/spaces`, {
        headers: { authorization: `Bearer ${tokens.accessToken}`, 'x-org-id': '1' },
      });
      expect(spaces.status).toBe(401);
    } finally {
      await services.close();
    }
  });
});
