/**
 * Which build of better-sqlite3 a process loads. Node (tests, the server, browser mode) loads
 * the one in node_modules, built for Node's ABI. Electron has an ABI of its own, so `npm start`
 * and `npm run dist` prepare a second build in build/native/electron-<version>/
 * (main/electron/native-build.ts) and the app loads it through better-sqlite3's `nativeBinding`
 * option: node_modules is never rebuilt in place, and `npm test` keeps working beside the app.
 */

/** Set by `npm start` for the Electron app (and inherited by its worker threads). */
export const ELECTRON_BINDING_ENV = 'WORKTRAY_SQLITE_BINDING';
/** Where a packaged app carries it (electron-builder.yml extraResources). */
export const PACKAGED_BINDING = 'native/better_sqlite3.node';

export interface BindingInputs {
  /** process.versions.electron: set only inside Electron. */
  electron: string | undefined;
  env: Record<string, string | undefined>;
  /** process.resourcesPath of a packaged app. */
  resourcesPath?: string | undefined;
  /**
   * process.execPath: a packaged app's resources sit beside its binary (resources/, or
   * ../Resources on macOS), for worker threads that lack resourcesPath.
   */
  execPath?: string | undefined;
  exists: (file: string) => boolean;
}

/** The `.node` file to load, or undefined for node_modules' own build; throws when none fits. */
export const nativeBindingFor = ({
  electron,
  env,
  resourcesPath,
  execPath,
  exists,
}: BindingInputs): string | undefined => {
  if (!electron) return undefined;
  const candidates = [
    env[ELECTRON_BINDING_ENV],
    resourcesPath ? `${resourcesPath}/${PACKAGED_BINDING}` : undefined,
    ...(execPath
      ? ['resources', '../Resources'].map(
          (r) => `${execPath.replace(/[\\/][^\\/]*$/, '')}/${r}/${PACKAGED_BINDING}`,
        )
      : []),
  ].filter((f): f is string => !!f);
  const found = candidates.find((f) => exists(f));
  if (found) return found;
  throw new Error(
    `better-sqlite3 has no build for Electron ${electron} (looked at: ${
      candidates.join(', ') || `nothing: ${ELECTRON_BINDING_ENV} is not set`
    }). node_modules holds Node's build, which Electron cannot load. ` +
      'Prepare the Electron build with `npm run native:electron` (npm start does it when missing).',
  );
};

/** better-sqlite3's constructor options for it (sync/db/open.ts, server/db/open.ts). */
export const sqliteOpenOptions = (inputs: BindingInputs): { nativeBinding?: string } => {
  const nativeBinding = nativeBindingFor(inputs);
  return nativeBinding ? { nativeBinding } : {};
};
