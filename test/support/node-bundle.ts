/**
 * Child processes of the tests, bundled once by esbuild and run by plain node (not through tsx,
 * whose own child would outlive a SIGKILL and whose loader costs a second a start): packages go
 * into the bundle (one file to load), except better-sqlite3, a native binding, which resolves
 * from node_modules, so the output folder must lie inside the repository.
 */
import { build } from 'esbuild';

/** Bundles each entry (name → source) into `outdir` as `<name>.js` (ES modules). */
export const bundleForNode = async (
  entries: Readonly<Record<string, string>>,
  outdir: string,
): Promise<void> => {
  await build({
    entryPoints: { ...entries },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    // Bundled CommonJS modules call require(): give the ES module one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
};
