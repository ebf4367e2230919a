/**
 * `npm start`'s desktop path: find the Electron runtime, build the parts of the app that are
 * missing or older than their sources (start-plan.ts decides), then start Electron with the
 * app folder; or answer why it must be the browser instead. The builders are passed in so the
 * test can stand in for the slow ones; start.ts passes `defaultBuilders`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { ELECTRON_BINDING_ENV } from '../shared/native-binding';
import { buildElectron } from './electron/build';
import { prepareElectronSqlite } from './electron/native-build';
import { SANDBOX_FAILURE, type SandboxProbe, sandboxBlocked, sandboxFix } from './electron-sandbox';
import {
  ARTIFACTS,
  type ArtifactName,
  buildRenderer,
  desktopArtifacts,
  electronSqlitePath,
  type Freshness,
  findElectronRuntime,
  freshness,
  planStart,
} from './start-plan';

export type Builder = (ctx: { root: string; electronVersion: string }) => Promise<void>;
export type Builders = Record<ArtifactName, Builder>;

const labels: Record<ArtifactName, string> = {
  renderer: 'the UI (vite build)',
  bundles: 'the main, worker and preload bundles (esbuild)',
  native: "better-sqlite3 for Electron's ABI (@electron/rebuild)",
};

/** What `npm run build:renderer`, `build:electron` and `native:electron` run. */
export const defaultBuilders: Builders = {
  renderer: async ({ root }) => {
    if (!buildRenderer(root)) throw new Error('vite build failed (see above)');
  },
  bundles: ({ root }) => buildElectron({ outDir: join(root, 'dist-electron') }),
  native: ({ root, electronVersion }) =>
    prepareElectronSqlite({
      root,
      electronVersion,
      outFile: electronSqlitePath(root, electronVersion),
    }),
};

export type DesktopStart =
  | { mode: 'electron'; child: ChildProcess; binary: string }
  | { mode: 'browser'; why: string; detail?: string };

export const startDesktop = async ({
  root,
  args = [],
  electronDir,
  browser,
  build,
  builders,
  env,
  log,
  stdio = 'inherit',
  sandbox,
}: {
  root: string;
  /** Given to the app after its folder (`--smoke`). */
  args?: readonly string[];
  /** The electron package's folder, or null when it does not resolve. */
  electronDir: string | null;
  browser: boolean;
  build: boolean;
  builders: Builders;
  /** The app's environment (start-plan.ts electronEnv). */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /**
   * 'pipe': the caller reads the app's stdout and stderr (the smoke run); 'stderr': only
   * stderr, which the caller relays and reads for the sandbox abort (watchElectron).
   */
  stdio?: 'inherit' | 'pipe' | 'stderr';
  /** Checked before Electron starts: where its sandbox cannot start, the browser instead. */
  sandbox?: SandboxProbe;
}): Promise<DesktopStart> => {
  const runtime = findElectronRuntime(electronDir);
  const parts = runtime.ok ? desktopArtifacts(root, runtime.version) : null;
  const states = Object.fromEntries(
    ARTIFACTS.map((a) => [a, parts ? freshness(parts[a].outputs, parts[a].inputs) : 'missing']),
  ) as Record<ArtifactName, Freshness>;
  const blocked = runtime.ok && sandbox ? sandboxBlocked(runtime.binary, sandbox) : null;
  const plan = planStart({ browser, build, runtime, states, sandbox: blocked });
  if (plan.mode === 'browser') return plan;
  if (!runtime.ok || !parts) throw new Error('planStart chose Electron without a runtime');

  for (const name of plan.build) {
    log(`${states[name] === 'stale' ? 'rebuilding' : 'building'} ${labels[name]} ...`);
    try {
      await builders[name]({ root, electronVersion: runtime.version });
    } catch (e) {
      return {
        mode: 'browser',
        why: `could not build the desktop app (${name}): ${e instanceof Error ? e.message : String(e)}`,
      };
    }
  }
  for (const name of ARTIFACTS) {
    const absent = parts[name].outputs.find((f) => !existsSync(f));
    if (absent)
      return { mode: 'browser', why: `could not build the desktop app (${name}): no ${absent}` };
  }
  const child = spawn(plan.binary, [root, ...args], {
    stdio:
      stdio === 'pipe'
        ? ['ignore', 'pipe', 'pipe']
        : stdio === 'stderr'
          ? ['inherit', 'inherit', 'pipe']
          : 'inherit',
    // The host worker and the embedded server open SQLite with this build (shared/native-binding.ts).
    env: { ...env, [ELECTRON_BINDING_ENV]: electronSqlitePath(root, runtime.version) },
  });
  return { mode: 'electron', child, binary: plan.binary };
};

/** How `npm start` ends after Electron: its exit status, and what to tell the user (or null). */
export interface ElectronEnd {
  status: number;
  message: string | null;
}

/** The end of a run of `binary`, from its exit and the last of its stderr. */
export const electronEnd = ({
  binary,
  code,
  signal,
  stderr,
}: {
  binary: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}): ElectronEnd => {
  // A death by signal is 128 + its number, as a shell reports it.
  const status = signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1);
  if (SANDBOX_FAILURE.test(stderr))
    return {
      status: status === 0 ? 1 : status,
      message:
        "Electron stopped before the app started: its sandbox cannot start on this machine (Ubuntu 23.10+ restricts user namespaces through AppArmor, and Electron's setuid helper is not set up). " +
        `To fix it, ${sandboxFix(binary)}. Meanwhile \`npm start -- --browser\` serves the app in the browser.`,
    };
  if (signal)
    return {
      status,
      message: `Electron was killed by ${signal} (its messages are above). \`npm start -- --browser\` serves the app in the browser.`,
    };
  return { status, message: null };
};

/** How long a tail of Electron's stderr is kept to look for the sandbox abort. */
const STDERR_TAIL = 16 * 1024;

/**
 * Waits for Electron started with stdio 'stderr': relays its stderr as it comes and answers its
 * exit status and what to say about it.
 */
export const watchElectron = (
  child: ChildProcess,
  binary: string,
  relay: (chunk: Buffer) => void,
): Promise<ElectronEnd> =>
  new Promise((resolve) => {
    let tail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      relay(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    const end = (code: number | null, signal: NodeJS.Signals | null) =>
      resolve(electronEnd({ binary, code, signal, stderr: tail }));
    child.on('error', (e) =>
      resolve({ status: 1, message: `could not start Electron (${binary}): ${e.message}` }),
    );
    // 'close' comes once stderr is read to its end; a helper process of Electron's that still
    // holds the pipe must not keep npm start waiting.
    child.on('exit', (code, signal) => setTimeout(() => end(code, signal), 2_000).unref());
    child.on('close', end);
  });
