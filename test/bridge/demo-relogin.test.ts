import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import { tempDir } from '../sync/support';
import { eventually, openTestServices, serviceCall as value } from './support';

// The demo runs on our own embedded server with a known account: when its refresh token is dead
// (expired between launches, or while the app runs) the host signs in again by itself, in the
// same org and on the same replica, and edits queued meanwhile still reach the server.

const storedTokens = (dataDir: string) =>
  (
    JSON.parse(readFileSync(join(dataDir, 'session.json'), 'utf8')) as {
      tokens: { refreshToken: string; refreshExpiresAt: number };
      orgId: number;
    }
  ).tokens;

describe('a demo session whose refresh token died', () => {
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const setUp = async (ttl: { accessTtlSec: number; refreshTtlSec: number }) => {
    const server = await startServer({
      dataDir: null,
      host: '127.0.0.1',
      port: 0,
      seed: { kind: 'demo' },
      ...ttl,
    });
    servers.push(server);
    const dataDir = tempDir('wt-relogin-');
    dirs.push(dataDir);
    const open = () => openTestServices(dataDir, server.url);
    return { server, dataDir, open };
  };

  it('while the app runs: signs in again, keeps the org, and the queued edit syncs', {
    timeout: 60_000,
  }, async () => {
    // Long enough that no pause of a loaded machine kills it before the test does.
    const refreshTtlSec = 30;
    const { server, dataDir, open } = await setUp({ accessTtlSec: 1, refreshTtlSec });
    const services = await open();
    const rekeyed = new Map<string, string>();
    services.hub.subscribe((event, payload) => {
      const p = payload as { from: string; to: string };
      if (event === 'entity.rekeyed') rekeyed.set(p.from, p.to);
    });
    try {
      await value(services, 'session.startDemo', {});
      await value(services, 'session.switchOrg', { orgId: 2 });
      await value(services, 'sync.now', {});
      const first = storedTokens(dataDir).refreshToken;
      const engineBefore = services.session.require().engine;

      // The refresh token dies: the server's clock moves past its life, not waited out.
      server.deps.clock.setOffset(server.deps.clock.offset() + refreshTtlSec * 1_000 + 300);
      const made = await value(services, 'edits.apply', {
        kind: 'task.create',
        fields: { taskTitle: 'Queued while the demo token died' },
      });
      // The push needs a token: the refresh is refused, and the host signs in again.
      await services.dispatcher.call('sync.now', {});
      // A new engine on the same replica, its session's tokens saved.
      await eventually(
        () =>
          (services.session.current?.engine !== engineBefore &&
            storedTokens(dataDir).refreshToken !== first) ||
          undefined,
        20_000,
      );
      expect(services.session.state()).toMatchObject({
        signedIn: true,
        demo: true,
        currentOrgId: 2,
        user: { email: 'demo@example.com' },
      });

      const to = await eventually(async () => {
        await services.dispatcher.call('sync.now', {});
        return rekeyed.get(`task:${made.id}`);
      }, 20_000);
      const detail = (await value(services, 'tasks.detail', {
        taskId: Number(to.split(':')[1]),
      })) as { task: { taskTitle: string; sync: string } };
      expect(detail.task).toMatchObject({
        taskTitle: 'Queued while the demo token died',
        sync: 'synced',
      });
    } finally {
      await services.close();
    }
  });

  it('at the next launch: a stored demo session with a dead refresh token signs in afresh', {
    timeout: 60_000,
  }, async () => {
    const { dataDir, open } = await setUp({ accessTtlSec: 900, refreshTtlSec: 3_600 });
    const first = await open();
    await value(first, 'session.startDemo', {});
    await value(first, 'session.switchOrg', { orgId: 2 });
    await first.close();

    const file = join(dataDir, 'session.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as {
      tokens: { refreshExpiresAt: number; refreshToken: string };
    };
    stored.tokens.refreshExpiresAt = Date.now() - 1_000;
    writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });

    const second = await open();
    try {
      expect(await second.session.resume()).toBe(true);
      expect(second.session.state()).toMatchObject({ signedIn: true, demo: true, currentOrgId: 2 });
      const now = storedTokens(dataDir);
      expect(now.refreshToken).not.toBe(stored.tokens.refreshToken);
      expect(now.refreshExpiresAt).toBeGreaterThan(Date.now());
      await value(second, 'sync.now', {});
      expect(await value(second, 'sync.status', {})).toMatchObject({ online: true });
    } finally {
      await second.close();
    }
  });
});
