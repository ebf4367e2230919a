import { existsSync } from 'node:fs';
// A namespace import: a bundle's banner may declare its own `createRequire` (the crash test's).
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker entry `name` of the folder of the module at `here` (its import.meta.url):
 * run from sources (tsx, vitest) that is `name.ts`, with tsx registered in the worker first (a
 * worker's `--import` hooks come too late for its entry module); from a bundle, `name.js`
 * beside the bundle. Null when a bundle was built without that entry: the caller then does the
 * work on its own thread.
 */
export const spawnEntryWorker = (
  here: string,
  name: string,
  options: WorkerOptions = {},
): Worker | null => {
  if (!here.endsWith('.ts')) {
    const built = new URL(`./${name}.js`, here);
    return existsSync(fileURLToPath(built)) ? new Worker(built, options) : null;
  }
  // The ESM build of tsx's API: import.meta.resolve picks it where available (tsx, node);
  // under vitest that is missing and the package's `import` export is located by hand.
  const tsx =
    typeof import.meta.resolve === 'function'
      ? import.meta.resolve('tsx/esm/api')
      : pathToFileURL(
          join(
            dirname(nodeModule.createRequire(here).resolve('tsx/package.json')),
            'dist/esm/api/index.mjs',
          ),
        ).href;
  const entry = new URL(`./${name}.ts`, here).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`,
    { ...options, eval: true },
  );
};
