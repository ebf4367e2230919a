import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxProbe } from '../../main/electron-sandbox';
import { defaultDataDir, start } from '../../main/start';
import { type Builders, startDesktop } from '../../main/start-desktop';
import { desktopArtifacts } from '../../main/start-plan';
import { installStandInElectron } from './stand-in-binary';

/**
 * `npm start` (main/start.ts) with a stand-in Electron binary and an app whose parts are all
 * built: the exit status it answers for each way Electron can end, and what it says.
 */
const base = mkdtempSync(path.join(tmpdir(), 'wt-start-exit-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const appRoot = path.join(base, 'app');
const electronDir = path.join(base, 'node_modules', 'electron');
const helper = path.join(electronDir, 'dist', 'chrome-sandbox');
for (const part of Object.values(desktopArtifacts(appRoot, '39.8.10')))
  for (const file of part.outputs) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '');
  }

const noBuilders: Builders = {
  renderer: async () => {},
  bundles: async () => {},
  native: async () => {},
};

/** A machine where user namespaces are free (no AppArmor restriction). */
const freeMachine: SandboxProbe = {
  platform: 'linux',
  readFile: () => {
    throw new Error('ENOENT');
  },
  stat: () => ({ uid: 1000, mode: 0o100755 }),
  readdir: () => [],
};

/** Ubuntu 24.04 as installed: the restriction on, the helper as npm left it. */
const ubuntu2404: SandboxProbe = {
  ...freeMachine,
  readFile: (file) => {
    if (file === '/proc/sys/kernel/apparmor_restrict_unprivileged_userns') return '1\n';
    throw new Error('ENOENT');
  },
};

/** npm start with the stand-in binary as it is installed. */
const startIt = async () => {
  const out: string[] = [];
  const err: string[] = [];
  const relayed: string[] = [];
  const status = await start({
    argv: ['--no-build', '--data', path.join(base, 'data')],
    env: { PATH: process.env.PATH },
    root: appRoot,
    electronDir,
    builders: noBuilders,
    sandbox: freeMachine,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    relay: (chunk) => relayed.push(chunk.toString()),
  });
  return { status, out, err: err.join('\n'), relayed: relayed.join('') };
};

const run = (script: string) => {
  installStandInElectron(electronDir, script);
  return startIt();
};

describe.skipIf(process.platform === 'win32')('npm start: the exit status after Electron', () => {
  it('exits as Electron did when it ends by itself', { timeout: 30_000 }, async () => {
    expect(await run('exit 0')).toMatchObject({ status: 0, err: '' });
    expect(await run('echo "the host failed" >&2; exit 3')).toMatchObject({
      status: 3,
      err: '',
      relayed: 'the host failed\n',
    });
  });

  it('a death by signal is 128 + its number, not 0, and says so', async () => {
    const r = await run('kill -SEGV $$');
    expect(r.status).toBe(128 + 11);
    expect(r.err).toMatch(/^npm start: Electron was killed by SIGSEGV/);
    expect(r.err).toContain('npm start -- --browser');
  });

  it('the sandbox abort: its messages passed on, then what happened and the fix', async () => {
    const fatal =
      "[4711:0614/163124.425381:FATAL:setuid_sandbox_host.cc(158)] The SUID sandbox helper binary was found, but is not configured correctly. Rather than run without sandboxing I'm aborting now. " +
      `You need to make sure that ${helper} is owned by root and has mode 4755.`;
    const r = await run(`echo "${fatal}" >&2; kill -TRAP $$`);
    expect(r.status).toBe(128 + 5);
    expect(r.relayed).toBe(`${fatal}\n`);
    expect(r.err).toMatch(/^npm start: Electron stopped before the app started: its sandbox/);
    expect(r.err).toContain(
      `sudo chown root:root ${helper} && sudo chmod 4755 ${helper} (again after each npm ci)`,
    );
    expect(r.err).toContain('sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
    expect(r.err).toContain('npm start -- --browser');
  });

  it('on Ctrl+C waits for Electron to quit; passes a SIGTERM of its own on', async () => {
    const running = path.join(base, 'running');
    installStandInElectron(
      electronDir,
      `trap 'echo quitting >&2; exit 7' TERM; touch '${running}'; while :; do sleep 0.05; done`,
    );
    const listeners = (signal: NodeJS.Signals) => new Set(process.listeners(signal));
    const [int, term] = [listeners('SIGINT'), listeners('SIGTERM')];
    const ended = startIt();
    while (!existsSync(running)) await new Promise((done) => setTimeout(done, 20));
    const added = (signal: NodeJS.Signals, before: Set<unknown>) =>
      process.listeners(signal).filter((l) => !before.has(l));
    // npm start's own handlers: SIGINT (which the terminal sends Electron too) ends nothing.
    for (const onInt of added('SIGINT', int)) onInt('SIGINT');
    for (const onTerm of added('SIGTERM', term)) onTerm('SIGTERM');
    expect(await ended).toMatchObject({ status: 7, relayed: 'quitting\n' });
    expect([added('SIGINT', int), added('SIGTERM', term)]).toEqual([[], []]);
  });

  it('a binary that cannot be started: status 1, saying so', async () => {
    chmodSync(installStandInElectron(electronDir, 'exit 0'), 0o644);
    const r = await startIt();
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/^npm start: could not start Electron \(.*\): spawn .* EACCES/);
  });
});

describe.skipIf(process.platform === 'win32')('npm start before Electron: its sandbox', () => {
  it('where it cannot start, does not start Electron: browser mode, with the fix', async () => {
    const record = path.join(base, 'started.txt');
    installStandInElectron(electronDir, `touch '${record}'`);
    const r = await startDesktop({
      root: appRoot,
      electronDir,
      browser: false,
      build: false,
      builders: noBuilders,
      env: {},
      log: () => {},
      sandbox: ubuntu2404,
    });
    expect(r.mode).toBe('browser');
    if (r.mode !== 'browser') return;
    expect(r.why).toBe("Electron's sandbox cannot start here (AppArmor restricts user namespaces)");
    expect(r.detail).toContain(`sudo chown root:root ${helper} && sudo chmod 4755 ${helper}`);
    await new Promise((done) => setTimeout(done, 200));
    expect(() => rmSync(record)).toThrow();
  });
});

describe('the data folder of a run from sources', () => {
  it('is beside the installed app’s on every platform, never in it', () => {
    const home = '/home/u';
    expect(defaultDataDir('darwin', {}, home)).toBe(
      '/home/u/Library/Application Support/Worktray-dev',
    );
    expect(defaultDataDir('win32', { APPDATA: 'C:/Users/u/AppData/Roaming' }, home)).toBe(
      path.join('C:/Users/u/AppData/Roaming', 'Worktray-dev'),
    );
    expect(defaultDataDir('linux', {}, home)).toBe('/home/u/.local/share/worktray-dev');
  });
});
