/**
 * Runs a bench as the app ships its code: bundled by esbuild (the fill's worker as an entry of
 * its own beside it, as main/electron/build.ts does) and run by plain node, not through tsx,
 * whose loader threads and compiled sources would count in the figures (~35 MB of RSS on the
 * main thread alone). `tsx bench/bundled.ts NAME [args]` runs bench/NAME.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './lib';

const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name)) throw new Error('usage: tsx bench/bundled.ts NAME [args]');
// One level under the repository: its package imports resolve to node_modules, and the
// bench's `repoRoot` (its folder's parent) is the repository still.
const out = join(repoRoot, `.bench-${name}`);
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
try {
  await build({
    entryPoints: {
      [name]: join(repoRoot, 'bench', `${name}.ts`),
      'fill-worker': join(repoRoot, 'sync/engine/fill-worker.ts'),
    },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  const code = await new Promise<number | null>((resolve) =>
    spawn(process.execPath, [join(out, `${name}.js`), ...args], { stdio: 'inherit' }).once(
      'exit',
      resolve,
    ),
  );
  process.exitCode = code ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
