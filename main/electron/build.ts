/**
 * `npm run build:electron`: bundles the main process, the host worker, the bootstrap's decoding
 * worker and the preload into dist-electron/ (Electron runs JavaScript, not TypeScript).
 *
 * The main process keeps its packages as imports of node_modules (inside app.asar when
 * packaged). The workers carry every package they use in their own file, all but better-sqlite3,
 * whose JavaScript loads a native binding by path (Electron's own build, shared/native-binding.ts):
 * a packaged app starts them from app.asar, whose integrity the fuses check, and nothing they run
 * lies beside it unchecked. Worker threads read app.asar since Electron 30: Electron's Node
 * preload (fs patched for asar, package.json reads from the archive) is inherited by every
 * worker (electron/electron#41080; its spec "should start worker thread from asar file").
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ELECTRON_OUT_DIR = path.join(root, 'dist-electron');

/** The packages a worker bundle imports at run time, from node_modules; the rest are inside. */
export const WORKER_EXTERNAL_PACKAGES = ['better-sqlite3'];

/** Electron 39 runs Node 22 and Chromium 142. */
const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
  external: ['electron'],
};

export interface BuildElectronOptions {
  outDir?: string;
  /** A module to bundle in place of 'electron' (the shell test's stand-in for the binary). */
  electronStandIn?: string;
}

export const buildElectron = async ({
  outDir = ELECTRON_OUT_DIR,
  electronStandIn,
}: BuildElectronOptions = {}): Promise<void> => {
  const electron: BuildOptions = electronStandIn
    ? { alias: { electron: electronStandIn }, external: [] }
    : {};
  rmSync(outDir, { recursive: true, force: true });
  await Promise.all([
    // main.js, worker.js and fill-worker.js side by side: the host finds its worker next to
    // itself, and a bootstrap its page-decoding worker (sync/engine/worker-thread.ts).
    build({
      ...common,
      format: 'esm',
      packages: 'external',
      ...electron,
      entryPoints: { main: path.join(root, 'main/electron/main.ts') },
      outdir: outDir,
      outExtension: { '.js': '.js' },
    }),
    build({
      ...common,
      format: 'esm',
      ...electron,
      external: [...(electron.external ?? common.external ?? []), ...WORKER_EXTERNAL_PACKAGES],
      // The bundled CommonJS packages call require(): an ES module has none of its own.
      banner: {
        js: "import { createRequire as __workerRequire } from 'node:module'; const require = __workerRequire(import.meta.url);",
      },
      entryPoints: {
        worker: path.join(root, 'main/host/worker.ts'),
        'fill-worker': path.join(root, 'sync/engine/fill-worker.ts'),
      },
      outdir: outDir,
      outExtension: { '.js': '.js' },
    }),
    // A sandboxed preload is a single CommonJS file that may require only 'electron'.
    build({
      ...common,
      format: 'cjs',
      ...electron,
      entryPoints: { preload: path.join(root, 'main/electron/preload.ts') },
      outdir: outDir,
      outExtension: { '.js': '.cjs' },
      minify: true,
    }),
  ]);
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildElectron();
  console.log(
    `built ${path.relative(root, ELECTRON_OUT_DIR)}/{main.js,worker.js,fill-worker.js,preload.cjs}`,
  );
}
