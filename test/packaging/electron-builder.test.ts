import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { DEEP_LINK_SCHEME } from '../../main/electron/deep-link';
import { builderOptions, STAGED_BINDING } from '../../main/electron/dist';
import { appIconPath, drawAppIcon } from '../../scripts/app-icon';
import { PACKAGED_BINDING } from '../../shared/native-binding';
import { builderRequire, debMetaInfo, resolvedBuilderConfig } from './builder-config';

/**
 * electron-builder.yml, held to what the app needs (a zod shape of our own) and to what
 * electron-builder accepts (its own schema, through its own validator).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const configText = readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
const config: unknown = parse(configText);
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

/** A PNG's IDAT data inflated: its pixel rows. */
const pixelsOf = (png: Buffer): Buffer => {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT')
      parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return inflateSync(Buffer.concat(parts));
};

const targets = z.union([z.string(), z.array(z.string())]).transform((t) => [t].flat());

const builderConfig = z.looseObject({
  appId: z.string().regex(/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/),
  productName: z.literal('Worktray'),
  directories: z.looseObject({ output: z.string().min(1), buildResources: z.string().min(1) }),
  files: z.array(z.string()).min(1),
  asarUnpack: z.array(z.string()).min(1),
  npmRebuild: z.literal(false),
  extraResources: z.array(z.looseObject({ from: z.string(), to: z.string() })).min(1),
  protocols: z
    .array(z.looseObject({ name: z.string(), schemes: z.array(z.string()).min(1) }))
    .min(1),
  linux: z.looseObject({ target: targets, maintainer: z.string().includes('@') }),
  mac: z.looseObject({ target: targets }),
  win: z.looseObject({ target: targets }),
  icon: z.string().min(1),
  electronVersion: z.string().regex(/^\d+\.\d+\.\d+$/),
});

