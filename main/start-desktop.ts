/**
 * `npm start`'s desktop path: find the Electron runtime, build the parts of the app that are
 * missing or older than their sources (start-plan.ts decides), then start Electron with the
 * app folder; or answer why it must be the browser instead. The builders are passed in so the
 * test can stand in for the slow ones; start.ts passes `defaultBuilders`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ELECTRON_BINDING_ENV } from '../shared/native-binding';
import { buildElectron } from './electron/build';
import { prepareElectronSqlite } from './electron/native-build';
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
  | { mode: 'electron'; child: ChildProcess }
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
  /** 'pipe': the caller reads the app's stdout and stderr (the smoke run). */
  stdio?: 'inherit' | 'pipe';
}): Promise<DesktopStart> => {
  const runtime = findElectronRuntime(electronDir);
  const parts = runtime.ok ? desktopArtifacts(root, runtime.version) : null;
  const states = Object.fromEntries(
    ARTIFACTS.map((a) => [a, parts ? freshness(parts[a].outputs, parts[a].inputs) : 'missing']),
  ) as Record<ArtifactName, Freshness>;
  const plan = planStart({ browser, build, runtime, states });
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
    stdio: stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    // The host worker and the embedded server open SQLite with this build (shared/native-binding.ts).
    env: { ...env, [ELECTRON_BINDING_ENV]: electronSqlitePath(root, runtime.version) },
  });
  return { mode: 'electron', child };
};
