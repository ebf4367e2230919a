/**
 * The parent's side of engine-child.ts: bundles it once (esbuild, with the fill worker as an
 * entry of its own beside it, as the app ships), forks it under plain node, sends commands and
 * checks every answer, and can SIGKILL it at any moment.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bundleForNode } from '../../support/node-bundle';
import {
  type AnswerOf,
  answerSchemas,
  type ChildRequest,
  childMessage,
  type SessionTokensMsg,
} from './protocol';

const repoRoot = join(import.meta.dirname, '../../..');

export interface ChildBundle {
  script: string;
  remove(): void;
}

/**
 * One folder under the repository root per process (`.test-model-child-<pid>`): better-sqlite3
 * resolves from node_modules, and parallel runs do not share it. Removed on exit.
 */
export const bundleChild = async (): Promise<ChildBundle> => {
  const out = join(repoRoot, `.test-model-child-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  const remove = () => rmSync(out, { recursive: true, force: true });
  process.once('exit', remove);
  // Packages go into the bundle too: one file to load, not hundreds to resolve (a child was
  // ready in ~390 ms instead of ~575, a fill worker in ~190 instead of ~215).
  await bundleForNode(
    {
      'engine-child': join(import.meta.dirname, 'engine-child.ts'),
      'fill-worker': join(repoRoot, 'sync/engine/fill-worker.ts'),
    },
    out,
  );
  return { script: join(out, 'engine-child.js'), remove };
};

const REQUEST_TIMEOUT_MS = 60_000;

interface Waiter {
  cmd: ChildRequest['cmd'];
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class EngineChild {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  private stderr = '';
  private exitedWith: string | null = null;
  readonly exited: Promise<void>;

  private constructor(
    private readonly proc: ChildProcess,
    onTokens: (t: SessionTokensMsg) => void,
    ready: () => void,
  ) {
    proc.stderr?.on('data', (d: Buffer) => {
      // The last few KB are enough to explain a crash.
      this.stderr = (this.stderr + String(d)).slice(-8_000);
    });
    proc.stdout?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + String(d)).slice(-8_000);
    });
    proc.on('message', (raw: unknown) => {
      const m = childMessage.safeParse(raw);
      if (!m.success) {
        this.failAll(new Error(`engine child sent a bad message: ${m.error.message}`));
        return;
      }
      const msg = m.data;
      if (msg.type === 'ready') ready();
      else if (msg.type === 'tokens') onTokens(msg.tokens);
      else {
        const w = this.waiting.get(msg.id);
        if (!w) return;
        this.waiting.delete(msg.id);
        clearTimeout(w.timer);
        if (msg.type === 'error') {
          w.reject(new Error(`child ${w.cmd}: ${msg.message}`));
          return;
        }
        const parsed = answerSchemas[w.cmd].safeParse(msg.value);
        if (parsed.success) w.resolve(parsed.data);
        else w.reject(new Error(`child ${w.cmd} answered badly: ${parsed.error.message}`));
      }
    });
    this.exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        this.exitedWith = signal ?? `code ${code}`;
        this.failAll(new Error(`engine child exited (${this.exitedWith})\n${this.stderr}`));
        resolve();
      });
    });
  }

  /** Forks the bundle under plain node (no tsx loader: one process a SIGKILL ends whole). */
  static async spawn(script: string, onTokens: (t: SessionTokensMsg) => void) {
    let ready: () => void = () => {};
    const isReady = new Promise<void>((r) => {
      ready = r;
    });
    const proc = fork(script, [], {
      execPath: process.execPath,
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const child = new EngineChild(proc, onTokens, ready);
    await Promise.race([
      isReady,
      child.exited.then(() => {
        throw new Error(`engine child died while starting\n${child.stderr}`);
      }),
    ]);
    return child;
  }

  get alive(): boolean {
    return this.exitedWith === null;
  }

  request<C extends ChildRequest['cmd']>(
    request: Extract<ChildRequest, { cmd: C }>,
  ): Promise<AnswerOf<C>> {
    if (!this.alive) return Promise.reject(new Error(`engine child is gone (${this.exitedWith})`));
    const id = this.nextId++;
    return new Promise<AnswerOf<C>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`child ${request.cmd}: no answer in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.waiting.set(id, {
        cmd: request.cmd,
        resolve: resolve as (v: unknown) => void,
        reject,
        timer,
      });
      this.proc.send({ id, request });
    });
  }

  /** SIGKILL now; resolves once the process is gone. Pending requests fail. */
  async kill(): Promise<void> {
    if (this.alive) this.proc.kill('SIGKILL');
    await this.exited;
  }

  /** Closes the engine and ends the process. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    try {
      await this.request({ cmd: 'close' });
    } finally {
      this.proc.disconnect();
      await this.exited;
    }
  }

  private failAll(error: Error) {
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(error);
      this.waiting.delete(id);
    }
  }
}
