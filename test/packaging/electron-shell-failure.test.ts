import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { buildElectron } from '../../main/electron/build';
import type { StandInState } from './electron-stand-in';
import { newStandInState } from './stand-in-state';

/** The built main process when its host cannot start: it says why and exits. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const base = mkdtempSync(path.join(tmpdir(), 'electron-shell-failure-'));
const cache = path.join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(path.join(cache, 'electron-shell-failure-'));
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

it('shows why the host could not start and exits with 1', { timeout: 60_000 }, async () => {
  const s = newStandInState(path.join(base, 'user-data'), path.join(base, 'app'));
  (globalThis as { electronStandIn?: StandInState }).electronStandIn = s;
  process.env.WORKTRAY_SERVER = 'ftp://files.example.com';
  await buildElectron({
    outDir: out,
    electronStandIn: path.join(root, 'test/packaging/electron-stand-in.ts'),
  });
  await import(pathToFileURL(path.join(out, 'main.js')).href);
  s.ready();
  const end = Date.now() + 30_000;
  while (!s.calls.includes('exit 1') && Date.now() < end)
    await new Promise((r) => setTimeout(r, 50));
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
