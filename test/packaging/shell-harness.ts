import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildElectron } from '../../main/electron/build';
import type { BridgeInput, BridgeMethod, BridgeOutput } from '../../shared/bridge';
import type { BridgeErrorData } from '../../shared/bridge/define';
import type { FakeWindow, StandInState } from './electron-stand-in';
import { newStandInState } from './stand-in-state';

/**
 * The built main process run in this Node process over the stand-in Electron module
 * (electron-stand-in.ts): the bundle is built once per test file, imported after the stand-in's
 * state is set, and driven through the state (windows, IPC handlers, tray, notices).
 */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const until = async <T>(
  what: string,
  probe: () => T | Promise<T>,
  ms = 60_000,
): Promise<NonNullable<T>> => {
  const end = Date.now() + ms;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await probe();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
};

type Answer<T> = { ok: true; value: T } | { ok: false; error: BridgeErrorData };

export interface Shell {
  s: StandInState;
  /** A temporary folder for the run (user data, app folder). */
  base: string;
  /** The folder the bundles were built into. */
  out: string;
  /** Builds the bundles with the stand-in and imports main.js. */
  start(): Promise<void>;
  /** Removes the build and the temporary folder. */
  stop(): void;
  /** The window the app shows now: the latest made (a closed one is replaced by a new one). */
  win(): FakeWindow;
  invokeRaw(method: string, input: unknown, event?: unknown): Promise<Answer<unknown>>;
  invoke<M extends BridgeMethod>(
    method: M,
    input: BridgeInput<M>,
  ): Promise<Answer<BridgeOutput<M>>>;
  value<M extends BridgeMethod>(method: M, input: BridgeInput<M>): Promise<BridgeOutput<M>>;
}

export const shellHarness = (name: string): Shell => {
  const base = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const s = newStandInState(path.join(base, 'user-data'), path.join(base, 'app'));
  (globalThis as { electronStandIn?: StandInState }).electronStandIn = s;
  // Inside the repository, so the bundles' package imports resolve to its node_modules.
  const cache = path.join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const out = mkdtempSync(path.join(cache, `${name}-`));

  const win = (): FakeWindow => {
    const w = s.windows.at(-1);
    if (!w) throw new Error('no window');
    return w;
  };
  const ours = () => ({ sender: win().webContents, senderFrame: win().webContents.mainFrame });
  const invokeRaw = async (method: string, input: unknown, event: unknown = ours()) => {
    const h = s.ipcHandlers.get('worktray:invoke');
    if (!h) throw new Error('no invoke handler');
    return (await h(event, method, input)) as Answer<unknown>;
  };
  const invoke = <M extends BridgeMethod>(method: M, input: BridgeInput<M>) =>
    invokeRaw(method, input) as Promise<Answer<BridgeOutput<M>>>;
  return {
    s,
    base,
    out,
    async start() {
      mkdirSync(path.join(s.appPath, 'renderer', 'dist'), { recursive: true });
      writeFileSync(
        path.join(s.appPath, 'renderer', 'dist', 'index.html'),
        '<title>Worktray</title>',
      );
      await buildElectron({
        outDir: out,
        electronStandIn: path.join(root, 'test/packaging/electron-stand-in.ts'),
      });
      await import(pathToFileURL(path.join(out, 'main.js')).href);
    },
    stop() {
      rmSync(base, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    },
    win,
    invokeRaw,
    invoke,
    async value(method, input) {
      const answer = await invoke(method, input);
      if (!answer.ok) throw new Error(`${method}: ${answer.error.message}`);
      return answer.value;
    },
  };
};
