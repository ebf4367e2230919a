import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const madeDirs = new Set<string>();
const removeMadeDirs = () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
  madeDirs.clear();
};
process.once('exit', removeMadeDirs);
// Vitest stops its fork workers with SIGTERM, which ends a process without 'exit' events:
// clean up, then die of the same signal (this listener is gone, so the default action runs).
process.once('SIGTERM', () => {
  removeMadeDirs();
  process.kill(process.pid, 'SIGTERM');
});

/**
 * A fresh directory under the OS temp dir, removed when the process exits or is terminated:
 * tests and benches make many (a 100k bench run leaves ~260 MB).
 */
export const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
};
