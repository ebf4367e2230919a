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
