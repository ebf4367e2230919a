/**
 * `npm start`: the desktop app whenever the Electron runtime is installed (building first what
 * is missing or stale: start-desktop.ts), otherwise browser mode (the same host and bridge
 * over HTTP on 127.0.0.1, opened in any Chromium), saying why.
 *
 *   npm start -- [--browser] [--data DIR] [--server URL] [--port N] [--no-demo] [--no-build]
 *
 * Environment: WORKTRAY_DATA_DIR, WORKTRAY_SERVER (a real service instead of the embedded
 * demo), WORKTRAY_PORT, WORKTRAY_BUILD_RENDERER=0 (serve what is built, build nothing).
 *
 * It exits as Electron did: a death by signal is 128 + the signal's number, never 0, and a
 * sandbox that cannot start (Ubuntu 23.10+, electron-sandbox.ts) is said with its fix.
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { devProfile } from './electron/app-identity';
import { hostSandboxProbe, type SandboxProbe } from './electron-sandbox';
import { type Builders, defaultBuilders, startDesktop, watchElectron } from './start-desktop';
import { electronEnv, electronPackageDir, ensureRendererBuilt } from './start-plan';
import { startBrowserMode } from './web/browser-mode';

/**
 * The per-user data folder of a run from sources, as the OS names it: beside the installed
 * app's (its replicas, outbox and tokens), never in it, so that both can run at once.
 */
export const defaultDataDir = (
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string => {
  if (platform === 'win32')
    return devProfile(join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Worktray'));
  if (platform === 'darwin')
    return devProfile(join(home, 'Library', 'Application Support', 'Worktray'));
  return devProfile(join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'worktray'));
};

export interface StartOptions {
  /** The command line after `npm start --`. */
  argv: string[];
  env: NodeJS.ProcessEnv;
  /** The repository: what is built and started. */
  root: string;
  /** The electron package's folder, or null when it does not resolve. */
  electronDir: string | null;
  builders: Builders;
  /** Read before Electron starts, to tell whether its sandbox can start here. */
  sandbox: SandboxProbe;
  /** Progress and the browser mode's address (stdout). */
  out(line: string): void;
  /** Why the run failed (stderr). */
  err(line: string): void;
  /** Electron's own stderr, passed on as it comes. */
  relay(chunk: Buffer): void;
}

/** Runs the app until it ends; answers the exit status. */
export const start = async (o: StartOptions): Promise<number> => {
  const { values } = parseArgs({
    args: o.argv,
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
  const dataDir = resolve(
    values.data ?? o.env.WORKTRAY_DATA_DIR ?? defaultDataDir(process.platform, o.env),
  );
  const serverUrl = values.server ?? (o.env.WORKTRAY_SERVER || null);
  const port = Number(values.port ?? o.env.WORKTRAY_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port ${values.port} is not a port number`);

  const build = !values['no-build'] && o.env.WORKTRAY_BUILD_RENDERER !== '0';
  const desktop = await startDesktop({
    root: o.root,
    electronDir: o.electronDir,
    browser: values.browser,
    build,
    builders: o.builders,
    env: electronEnv(o.env, dataDir, serverUrl, !values['no-demo']),
    log: o.out,
    stdio: 'stderr',
    sandbox: o.sandbox,
  });
  if (desktop.mode === 'electron') {
    // Ctrl+C reaches Electron too (the terminal signals the whole group): npm start waits for it
    // to quit, reading its stderr to the end. A SIGTERM for npm start alone is passed on.
    const wait = () => {};
    const pass = () => desktop.child.kill('SIGTERM');
    process.on('SIGINT', wait);
    process.on('SIGTERM', pass);
    try {
      const end = await watchElectron(desktop.child, desktop.binary, o.relay);
      if (end.message) o.err(`npm start: ${end.message}`);
      return end.status;
    } finally {
      process.off('SIGINT', wait);
      process.off('SIGTERM', pass);
    }
  }

  const app = await startBrowserMode({
    dataDir,
    serverUrl,
    demoDefault: !values['no-demo'],
    staticDir: ensureRendererBuilt(o.root, build),
    port,
  });
  o.out(`${desktop.why}: running in browser mode at ${app.web.url}`);
  if (desktop.detail) o.out(`  (${desktop.detail})`);
  o.out(`data: ${dataDir}${serverUrl ? `; service: ${serverUrl}` : '; demo server embedded'}`);
  return new Promise((done) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      app.close().then(
        () => done(0),
        () => done(1),
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  start({
    argv: process.argv.slice(2),
    env: process.env,
    root: resolve(dirname(fileURLToPath(import.meta.url)), '..'),
    electronDir: electronPackageDir(),
    builders: defaultBuilders,
    sandbox: hostSandboxProbe,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    relay: (chunk) => process.stderr.write(chunk),
  }).then(
    (status) => process.exit(status),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