describe('electron-builder.yml', () => {
  const parsed = builderConfig.safeParse(config);

  it('has the shape the app needs', () => {
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('pins Electron, an optional dependency: an install that cannot fetch its runtime goes on', () => {
    // npm drops an optional dependency whose install script fails (the runtime download, where
    // it is refused) and finishes: `npm ci` as the README writes it works on every machine.
    expect(pkg.devDependencies.electron).toBeUndefined();
    expect(pkg.dependencies.electron).toBeUndefined();
    const version = parsed.data?.electronVersion;
    expect(pkg.optionalDependencies?.electron).toBe(version);
  });

  it('builds deb and AppImage on Linux, dmg and zip (for Squirrel.Mac) on macOS, nsis on Windows', () => {
    const c = builderConfig.parse(config);
    expect(c.linux.target.sort()).toEqual(['AppImage', 'deb']);
    // electron-updater on macOS (Squirrel.Mac) installs an update from the zip, not the dmg.
    expect(c.mac.target).toEqual(['dmg', 'zip']);
    expect(c.win.target).toEqual(['nsis']);
  });

  it('offers the deb first on Linux: its AppArmor profile lets the sandbox start on Ubuntu', async () => {
    const c = await resolvedBuilderConfig();
    expect((c.linux as { target: unknown }).target).toEqual(['deb', 'AppImage']);
  });

  it("passes the deb target's own check: a project homepage and a maintainer", async () => {
    // FpmTarget stops the build with "Please specify project homepage" when package.json has
    // neither a homepage nor a GitHub repository (this clone has no remote).
    const meta = await debMetaInfo();
    expect(meta.url).toMatch(/^https:\/\//);
    expect(meta.maintainer).toMatch(/<[^@>]+@[^>]+>$/);
  });

  it('builds the AppImage on the static runtime, which needs no libfuse2', async () => {
    // With no toolsets.appimage (or "0.0.0") app-builder-lib 26 takes its legacy FUSE 2 runtime.
    const { toolsets } = (await resolvedBuilderConfig()) as { toolsets?: { appimage?: string } };
    const version = toolsets?.appimage ?? '0.0.0';
    expect(version).not.toBe('0.0.0');
    // A version the builder downloads as its static runtime bundle (type-2 runtime, no FUSE 2).
    const { appimageChecksums } = builderRequire('./out/toolsets/linux.js') as {
      appimageChecksums: Record<string, Record<string, string>>;
    };
    expect(Object.keys(appimageChecksums[version] ?? {})).toEqual([
      expect.stringMatching(/^appimage-tools-runtime-\d+\.tar\.gz$/),
    ]);
  });

  it("never rebuilds node_modules in place; ships Electron's own better-sqlite3 build", () => {
    // npmRebuild would rebuild the project's better-sqlite3 for Electron, breaking npm test;
    // npm run dist prepares a build of its own and stages it where extraResources takes it.
    const c = builderConfig.parse(config);
    expect(c.extraResources).toContainEqual({ from: STAGED_BINDING, to: PACKAGED_BINDING });
  });

  it('unpacks native files only from the asar; better-sqlite3 is a runtime dependency', () => {
    // Its JavaScript stays in the archive with the rest (test/packaging/asar-layout.test.ts).
    const c = builderConfig.parse(config);
    expect(c.asarUnpack).toEqual(['**/*.node']);
    expect((config as { asar?: unknown }).asar).toEqual({ smartUnpack: false });
    expect(pkg.dependencies['better-sqlite3']).toBeDefined();
    expect(pkg.devDependencies['better-sqlite3']).toBeUndefined();
  });

  it('packs the Electron bundles that package.json main names, and the renderer', () => {
    const c = builderConfig.parse(config);
    expect(pkg.main).toBe('dist-electron/main.js');
    expect(c.files).toEqual(
      expect.arrayContaining(['dist-electron/**/*', 'renderer/dist/**/*', 'package.json']),
    );
    expect(pkg.scripts['build:electron']).toBe('tsx main/electron/build.ts');
    expect(pkg.scripts.dist).toBe('tsx main/electron/dist.ts');
  });

  it('writes the update files a generic feed serves (latest*.yml), nothing published', () => {
    // The feed itself is the one set in the app's settings; `npm run dist` passes --publish never.
    expect((config as { publish?: unknown }).publish).toEqual([
      { provider: 'generic', url: 'https://updates.invalid/worktray/' },
    ]);
    expect(builderOptions({}).publish).toBe('never');
  });

  it('registers the deep-link scheme the app parses', () => {
    const c = builderConfig.parse(config);
    expect(c.protocols.flatMap((p) => p.schemes)).toContain(DEEP_LINK_SCHEME);
  });

  it('names the app icon: a 512 px RGBA PNG, the one scripts/app-icon.ts draws', () => {
    const c = builderConfig.parse(config);
    const icon = readFileSync(path.join(root, c.icon));
    expect(path.join(root, c.icon)).toBe(appIconPath);
    expect(icon.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([icon.readUInt32BE(16), icon.readUInt32BE(20), icon[25]]).toEqual([512, 512, 6]);
    // Pixels compared, not bytes: another zlib may compress the same pixels differently.
    expect(pixelsOf(icon).equals(pixelsOf(drawAppIcon()))).toBe(true);
  });

  it('flips the Electron fuses: no Node entry points, app code only from the integrity-checked asar, signed again', () => {
    // Without these, anyone who can start the installed binary (ELECTRON_RUN_AS_NODE,
    // NODE_OPTIONS, --inspect) or swap files beside the asar runs code as the app, with its
    // access to the token vault. process.fork would need RunAsNode; the host uses a worker thread.
    expect((config as { electronFuses?: unknown }).electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      // Flipping breaks the signature; Apple Silicon runs no app with a broken one.
      resetAdHocDarwinSignature: true,
    });
    // The names are electron-builder's own (its schema refuses unknown keys: the test below).
    const scheme = JSON.parse(
      readFileSync(path.join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'),
    ) as { definitions: { FuseOptionsV1: { properties: Record<string, unknown> } } };
    expect(Object.keys(scheme.definitions.FuseOptionsV1.properties)).toEqual(
      expect.arrayContaining(Object.keys((config as { electronFuses: object }).electronFuses)),
    );
  });

  it("passes electron-builder's own configuration schema", async () => {
    const req = createRequire(path.join(root, 'node_modules/app-builder-lib/package.json'));
    const { validateConfiguration } = req('./out/util/config/config.js') as {
      validateConfiguration(c: unknown, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = req('builder-util') as { DebugLogger: new (on: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration(
        { ...(config as object), nsis: { noSuchOption: true } },
        new DebugLogger(false),
      ),
    ).rejects.toThrow(/configuration/i);
  });
});
