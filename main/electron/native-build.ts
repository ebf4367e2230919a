/**
 * `npm run native:electron`: better-sqlite3 built for Electron's ABI into
 * build/native/electron-<version>/better_sqlite3.node, beside node_modules' build for Node
 * (which the tests, the server and browser mode load). @electron/rebuild rebuilds a module in
 * place, so it works on a copy of the package in a scratch project, never on node_modules.
 * It needs Electron's headers (electronjs.org) or a prebuilt binary (GitHub) from the network.
 */
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

export const prepareElectronSqlite = async ({
  root,
  electronVersion,
  outFile,
}: {
  root: string;
  electronVersion: string;
  outFile: string;
}): Promise<void> => {
  const source = path.dirname(require.resolve('better-sqlite3/package.json', { paths: [root] }));
  const { version } = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8')) as {
    version: string;
  };
  mkdirSync(path.dirname(outFile), { recursive: true });
  const scratch = mkdtempSync(path.join(path.dirname(outFile), '.rebuild-'));
  try {
    const copy = path.join(scratch, 'node_modules', 'better-sqlite3');
    // Node's build stays behind: only the sources are copied.
    cpSync(source, copy, {
      recursive: true,
      filter: (f) => path.relative(source, f).split(path.sep)[0] !== 'build',
    });
    writeFileSync(
      path.join(scratch, 'package.json'),
      JSON.stringify({
        name: 'worktray-native',
        version: '0.0.0',
        dependencies: { 'better-sqlite3': version },
      }),
    );
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({
      buildPath: scratch,
      electronVersion,
      onlyModules: ['better-sqlite3'],
      force: true,
    });
    copyFileSync(path.join(copy, 'build', 'Release', 'better_sqlite3.node'), outFile);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const { findElectronRuntime, electronSqlitePath } = await import('../start-plan');
  const electronDir = (() => {
    try {
      return path.dirname(require.resolve('electron/package.json', { paths: [root] }));
    } catch {
      return null;
    }
  })();
  const runtime = findElectronRuntime(electronDir);
  if (!runtime.ok) {
    console.error(
      `native:electron: no Electron runtime here (${runtime.reason}); nothing to build for.`,
    );
    process.exit(2);
  }
  const outFile = electronSqlitePath(root, runtime.version);
  await prepareElectronSqlite({ root, electronVersion: runtime.version, outFile });
  console.log(`built ${path.relative(root, outFile)}`);
}
