/**
 * `npm run smoke:desktop`: the desktop app end to end where the Electron runtime is installed.
 * It builds what is missing or stale (the start plan, as `npm start` does), starts Electron with
 * `--smoke` on a fresh data folder (main/electron/smoke.ts: hidden window, demo sign-in, first
 * sync, tray menu) and prints the app's one JSON line; any failure, or no answer in time, ends
 * with a non-zero exit and one line saying why.
 *
 *   npm run smoke:desktop -- [--packaged BINARY] [--data DIR] [--timeout SECONDS]
 *
 * `--packaged` runs an installed or unpacked build (dist/release/…) as it is, building nothing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  errorText,
  SMOKE_FAILED,
  SMOKE_FLAG,
  SMOKE_TIMEOUT_ENV,
  smokeResult,
} from './electron/smoke';
import { type Builders, defaultBuilders, startDesktop } from './start-desktop';
import { electronEnv, electronPackageDir } from './start-plan';

/** Beyond the app's own limit, for Electron to start and to close its host. */
const GRACE_MS = 30_000;

export interface SmokeDesktopOptions {
  root: string;
  /** The electron package's folder, or null when it does not resolve. */
  electronDir: string | null;
  builders: Builders;
  /** A packaged app's executable, started as it is. */
  packaged?: string;
  /** The app's data folder; without one, a fresh temporary folder, removed after. */
  dataDir?: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** The result line (stdout). */
  out(line: string): void;
  /** Progress, the app's own messages and the reason of a failure (stderr). */
  err(line: string): void;
}

interface Outcome {
  code: number | null;
  signal: string | null;
  lines: string[];
  failure: string | null;
  timedOut: boolean;
}

const watch = (child: ChildProcess, limitMs: number, err: (line: string) => void) =>
  new Promise<Outcome>((done) => {
    const outcome: Outcome = {
      code: null,
      signal: null,
      lines: [],
      failure: null,
      timedOut: false,
    };
    if (child.stdout) createInterface(child.stdout).on('line', (l) => outcome.lines.push(l));
    if (child.stderr)
      createInterface(child.stderr).on('line', (l) => {
        if (l.startsWith(SMOKE_FAILED)) outcome.failure = l.slice(SMOKE_FAILED.length).trim();
        err(l);
      });
    const timer = setTimeout(() => {
      outcome.timedOut = true;
      child.kill('SIGKILL');
    }, limitMs);
    child.on('error', (e) => {
      outcome.failure = `could not start ${child.spawnfile}: ${e.message}`;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      outcome.code = code;
      outcome.signal = signal;
      done(outcome);
    });
  });

/** The exit code of the run; the result line goes to `out`, everything else to `err`. */
export const smokeDesktop = async (o: SmokeDesktopOptions): Promise<number> => {
  const fail = (reason: string) => {
    o.err(`smoke:desktop failed: ${reason}`);
    return 1;
  };
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'worktray-smoke-'));
  try {
    const env = {
      ...electronEnv(o.env, dataDir, null),
      [SMOKE_TIMEOUT_ENV]: String(o.timeoutMs),
    };
    let child: ChildProcess;
    if (o.packaged) {
      child = spawn(o.packaged, [SMOKE_FLAG], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    } else {
      const started = await startDesktop({
        root: o.root,
        args: [SMOKE_FLAG],
        electronDir: o.electronDir,
        browser: false,
        build: true,
        builders: o.builders,
        env,
        log: o.err,
        stdio: 'pipe',
      });
      if (started.mode === 'browser')
        return fail(`${started.why}${started.detail ? ` (${started.detail})` : ''}`);
      child = started.child;
    }
    const r = await watch(child, o.timeoutMs + GRACE_MS, o.err);
    const results = r.lines.filter((l) => smokeResult.safeParse(safeJson(l)).success);
    if (r.code === 0 && results.length === 1 && results[0]) {
      o.out(results[0]);
      return 0;
    }
    if (r.timedOut)
      return fail(`the app gave no answer in ${(o.timeoutMs + GRACE_MS) / 1000} s and was killed`);
    if (r.failure) return fail(r.failure);
    const how = r.signal ? `was killed (${r.signal})` : `exited with code ${r.code}`;
    return fail(`the app ${how} without printing a result line`);
  } catch (e) {
    return fail(errorText(e));
  } finally {
    if (!o.dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
};

const safeJson = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      packaged: { type: 'string' },
      data: { type: 'string' },
      timeout: { type: 'string', default: '120' },
    },
    strict: true,
  });
  const seconds = Number(values.timeout);
  if (!(seconds > 0)) {
    console.error(`smoke:desktop failed: --timeout ${values.timeout} is not a number of seconds`);
    process.exit(1);
  }
  const code = await smokeDesktop({
    root: resolve(dirname(fileURLToPath(import.meta.url)), '..'),
    electronDir: electronPackageDir(),
    builders: defaultBuilders,
    ...(values.packaged ? { packaged: resolve(values.packaged) } : {}),
    ...(values.data ? { dataDir: resolve(values.data) } : {}),
    timeoutMs: seconds * 1000,
    env: process.env,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  process.exit(code);
}
