import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost } from '../../main/host/host';
import { fileTokenVault } from '../../main/services/token-vault';
import { openEngine } from '../../sync/engine/engine';
import { startDemoServer, tempDir } from '../sync/support';
import { serviceCall as call, openTestServices } from './support';

// A second launch: the session comes back from the vault, the replica with it (usable before
// the server answers); the demo default starts its embedded server again on the same port.

describe('the next launch', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('resumes the stored session and shows the replica while the server is down', async () => {
    const server = await startDemoServer();
    const dataDir = tempDir('wt-resume-');
    dirs.push(dataDir);
    const open = () => openTestServices(dataDir);
    const first = await open();
    await call(first, 'session.signIn', {
      serverUrl: server.url,
      email: 'demo@example.com',
      password: 'demo1234',
    });
    await call(first, 'session.switchOrg', { orgId: 2 });
    await call(first, 'sync.now', {});
    const before = await call(first, 'tasks.list', { scope: { kind: 'my' } });
    await first.close();
    await server.close();

    const second = await open();
    expect(await second.session.resume()).toBe(true);
    expect(await call(second, 'session.state', {})).toMatchObject({
      signedIn: true,
      currentOrgId: 2,
      user: { email: 'demo@example.com' },
    });
    expect(await call(second, 'tasks.list', { scope: { kind: 'my' } })).toEqual(before);
    await call(second, 'sync.now', {});
    expect(await call(second, 'sync.status', {})).toMatchObject({ online: false });
    await second.close();
  });

  it('the demo default: first launch signs in the embedded demo, the next resumes it', async () => {
    const dataDir = tempDir('wt-demo-');
    dirs.push(dataDir);
    const launch = () =>
      startHost(
        { dataDir, serverUrl: null, demoDefault: true, pullIntervalMs: 600_000 },
        { vault: fileTokenVault(join(dataDir, 'session.json')), openEngine, log: () => {} },
      );
    const first = await launch();
    await first.ready;
    const state = first.services.session.state();
    expect(state).toMatchObject({ signedIn: true, demo: true });
    await first.services.session.require().engine.syncNow();
    const port = readFileSync(join(dataDir, 'demo-server', 'port'), 'utf8').trim();
    expect(state.serverUrl).toBe(`http://127.0.0.1:${port}`);
    await first.close();

    const second = await launch();
    await second.ready;
    expect(second.services.session.state()).toMatchObject({
      signedIn: true,
      demo: true,
      serverUrl: state.serverUrl,
    });
    const list = await second.endpoint.call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    expect(list).toMatchObject({ ok: true });
    expect((list as { value: { total: number } }).value.total).toBeGreaterThan(0);
    // One replica for the demo across launches (same server origin), not one per launch.
    expect(
      readdirSync(join(dataDir, 'replicas')).filter((f) => f.endsWith('.sqlite')),
    ).toHaveLength(1);
    await second.close();
  });
});
