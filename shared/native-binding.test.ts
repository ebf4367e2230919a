import { describe, expect, it } from 'vitest';
import { ELECTRON_BINDING_ENV, nativeBindingFor, sqliteOpenOptions } from './native-binding';

const has =
  (...files: string[]) =>
  (f: string) =>
    files.includes(f);

describe('nativeBindingFor: which better-sqlite3 build a process loads', () => {
  it("Node (tests, server, browser mode): node_modules' own build, no option", () => {
    expect(nativeBindingFor({ electron: undefined, env: {}, exists: has() })).toBeUndefined();
    // Even with the Electron build prepared, Node never loads it (another ABI).
    expect(
      nativeBindingFor({
        electron: undefined,
        env: { [ELECTRON_BINDING_ENV]: '/app/build/native/electron-39.8.10/better_sqlite3.node' },
        exists: has('/app/build/native/electron-39.8.10/better_sqlite3.node'),
      }),
    ).toBeUndefined();
    expect(sqliteOpenOptions({ electron: undefined, env: {}, exists: has() })).toEqual({});
  });

  it('Electron from `npm start`: the prepared build the start script names', () => {
    const file = '/app/build/native/electron-39.8.10/better_sqlite3.node';
    const inputs = {
      electron: '39.8.10',
      env: { [ELECTRON_BINDING_ENV]: file },
      exists: has(file),
    };
    expect(nativeBindingFor(inputs)).toBe(file);
    expect(sqliteOpenOptions(inputs)).toEqual({ nativeBinding: file });
  });

  it('Electron packaged: the build shipped in resources/native', () => {
    const file = '/opt/Worktray/resources/native/better_sqlite3.node';
    expect(
      nativeBindingFor({
        electron: '39.8.10',
        env: {},
        resourcesPath: '/opt/Worktray/resources',
        exists: has(file),
      }),
    ).toBe(file);
  });

  it("Electron packaged, in a worker thread without resourcesPath: found from the binary's folder", () => {
    const linux = '/opt/Worktray/resources/native/better_sqlite3.node';
    expect(
      nativeBindingFor({
        electron: '39.8.10',
        env: {},
        execPath: '/opt/Worktray/worktray',
        exists: has(linux),
      }),
    ).toBe(linux);
    const mac = '/Applications/Worktray.app/Contents/MacOS/../Resources/native/better_sqlite3.node';
    expect(
      nativeBindingFor({
        electron: '39.8.10',
        env: {},
        execPath: '/Applications/Worktray.app/Contents/MacOS/Worktray',
        exists: has(mac),
      }),
    ).toBe(mac);
  });

  it('Electron without a prepared build: a clear error naming the fix, not an ABI crash', () => {
    const missing = '/app/build/native/electron-39.8.10/better_sqlite3.node';
    for (const inputs of [
      { electron: '39.8.10', env: {}, exists: has() },
      { electron: '39.8.10', env: { [ELECTRON_BINDING_ENV]: missing }, exists: has() },
      { electron: '39.8.10', env: {}, resourcesPath: '/opt/Worktray/resources', exists: has() },
    ]) {
      expect(() => nativeBindingFor(inputs)).toThrow(
        /better-sqlite3 has no build for Electron 39\.8\.10.*npm run native:electron/s,
      );
    }
    expect(() =>
      nativeBindingFor({
        electron: '39.8.10',
        env: { [ELECTRON_BINDING_ENV]: missing },
        exists: has(),
      }),
    ).toThrow(missing);
  });
});
