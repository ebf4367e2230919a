/**
 * `npm run build:electron`: bundles the main process, the host worker, the bootstrap's decoding
 * worker and the preload into dist-electron/ (Electron runs JavaScript, not TypeScript). Our code is bundled; packages stay
 * imports of node_modules (better-sqlite3 is native and is rebuilt for Electron when packaged).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ELECTRON_OUT_DIR = path.join(root, 'dist-electron');

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
      entryPoints: {
        main: path.join(root, 'main/electron/main.ts'),
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
