import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildElectron, WORKER_EXTERNAL_PACKAGES } from '../../main/electron/build';
import { builderRequire, root } from './builder-config';
import { packageClosure } from './package-closure';

/**
 * The packaged app's file layout, as electron-builder makes it from electron-builder.yml. The
 * workers start from app.asar like the main process, so every file a worker loads (its
 * imports, followed through node_modules, the package.json files Node's resolver reads) must
 * be packed and lie inside the archive, whose integrity the fuse checks; only native `.node`
 * files lie beside it, unpacked. The worker bundles carry their packages themselves, but
 * better-sqlite3 (main/electron/build.ts): that is all they may load from node_modules.
 */
const WORKER_ENTRIES = ['worker.js', 'fill-worker.js'];
const config = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as {
  directories: { output: string };
  asar?: { smartUnpack?: boolean };
};

interface Stat {
  isDirectory(): boolean;
}
type Filter = (file: string, stat: Stat) => boolean;
interface FileMatcher {
  createFilter(): Filter;
}
const asFile: Stat = { isDirectory: () => false };

/** electron-builder's own matcher for a `files`-like key (minimatch, its options, its rules). */
const builderFilter = (key: 'files' | 'asarUnpack'): Filter => {
  const { getFileMatchers } = builderRequire('./out/fileMatcher.js') as {
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

/**
 * electron-builder's filter of node_modules files (the `files` exclusions); it reads a file's
 * place in the app from its stat, as the builder's module copier sets it.
 */
const nodeModulesFilter = (): ((appPath: string) => boolean) => {
  const { getNodeModuleFileMatcher } = builderRequire('./out/fileMatcher.js') as {
    getNodeModuleFileMatcher(...args: unknown[]): FileMatcher;
  };
  const filter = getNodeModuleFileMatcher(
    root,
    '/app',
    (s: string) => s,
    {},
    {
      config,
      debugLogger: { isEnabled: false },
    },
  ).createFilter();
  return (appPath) =>
    filter(path.join(root, appPath), { ...asFile, moduleFullFilePath: appPath } as Stat);
};

/** Where node_modules really is (this checkout's may be a link to a shared one). */
const nodeModules = realpathSync(path.join(root, 'node_modules'));

/** A file's place in the app (`dist-electron/…`, `node_modules/…`, `package.json`). */
const appPathOf = (real: string, out: string): string => {
  const inOut = path.relative(out, real);
  if (!inOut.startsWith('..')) return path.join('dist-electron', inOut);
  const inModules = path.relative(nodeModules, real);
  return inModules.startsWith('..')
    ? path.relative(root, real)
    : path.join('node_modules', inModules);
};

/** The package a file in node_modules belongs to: `node_modules/<name>` (scoped names too). */
const packageOf = (appPath: string): string => {
  const parts = appPath.split('/');
  const last = parts.lastIndexOf('node_modules');
  return parts.slice(0, parts[last + 1]?.startsWith('@') ? last + 3 : last + 2).join('/');
};

const productionPackages = (): Set<string> => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  return packageClosure(Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }));
};

/** The nearest package.json above a file: it says how Node loads a `.js` file (its "type"). */
const governingPackageJson = (appPath: string): string | null => {
  for (let at = path.dirname(appPath); ; at = path.dirname(at)) {
    const candidate = path.join(at, 'package.json');
    if (existsSync(path.join(root, candidate))) return candidate;
    if (at === '.' || at === path.dirname(at)) return null;
  }
};

describe('the packaged layout: the workers run from app.asar', () => {
  let out = '';
  /** Per worker entry: the app paths of the files it loads. */
  const loads = new Map<string, Set<string>>();

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'worktray-asar-'));
    await buildElectron({ outDir: out });
    for (const entry of WORKER_ENTRIES) {
      // esbuild follows every import and require of the real bundle; bare names resolve in
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
      const files = new Set<string>();
      for (const input of Object.keys(result.metafile.inputs))
        files.add(appPathOf(path.resolve(root, input), out));
      // Native modules are found at run time by computed paths (bindings), not by imports.
      for (const pkg of new Set(
        [...files].filter((f) => f.includes('node_modules/')).map(packageOf),
      ))
        for (const f of readdirSync(path.join(root, pkg), { recursive: true, encoding: 'utf8' }))
          if (f.endsWith('.node')) files.add(path.join(pkg, f));
      for (const file of [...files]) {
        const pkg = governingPackageJson(file);
        if (pkg) files.add(pkg);
      }
      loads.set(entry, new Set([...files].map((f) => f.split(path.sep).join('/'))));
    }
  }, 60_000);

  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  const allLoads = () => [...loads.values()].flatMap((files) => [...files]);

  it('finds the worker entries, better-sqlite3 and its native module', () => {
    const worker = [...(loads.get('worker.js') ?? [])];
    expect(worker).toContain('dist-electron/worker.js');
    expect(worker).toContain('package.json');
    expect(worker).toContain('node_modules/better-sqlite3/lib/index.js');
    expect(worker.some((f) => /^node_modules\/better-sqlite3\/.*\.node$/.test(f))).toBe(true);
    expect([...(loads.get('fill-worker.js') ?? [])]).toContain('dist-electron/fill-worker.js');
  });

  it('loads no package from node_modules but better-sqlite3 (and what it requires)', () => {
    // Every other package (fastify, undici, kysely, zod, ...) is inside the worker files.
    const allowed = packageClosure(WORKER_EXTERNAL_PACKAGES);
    const loaded = new Set(
      allLoads()
        .filter((f) => f.startsWith('node_modules/'))
        .map(packageOf),
    );
    expect([...loaded].filter((p) => !allowed.has(p)).sort()).toEqual([]);
    expect(loaded).toContain('node_modules/better-sqlite3');
  });

  it('packs every file a worker loads (the `files` globs, or a production dependency)', () => {
    const files = builderFilter('files');
    const modulesKept = nodeModulesFilter();
    const production = productionPackages();
    const missing = allLoads().filter((f) =>
      f.startsWith('node_modules/')
        ? !production.has(packageOf(f)) || !modulesKept(f)
        : !files(path.join(root, f), asFile),
    );
    expect([...new Set(missing)].sort()).toEqual([]);
  });

  it('keeps every file a worker loads inside app.asar, but native files', () => {
    const unpack = builderFilter('asarUnpack');
    const misplaced = allLoads().filter(
      (f) => unpack(path.join(root, f), asFile) !== f.endsWith('.node'),
    );
    expect([...new Set(misplaced)].sort()).toEqual([]);
    // The builder would otherwise unpack a whole package that holds a native file.
    expect(config.asar?.smartUnpack).toBe(false);
  });

  it('keeps the main bundle and the renderer inside the asar', () => {
    const unpack = builderFilter('asarUnpack');
    expect(unpack(path.join(root, 'dist-electron/main.js'), asFile)).toBe(false);
    expect(unpack(path.join(root, 'dist-electron/preload.cjs'), asFile)).toBe(false);
    expect(unpack(path.join(root, 'renderer/dist/index.html'), asFile)).toBe(false);
  });
});
