/**
 * `npm run dist`: the installers for this platform (electron-builder.yml: AppImage and deb on
 * Linux, dmg on macOS, nsis on Windows). Needs the Electron runtime (a machine installed with
 * ELECTRON_SKIP_BINARY_DOWNLOAD has none) and the network for Electron's headers, against which
 * a copy of better-sqlite3 is built (native-build.ts; node_modules keeps Node's build);
 * without the runtime it says so and stops.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronSqlitePath } from '../start-plan';
import { prepareElectronSqlite } from './native-build';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the Electron build of better-sqlite3 is staged for electron-builder's extraResources. */
export const STAGED_BINDING = 'build/native/package/better_sqlite3.node';

export type ElectronRuntime = { ok: true; binary: string } | { ok: false; reason: string };

/** The `electron` package answers its binary's path, or throws when the binary is missing. */
export const findElectronRuntime = (
  resolveElectron: () => unknown = () => createRequire(import.meta.url)('electron'),
): ElectronRuntime => {
  let binary: unknown;
  try {
    binary = resolveElectron();
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
  if (typeof binary !== 'string' || !existsSync(binary)) {
    return { ok: false, reason: `no Electron binary at ${String(binary)}` };
  }
  return { ok: true, binary };
};

export const missingRuntimeMessage = (reason: string): string =>
  [
    'npm run dist: the Electron runtime is not installed here, so no installer can be built.',
    `  (${reason})`,
    '  Install it with `node node_modules/electron/install.js` (or reinstall without',
    '  ELECTRON_SKIP_BINARY_DOWNLOAD), then run `npm run dist` again.',
    '  The app itself still runs without it: `npm start` serves it in the browser.',
  ].join('\n');

const run = (label: string, command: string, args: string[]) => {
  console.log(`dist: ${label}`);
  // On Windows the .bin entries are .cmd scripts, which only a shell runs.
  const r = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) {
    console.error(`dist: ${label} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
};

const main = async () => {
  const runtime = findElectronRuntime();
  if (!runtime.ok) {
    console.error(missingRuntimeMessage(runtime.reason));
    process.exit(2);
  }
  const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
  run('renderer bundle (vite)', bin('vite'), ['build', '--config', 'renderer/vite.config.ts']);
  run('main, worker and preload bundles', bin('tsx'), ['main/electron/build.ts']);
  // Electron's build of better-sqlite3, staged for extraResources (npmRebuild is off).
  const electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const { version } = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const binding = electronSqlitePath(root, version);
  if (!existsSync(binding)) {
    console.log("dist: better-sqlite3 for Electron's ABI (@electron/rebuild)");
    await prepareElectronSqlite({ root, electronVersion: version, outFile: binding });
  }
  mkdirSync(path.dirname(path.join(root, STAGED_BINDING)), { recursive: true });
  copyFileSync(binding, path.join(root, STAGED_BINDING));
  run('installers (electron-builder)', bin('electron-builder'), ['--publish', 'never']);
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await main();
