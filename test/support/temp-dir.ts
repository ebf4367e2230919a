import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const madeDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh directory under the OS temp dir, removed when the process exits: tests and benches
 * make many (a 100k bench run leaves ~260 MB).
 */
export const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
};
