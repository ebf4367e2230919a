import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PackedModule, packedNodeModules, root } from './builder-config';

/**
 * What of node_modules the installers carry, as electron-builder itself collects and filters
 * it on this repository. Electron is an optional dependency (so `npm ci` survives a refused
 * download), and the builder's collector takes optional dependencies: unexcluded, the whole
 * runtime (node_modules/electron/dist, 200–300 MB, a nested Electron.app on macOS) would ship
 * inside the app beside the one it runs on.
 */
let modules: PackedModule[] = [];
const shipped = (at: string) => modules.find((m) => m.at === at)?.files ?? [];

beforeAll(async () => {
  modules = await packedNodeModules();
}, 120_000);

describe('node_modules in the installers', () => {
  it('carry nothing of the electron package, which the collector does find', () => {
    if (existsSync(path.join(root, 'node_modules', 'electron', 'package.json')))
      expect(modules.map((m) => m.at)).toContain('node_modules/electron');
    const electron = modules.filter(
      (m) => m.at === 'node_modules/electron' || m.at.startsWith('node_modules/electron/'),
    );
    expect(electron.flatMap((m) => m.files.map((f) => `${m.at}/${f}`))).toEqual([]);
  });

  it('carry no type declarations package (@types, which Electron depends on)', () => {
    const types = modules.filter((m) => /(^|\/)node_modules\/@types\//.test(m.at));
    expect(types.flatMap((m) => m.files.map((f) => `${m.at}/${f}`))).toEqual([]);
  });

  it('still carry what the app loads from node_modules', () => {
    // The workers import better-sqlite3; the main process imports electron-updater.
    expect(shipped('node_modules/better-sqlite3')).toContain('lib/index.js');
    expect(shipped('node_modules/electron-updater')).toContain('package.json');
  });
});
