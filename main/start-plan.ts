/**
 * What `npm start` does before it runs anything, apart from main/start.ts (which runs at
 * import): the renderer built when missing, and the environment the Electron app starts with.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

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
    const vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
    const r = spawnSync(
      process.execPath,
      [vite, 'build', '--config', config, '--logLevel', 'warn'],
      { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (r.status !== 0) log('the UI build failed: the app shows a page that says so');
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
