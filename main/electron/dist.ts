/**
 * `npm run dist`: the installers for this platform (electron-builder.yml: deb and AppImage on
 * Linux, dmg and zip on macOS, nsis on Windows). Needs the Electron runtime (a machine installed
 * with ELECTRON_SKIP_BINARY_DOWNLOAD has none) and the network for Electron's headers, against
 * which a copy of better-sqlite3 is built (native-build.ts; node_modules keeps Node's build);
 * without the runtime it says so and stops.
 *
 * Signing comes from the environment (signingFor): without a certificate the build is for
 * testing (macOS: ad-hoc signature); with one it is a release, which must be signed, and on
 * macOS notarized too.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliOptions, Configuration } from 'electron-builder';
import { desktopArtifacts, electronSqlitePath, freshness } from '../start-plan';
import { prepareElectronSqlite } from './native-build';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the Electron build of better-sqlite3 is staged for electron-builder's extraResources. */
export const STAGED_BINDING = 'build/native/package/better_sqlite3.node';

export type ElectronRuntime = { ok: true; binary: string } | { ok: false; reason: string };

/** The `electron` package answers its binary's path, or throws when the binary is missing. */
export const findElectronRuntime = (
  resolveElectron: () => unknown = () => createRequire(import.meta.url)('electron'),
): ElectronRuntime => {
  let binary: unknown;
  try {
    binary = resolveElectron();
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
  if (typeof binary !== 'string' || !existsSync(binary)) {
    return { ok: false, reason: `no Electron binary at ${String(binary)}` };
  }
  return { ok: true, binary };
};

export const missingRuntimeMessage = (reason: string): string =>
  [
    'npm run dist: the Electron runtime is not installed here, so no installer can be built.',
    `  (${reason})`,
    '  Install it with `node node_modules/electron/install.js` (or reinstall without',
    '  ELECTRON_SKIP_BINARY_DOWNLOAD), then run `npm run dist` again.',
    '  The app itself still runs without it: `npm start` serves it in the browser.',
  ].join('\n');

/** The ways electron-builder's notarization (@electron/notarize) takes its credentials. */
const NOTARY_CREDENTIALS = [
  ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'],
  ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'],
  ['APPLE_KEYCHAIN_PROFILE'],
] as const;

export type Signing =
  | { ok: true; config: Configuration; note: string }
  | { ok: false; reason: string };

/**
 * What this build signs with, from the environment electron-builder reads. A certificate
 * (CSC_LINK with CSC_KEY_PASSWORD, or CSC_NAME naming one in the keychain) makes a release:
 * signing is then forced (no silent unsigned installer), and on macOS it must be notarized,
 * or Gatekeeper refuses the download. Without one, a test build: on macOS the Electron fuses
 * leave an ad-hoc signature (electron-builder.yml), which Apple Silicon needs to run it at all.
 */
export const signingFor = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Signing => {
  const set = (name: string) => !!env[name]?.trim();
  const certificate = set('CSC_LINK') || set('CSC_NAME') || set('WIN_CSC_LINK');
  if (!certificate)
    return {
      ok: true,
      // electron-builder would otherwise sign with any identity it finds in the keychain (a
      // developer's own Developer ID): a test build is ad hoc, whoever builds it.
      config: platform === 'darwin' ? { mac: { identity: null } } : {},
      note:
        platform === 'darwin'
          ? 'no certificate (CSC_LINK): an unsigned test build with an ad-hoc signature, not notarized'
          : 'no certificate (CSC_LINK): an unsigned test build',
    };
  if (platform === 'darwin' && !NOTARY_CREDENTIALS.some((names) => names.every(set)))
    return {
      ok: false,
      reason:
        'a signed macOS release must be notarized too, or Gatekeeper refuses it. Set ' +
        NOTARY_CREDENTIALS.map((names) => names.join(' + ')).join(', or ') +
        ' (a signing certificate is set: CSC_LINK or CSC_NAME).',
    };
  return {
    ok: true,
    config: { forceCodeSigning: true },
    note:
      platform === 'darwin'
        ? 'a release: signed with the certificate, then notarized'
        : 'a release: signed with the certificate',
  };
};

/** electron-builder's options: this platform's targets, nothing published, signing as given. */
export const builderOptions = (signing: Configuration): CliOptions => ({
  projectDir: root,
  publish: 'never',
  config: signing,
});

/**
 * Electron's build of better-sqlite3 (build/native/electron-<version>/), built again whenever
 * node_modules' better-sqlite3 is newer than it (the start plan's check): an upgraded package
 * must not ship with the old binary under its new JavaScript.
 */
export const ensureElectronSqlite = async ({
  root,
  electronVersion,
  build = prepareElectronSqlite,
  log = console.log,
}: {
  root: string;
  electronVersion: string;
  build?: typeof prepareElectronSqlite;
  log?: (line: string) => void;
}): Promise<string> => {
  const { outputs, inputs } = desktopArtifacts(root, electronVersion).native;
  const state = freshness(outputs, inputs);
  const outFile = electronSqlitePath(root, electronVersion);
  if (state !== 'built') {
    log(
      `dist: better-sqlite3 for Electron's ABI (@electron/rebuild${state === 'stale' ? ', the package changed since the last build' : ''})`,
    );
    await build({ root, electronVersion, outFile });
  }
  return outFile;
};

const run = (label: string, command: string, args: string[]) => {
  console.log(`dist: ${label}`);
  // On Windows the .bin entries are .cmd scripts, which only a shell runs.
  const r = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) {
    console.error(`dist: ${label} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
};

const main = async () => {
  const runtime = findElectronRuntime();
  if (!runtime.ok) {
    console.error(missingRuntimeMessage(runtime.reason));
    process.exit(2);
  }
  const signing = signingFor(process.platform, process.env);
  if (!signing.ok) {
    console.error(`npm run dist: ${signing.reason}`);
    process.exit(2);
  }
  console.log(`dist: ${signing.note}`);
  const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
  run('renderer bundle (vite)', bin('vite'), ['build', '--config', 'renderer/vite.config.ts']);
  run('main, worker and preload bundles', bin('tsx'), ['main/electron/build.ts']);
  // Electron's build of better-sqlite3, staged for extraResources (npmRebuild is off).
  const electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const { version } = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const binding = await ensureElectronSqlite({ root, electronVersion: version });
  mkdirSync(path.dirname(path.join(root, STAGED_BINDING)), { recursive: true });
  copyFileSync(binding, path.join(root, STAGED_BINDING));
  console.log('dist: installers (electron-builder)');
  const { build } = await import('electron-builder');
  await build(builderOptions(signing.config));
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await main();
