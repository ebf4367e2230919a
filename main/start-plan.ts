/**
 * What `npm start` decides before it runs anything, apart from main/start.ts (which runs at
 * import): whether the Electron runtime is there, which parts of the desktop app are missing
 * or older than their sources, and so which to build before starting Electron, or why it
 * serves the browser instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** `vite build` of `<root>/renderer` into renderer/dist; false when it failed. */
export const buildRenderer = (root: string): boolean => {
  const vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  const config = join(root, 'renderer', 'vite.config.ts');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', config, '--logLevel', 'warn'], {
    cwd: root,
    // Its messages go to stderr: a smoke run's stdout holds nothing but the result line.
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  return r.status === 0;
};

/**
 * `<root>/renderer/dist`, built first with Vite when its index.html is missing, `build` is on
 * and the config exists; null when there is still no UI (a page then says how to build it).
 */
export const ensureRendererBuilt = (
  root: string,
  build: boolean,
  log: (line: string) => void = console.log,
): string | null => {
  const dist = join(root, 'renderer', 'dist');
  const config = join(root, 'renderer', 'vite.config.ts');
  if (!existsSync(join(dist, 'index.html')) && build && existsSync(config)) {
    log('building the UI (vite build) ...');
    if (!buildRenderer(root)) log('the UI build failed: the app shows a page that says so');
  }
  return existsSync(join(dist, 'index.html')) ? dist : null;
};

/**
 * The Electron app's environment: the data folder `npm start` chose (browser mode and the app
 * share one) and the service given by `--server`, which the main process reads as
 * WORKTRAY_SERVER; without one, whatever WORKTRAY_SERVER the shell had stays.
 */
export const electronEnv = (
  env: NodeJS.ProcessEnv,
  dataDir: string,
  serverUrl: string | null,
  demoDefault = true,
): NodeJS.ProcessEnv => ({
  ...env,
  WORKTRAY_DATA_DIR: dataDir,
  ...(serverUrl === null ? {} : { WORKTRAY_SERVER: serverUrl }),
  // --no-demo: the sign-in screen offers no embedded demo server.
  ...(demoDefault ? {} : { WORKTRAY_NO_DEMO: '1' }),
});

/** The electron package's folder (its runtime may still be missing: findElectronRuntime). */
export const electronPackageDir = (): string | null => {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
};

export type ElectronRuntime =
  | { ok: true; binary: string; version: string }
  | { ok: false; reason: string };

/**
 * The runtime as the `electron` package finds it (its index.js: dist/ + path.txt, written by
 * its install script after the download), read without loading 'electron' itself.
 */
export const findElectronRuntime = (electronDir: string | null): ElectronRuntime => {
  if (!electronDir || !existsSync(join(electronDir, 'package.json')))
    return { ok: false, reason: 'the electron package is not installed' };
  const pathTxt = join(electronDir, 'path.txt');
  if (!existsSync(pathTxt))
    return {
      ok: false,
      reason: `its download was skipped or failed: no ${pathTxt} (node ${join(electronDir, 'install.js')} fetches it)`,
    };
  const binary = join(electronDir, 'dist', readFileSync(pathTxt, 'utf8').trim());
  if (!existsSync(binary)) return { ok: false, reason: `no Electron binary at ${binary}` };
  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return { ok: true, binary, version };
};

export type Freshness = 'built' | 'stale' | 'missing';

/** Tests, build outputs and packages are not sources of a build. */
const notSource = /(^|[\\/])(node_modules|dist|dist-electron)$|\.test\.tsx?$|\.test-support\.tsx?$/;

const newestMtime = (path: string): number => {
  if (!existsSync(path) || notSource.test(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
};

/** Missing when an output is; stale when a source (file or folder) changed after the oldest. */
export const freshness = (outputs: readonly string[], inputs: readonly string[]): Freshness => {
  if (!outputs.every((f) => existsSync(f))) return 'missing';
  const oldest = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  return inputs.some((i) => newestMtime(i) > oldest) ? 'stale' : 'built';
};

export type ArtifactName = 'renderer' | 'bundles' | 'native';
export const ARTIFACTS: readonly ArtifactName[] = ['renderer', 'bundles', 'native'];

/** Electron's build of better-sqlite3, beside (not in) node_modules: shared/native-binding.ts. */
export const electronSqlitePath = (root: string, electronVersion: string): string =>
  join(root, 'build', 'native', `electron-${electronVersion}`, 'better_sqlite3.node');

/** Each part of the desktop app: what it produces and what it is built from. */
export const desktopArtifacts = (
  root: string,
  electronVersion: string,
): Record<ArtifactName, { outputs: string[]; inputs: string[] }> => ({
  renderer: {
    outputs: [join(root, 'renderer', 'dist', 'index.html')],
    inputs: [join(root, 'renderer'), join(root, 'shared')],
  },
  bundles: {
    outputs: ['main.js', 'worker.js', 'fill-worker.js', 'preload.cjs'].map((f) =>
      join(root, 'dist-electron', f),
    ),
    inputs: ['main', 'sync', 'shared', 'server', 'package.json'].map((d) => join(root, d)),
  },
  native: {
    outputs: [electronSqlitePath(root, electronVersion)],
    inputs: [join(root, 'node_modules', 'better-sqlite3', 'package.json')],
  },
});

export type StartPlan =
  | { mode: 'electron'; binary: string; build: ArtifactName[] }
  /** `why` heads the browser-mode line; `detail`, printed under it, says what to do. */
  | { mode: 'browser'; why: string; detail?: string };

/**
 * Electron whenever its runtime is installed, after building what is missing or stale; the
 * browser only when asked, without a runtime, where Electron's sandbox cannot start (it would
 * abort at once), or with a part missing and building off.
 */
export const planStart = ({
  browser,
  build,
  runtime,
  states,
  sandbox = null,
}: {
  browser: boolean;
  build: boolean;
  runtime: ElectronRuntime;
  states: Record<ArtifactName, Freshness>;
  /** Why Electron's sandbox cannot start on this machine, and the fix (electron-sandbox.ts). */
  sandbox?: { why: string; detail: string } | null;
}): StartPlan => {
  if (browser) return { mode: 'browser', why: 'Browser mode requested (--browser)' };
  if (!runtime.ok)
    return { mode: 'browser', why: 'Electron runtime not installed', detail: runtime.reason };
  if (sandbox) return { mode: 'browser', ...sandbox };
  if (!build) {
    const missing = ARTIFACTS.filter((a) => states[a] === 'missing');
    if (missing.length > 0)
      return {
        mode: 'browser',
        why: `Electron app not built (${missing.join(', ')}) and --no-build given`,
      };
    return { mode: 'electron', binary: runtime.binary, build: [] };
  }
  return {
    mode: 'electron',
    binary: runtime.binary,
    build: ARTIFACTS.filter((a) => states[a] !== 'built'),
  };
};
