import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildElectron } from '../../main/electron/build';
import type { StandInState } from './electron-stand-in';
import { newStandInState } from './stand-in-state';

/**
 * The built main process where it cannot run: a host that cannot start, a profile whose
 * single-instance lock another instance holds. Each case imports the bundle afresh (its own
 * query), so each gets its own stand-in state.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const base = mkdtempSync(path.join(tmpdir(), 'electron-shell-failure-'));
const cache = path.join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(path.join(cache, 'electron-shell-failure-'));
beforeAll(
  () =>
    buildElectron({
      outDir: out,
      electronStandIn: path.join(root, 'test/packaging/electron-stand-in.ts'),
    }),
  60_000,
);
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

const launch = async (name: string, over: Partial<StandInState> = {}) => {
  const s = {
    ...newStandInState(path.join(base, name, 'user-data'), path.join(base, name, 'app')),
    ...over,
  };
  (globalThis as { electronStandIn?: StandInState }).electronStandIn = s;
  await import(`${pathToFileURL(path.join(out, 'main.js')).href}?${name}`);
  return s;
};

it('shows why the host could not start and exits with 1', { timeout: 60_000 }, async () => {
  process.env.WORKTRAY_SERVER = 'ftp://files.example.com';
  let s: StandInState;
  try {
    s = await launch('host');
    s.ready();
    const end = Date.now() + 30_000;
    while (!s.calls.includes('exit 1') && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
  } finally {
    delete process.env.WORKTRAY_SERVER;
  }
  const box = s.calls.find((c) => c.startsWith('error box')) ?? '';
  expect(box.startsWith('error box Worktray could not start: the host failed to start')).toBe(true);
  expect(box).toContain(
    'WORKTRAY_SERVER (or --server) is "ftp://files.example.com", which is not an http(s) URL',
  );
  // A sentence, not zod's JSON of issues.
  expect(box).not.toMatch(/[[{]/);
  expect(s.calls).toContain('exit 1');
  expect(s.windows).toEqual([]);
  expect(s.trays).toEqual([]);
});

it('a launch that finds the lock taken says so in the log and quits', async () => {
  const s = await launch('lock', { lockTaken: true });
  expect(s.calls).toEqual([
    'registerSchemesAsPrivileged ready=false',
    'appendSwitch enable-features GlobalShortcutsPortal ready=false',
    `setPath userData ${path.join(base, 'lock', 'user-data')}-dev`,
    'requestSingleInstanceLock',
    'quit',
  ]);
  const logged = readFileSync(path.join(s.userData, 'logs', 'worktray.log'), 'utf8');
  expect(logged).toContain(
    `another Worktray is running with this profile: this launch is handed to it and quits (${s.userData})`,
  );
  s.ready();
  await new Promise((r) => setTimeout(r, 200));
  expect([s.windows, s.trays]).toEqual([[], []]);
});
