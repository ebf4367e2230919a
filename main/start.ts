/**
 * `npm start`: the desktop app whenever the Electron runtime is installed (building first what
 * is missing or stale: start-desktop.ts), otherwise browser mode (the same host and bridge
 * over HTTP on 127.0.0.1, opened in any Chromium), saying why.
 *
 *   npm start -- [--browser] [--data DIR] [--server URL] [--port N] [--no-demo] [--no-build]
 *
 * Environment: WORKTRAY_DATA_DIR, WORKTRAY_SERVER (a real service instead of the embedded
 * demo), WORKTRAY_PORT, WORKTRAY_BUILD_RENDERER=0 (serve what is built, build nothing).
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultBuilders, startDesktop } from './start-desktop';
import { electronEnv, electronPackageDir, ensureRendererBuilt } from './start-plan';
import { startBrowserMode } from './web/browser-mode';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The per-user data folder, as the OS names it. */
const defaultDataDir = (): string => {
  if (process.platform === 'win32')
    return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Worktray');
  if (process.platform === 'darwin')
    return join(homedir(), 'Library', 'Application Support', 'Worktray');
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'worktray');
};

const main = async () => {
  const { values } = parseArgs({
    options: {
      browser: { type: 'boolean', default: false },
      data: { type: 'string' },
      server: { type: 'string' },
      port: { type: 'string' },
      'no-demo': { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const dataDir = resolve(values.data ?? process.env.WORKTRAY_DATA_DIR ?? defaultDataDir());
  const serverUrl = values.server ?? (process.env.WORKTRAY_SERVER || null);
  const port = Number(values.port ?? process.env.WORKTRAY_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port ${values.port} is not a port number`);

  const build = !values['no-build'] && process.env.WORKTRAY_BUILD_RENDERER !== '0';
  const desktop = await startDesktop({
    root,
    electronDir: electronPackageDir(),
    browser: values.browser,
    build,
    builders: defaultBuilders,
    env: electronEnv(process.env, dataDir, serverUrl, !values['no-demo']),
    log: console.log,
  });
  if (desktop.mode === 'electron') {
    desktop.child.on('exit', (code) => process.exit(code ?? 0));
    return;
  }

  const app = await startBrowserMode({
    dataDir,
    serverUrl,
    demoDefault: !values['no-demo'],
    staticDir: ensureRendererBuilt(root, build),
    port,
  });
  console.log(`${desktop.why}: running in browser mode at ${app.web.url}`);
  if (desktop.detail) console.log(`  (${desktop.detail})`);
  console.log(
    `data: ${dataDir}${serverUrl ? `; service: ${serverUrl}` : '; demo server embedded'}`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
