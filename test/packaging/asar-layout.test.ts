import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildElectron } from '../../main/electron/build';

/**
 * The packaged app's file layout, as electron-builder makes it from electron-builder.yml: every
 * worker entry and every file it loads (its imports, followed through node_modules, the
 * package.json files Node's resolver reads, and native `.node` files) must lie in the unpacked
 * set, because a worker thread cannot count on reading app.asar.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORKER_ENTRIES = ['worker.js', 'fill-worker.js'];

interface Stat {
  isDirectory(): boolean;
}
type Filter = (file: string, stat: Stat) => boolean;
interface FileMatcher {
  createFilter(): Filter;
}

/** electron-builder's own matcher for a `files`-like key (minimatch, its options, its rules). */
const builderFilter = (key: 'files' | 'asarUnpack'): Filter => {
  const req = createRequire(path.join(root, 'node_modules/app-builder-lib/package.json'));
  const { getFileMatchers } = req('./out/fileMatcher.js') as {
    getFileMatchers(
      config: unknown,
      name: string,
      destination: string,
      options: {
        macroExpander: (s: string) => string;
        customBuildOptions: object;
        globalOutDir: string;
        defaultSrc: string;
      },
    ): FileMatcher[] | null;
  };
  const config = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as {
    directories: { output: string };
  };
  const matchers = getFileMatchers(config, key, '/app', {
    macroExpander: (s) => s,
    customBuildOptions: {},
    globalOutDir: path.join(root, config.directories.output),
    defaultSrc: root,
  });
  const first = matchers?.[0];
  if (!first) throw new Error(`electron-builder.yml has no ${key}`);
  return first.createFilter();
};

const asFile: Stat = { isDirectory: () => false };

/** The production dependency closure of package.json: what electron-builder packs. */
const productionPackages = (): Set<string> => {
  const seen = new Set<string>();
  const visit = (dir: string) => {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const names = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies });
    for (const name of names) {
      const found = packageDirOf(name, dir);
      if (found === null || seen.has(found)) continue;
      seen.add(found);
      visit(found);
    }
  };
  visit(root);
  return seen;
};

/** Node's lookup of package `name` from `dir`: the nearest node_modules that holds it. */
const packageDirOf = (name: string, dir: string): string | null => {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (at === root || path.dirname(at) === at) return null;
  }
};

/** The package folder a file in node_modules belongs to (scoped names included). */
const packageDirOfFile = (file: string): string => {
  const parts = path.relative(root, file).split(path.sep);
  const last = parts.lastIndexOf('node_modules');
  const take = parts[last + 1]?.startsWith('@') ? last + 3 : last + 2;
  return path.join(root, ...parts.slice(0, take));
};

/** Every `.node` file under a folder. */
const nativeFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.node'))
    .map((f) => path.join(dir, f));

/** The nearest package.json above a file: it says how Node loads a `.js` file (its "type"). */
const governingPackageJson = (file: string): string | null => {
  for (let at = path.dirname(file); ; at = path.dirname(at)) {
    const candidate = path.join(at, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (at === root || path.dirname(at) === at) return null;
  }
};

describe('the packaged layout: workers run without asar support', () => {
  let out = '';
  /** Per worker entry: the app-relative files it loads, each with its real path on disk. */
  const loads = new Map<string, Map<string, string>>();

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'worktray-asar-'));
    await buildElectron({ outDir: out });
    for (const entry of WORKER_ENTRIES) {
      // esbuild follows every import and require from the real bundle; bare names resolve in
      // the project's node_modules (the bundle sits in dist-electron/ when packaged).
      const result = await build({
        entryPoints: [path.join(out, entry)],
        bundle: true,
        write: false,
        metafile: true,
        platform: 'node',
        format: 'esm',
        target: 'node22',
        logLevel: 'silent',
        absWorkingDir: root,
        nodePaths: [path.join(root, 'node_modules')],
        loader: { '.node': 'file' },
        outdir: path.join(out, 'closure'),
      });
      const files = new Map<string, string>();
      const add = (real: string) => {
        const inOut = path.relative(out, real);
        const app = inOut.startsWith('..')
          ? path.relative(root, real)
          : path.join('dist-electron', inOut);
        files.set(app.split(path.sep).join('/'), real);
      };
      for (const input of Object.keys(result.metafile.inputs)) add(path.resolve(root, input));
      const packages = new Set(
        [...files.values()].filter((f) => f.includes('node_modules')).map(packageDirOfFile),
      );
      // Native modules are found at run time by computed paths (bindings), not by imports.
      for (const dir of packages) for (const f of nativeFiles(dir)) add(f);
      for (const real of [...files.values()]) {
        const pkg = governingPackageJson(
          real.startsWith(out) ? path.join(root, 'dist-electron', path.relative(out, real)) : real,
        );
        if (pkg) add(pkg);
      }
      loads.set(entry, files);
    }
  }, 20_000);

  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('finds the worker entries, their packages and the native module', () => {
    const worker = [...(loads.get('worker.js')?.keys() ?? [])];
    expect(worker).toContain('dist-electron/worker.js');
    expect(worker).toContain('package.json');
    expect(worker).toContain('node_modules/better-sqlite3/lib/index.js');
    expect(worker.some((f) => /^node_modules\/better-sqlite3\/.*\.node$/.test(f))).toBe(true);
    expect([...(loads.get('fill-worker.js')?.keys() ?? [])]).toContain(
      'dist-electron/fill-worker.js',
    );
  });

  it('packs every file a worker loads (the `files` globs, or a production dependency)', () => {
    const files = builderFilter('files');
    const production = productionPackages();
    const missing: string[] = [];
    for (const [, entryFiles] of loads) {
      for (const [app, real] of entryFiles) {
        const packed = app.includes('node_modules/')
          ? production.has(packageDirOfFile(real))
          : files(path.join(root, app), asFile);
        if (!packed) missing.push(app);
      }
    }
    expect(missing).toEqual([]);
  });

  it('unpacks every file a worker loads (asarUnpack, matched as electron-builder does)', () => {
    const unpack = builderFilter('asarUnpack');
    // Reported per package (or app file): the line to add to asarUnpack.
    const packed = new Set<string>();
    for (const entryFiles of loads.values()) {
      for (const app of entryFiles.keys()) {
        if (unpack(path.join(root, app), asFile)) continue;
        packed.add(
          app.includes('node_modules/')
            ? path.relative(root, packageDirOfFile(path.join(root, app)))
            : app,
        );
      }
    }
    expect([...packed].sort()).toEqual([]);
  });

  it('keeps the main bundle and the renderer inside the asar', () => {
    const unpack = builderFilter('asarUnpack');
    expect(unpack(path.join(root, 'dist-electron/main.js'), asFile)).toBe(false);
    expect(unpack(path.join(root, 'dist-electron/preload.cjs'), asFile)).toBe(false);
    expect(unpack(path.join(root, 'renderer/dist/index.html'), asFile)).toBe(false);
  });
});
