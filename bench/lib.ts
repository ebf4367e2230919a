import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..');
export { tempDir } from '../sync/test-support/temp-dir';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The reference server in its own process (its own core), as a real service would be: the
 * client's work and the server's are not serialized on one event loop.
 */
export const startServerProcess = (args: string[]): Promise<ServerProcess> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'server/cli.ts'), '--port', '0', ...args],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m?.[1]) {
        const url = m[1];
        resolvePromise({
          url,
          child,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`server exited with ${code} before listening:\n${out}`)),
    );
  });

export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
};

export const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** Samples RSS until stopped; the peak in MB. */
export const rssSampler = (everyMs = 20) => {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss) / 1024 / 1024;
    },
  };
};

/** Benchmarks end with one JSON line of their figures (the README quotes it). */
export const printFigures = (figures: Record<string, number | string>) => {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
};
