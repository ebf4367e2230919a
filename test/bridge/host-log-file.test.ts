import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorkerHost } from '../../main/host/worker-host';
import { fileTokenVault } from '../../main/services/token-vault';
import { tempDir } from '../sync/support';
import { eventually } from './support';

describe('the host worker logs to the data folder', () => {
  const dataDir = tempDir('wt-hostlog-');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes what the host reports to logs/worktray.log, and still shows it', async () => {
    // A settings file that is not JSON: the host reports it at start-up and uses the defaults.
    writeFileSync(join(dataDir, 'settings.json'), 'not json');
    const shown: string[] = [];
    const host = await startWorkerHost(
      { dataDir, serverUrl: null, demoDefault: false, pullIntervalMs: 600_000 },
      { vault: fileTokenVault(join(dataDir, 'session.json')), log: (m) => shown.push(m) },
    );
    try {
      const text = await eventually(() => {
        try {
          const t = readFileSync(join(dataDir, 'logs', 'worktray.log'), 'utf8');
          return t.includes('settings file') ? t : undefined;
        } catch {
          return undefined;
        }
      }, 20_000);
      expect(text).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z host: settings file/m);
      expect(shown.some((m) => m.includes('settings file'))).toBe(true);
    } finally {
      await host.close();
    }
  });
});
