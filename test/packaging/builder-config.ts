import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * electron-builder's own code (app-builder-lib in node_modules), for tests that hold this
 * repository's packaging to what the builder itself resolves.
 */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** require() from app-builder-lib's folder: `builderRequire('./out/…')` or its dependencies. */
export const builderRequire = createRequire(
  path.join(root, 'node_modules/app-builder-lib/package.json'),
);

/**
 * The configuration electron-builder builds with: electron-builder.yml read by its own loader,
 * `overrides` merged over it as `build({ config })` does, checked by its own validator.
 */
export const resolvedBuilderConfig = async (
  overrides: object | null = null,
): Promise<Record<string, unknown>> => {
  const { getConfig, validateConfiguration } = builderRequire('./out/util/config/config.js') as {
    getConfig(dir: string, file: null, overrides: object | null): Promise<Record<string, unknown>>;
    validateConfiguration(config: unknown, logger: unknown): Promise<void>;
  };
  const { DebugLogger } = builderRequire('builder-util') as {
    DebugLogger: new (on: boolean) => unknown;
  };
  const config = await getConfig(root, null, overrides && structuredClone(overrides));
  await validateConfiguration(config, new DebugLogger(false));
  return config;
};

/** One package directory electron-builder packs: where it lands, and its files (relative). */
export interface PackedModule {
  /** The package's place in the app, `node_modules/<name>` (nested ones under their parent). */
  at: string;
  files: string[];
}

/**
 * The node_modules electron-builder packs into this app, for Linux: its own collector (the
 * package manager's tree, or its traversal of node_modules) and its own file matchers
 * (electron-builder.yml's `files` exclusions), as `npm run dist` runs them; nothing is copied.
 * Every collected package is listed, also those left with no file.
 */
export const packedNodeModules = (): Promise<PackedModule[]> =>
  withLinuxPackager(async (linux, appDir, packager) => {
    const { getNodeModuleFileMatcher } = builderRequire('./out/fileMatcher.js') as {
      getNodeModuleFileMatcher(...args: unknown[]): unknown;
    };
    const { computeNodeModuleFileSets } = builderRequire('./out/util/appFileCopier.js') as {
      computeNodeModuleFileSets(
        helper: LinuxHelper,
        matcher: unknown,
      ): Promise<{ src: string; destination: string; files: string[] }[]>;
    };
    const app = path.join(root, 'dist', 'stand-in-app');
    const { macroExpander } = linux.createGetFileMatchersOptions(
      path.join(root, 'dist'),
      x64(),
      linux.platformSpecificBuildOptions,
    );
    const matcher = getNodeModuleFileMatcher(
      appDir,
      app,
      macroExpander,
      linux.platformSpecificBuildOptions,
      packager,
    );
    const sets = await computeNodeModuleFileSets(linux, matcher);
    const slash = (p: string) => p.split(path.sep).join('/');
    return sets.map((set) => ({
      at: slash(path.relative(app, set.destination)),
      files: set.files.map((f) => slash(path.relative(set.src, f))),
    }));
  });

/** electron-builder's Packager for Linux x64 on this repository, its app read, its helper made. */
const withLinuxPackager = async <T>(
  use: (linux: LinuxHelper, appDir: string, packager: unknown) => Promise<T>,
): Promise<T> => {
  const { Packager } = builderRequire('./out/packager.js') as {
    Packager: new (
      options: object,
    ) => {
      appDir: string;
      _appInfo: unknown;
      tempDirManager: { cleanup(): Promise<void> };
      validateConfig(): Promise<void>;
      createHelper(platform: unknown): Promise<LinuxHelper>;
    };
  };
  const { Platform } = builderRequire('./out/core.js') as {
    Platform: { LINUX: { createTarget(type: string, arch: number): unknown } };
  };
  const { AppInfo } = builderRequire('./out/appInfo.js') as {
    AppInfo: new (packager: unknown, version: null) => unknown;
  };
  const packager = new Packager({
    projectDir: root,
    targets: Platform.LINUX.createTarget('dir', x64()),
  });
  try {
    await packager.validateConfig();
    packager._appInfo = new AppInfo(packager, null);
    return await use(await packager.createHelper(Platform.LINUX), packager.appDir, packager);
  } finally {
    await packager.tempDirManager.cleanup();
  }
};

type LinuxHelper = {
  platformSpecificBuildOptions: object;
  createGetFileMatchersOptions(
    outDir: string,
    arch: number,
    options: object,
  ): {
    macroExpander: (s: string) => string;
  };
};

const x64 = () => (builderRequire('builder-util') as { Arch: { x64: number } }).Arch.x64;

/**
 * What the deb target checks before it builds (its FpmTarget's own check): the package's
 * homepage, maintainer and vendor. It throws where `npm run dist` would stop.
 */
export const debMetaInfo = (): Promise<{ url: string; maintainer: string; vendor: string }> =>
  withLinuxPackager(async (linux) => {
    const { LinuxTargetHelper } = builderRequire('./out/targets/LinuxTargetHelper.js') as {
      LinuxTargetHelper: new (packager: unknown) => unknown;
    };
    const FpmTarget = (
      builderRequire('./out/targets/FpmTarget.js') as {
        default: new (
          name: string,
          packager: unknown,
          helper: unknown,
          outDir: string,
        ) => {
          computeFpmMetaInfoOptions(): Promise<{ url: string; maintainer: string; vendor: string }>;
        };
      }
    ).default;
    const deb = new FpmTarget('deb', linux, new LinuxTargetHelper(linux), path.join(root, 'dist'));
    return deb.computeFpmMetaInfoOptions();
  });
