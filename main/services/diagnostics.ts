import { readFileSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Diagnostics, SyncStatus } from '../../shared/bridge';
import { replicasDir } from './data-layout';
import { logsDir, redact } from './log-file';

const LAST_ERRORS = 5;

const appPackage = z.object({ name: z.literal('worktray'), version: z.string() });

/**
 * The app's version, from its package.json, found upwards from this module: beside the
 * sources in development, above `dist-electron/` in a bundle (main/ may not import the root).
 */
const appVersion = (): string => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const parsed = appPackage.safeParse(
        JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')),
      );
      if (parsed.success) return parsed.data.version;
    } catch {
      // None here, or unreadable: look further up.
    }
    if (dirname(dir) === dir) return 'unknown';
  }
};

/** Bytes on disk under a file or folder (a replica's database, its files folder). */
const sizeOf = async (path: string): Promise<number> => {
  const s = await stat(path).catch(() => null);
  if (!s) return 0;
  if (!s.isDirectory()) return s.size;
  const names = await readdir(path).catch(() => [] as string[]);
  let total = 0;
  for (const name of names) total += await sizeOf(join(path, name));
  return total;
};

const replicaSizes = async (dataDir: string) => {
  const dir = replicasDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(
    names.sort().map(async (name) => ({ name, bytes: await sizeOf(join(dir, name)) })),
  );
};

/**
 * The report behind "Copy diagnostics". It holds sizes, counts and messages (passed through
 * the log's redaction), never the session: a user pastes it into a public bug report.
 */
export const collectDiagnostics = async (
  dataDir: string,
  status: SyncStatus | null,
): Promise<Diagnostics> => {
  const errors = status
    ? [
        ...(status.lastError ? [status.lastError] : []),
        ...[...status.failed]
          .sort((a, b) => b.updatedAt - a.updatedAt)
          .map((f) => `${f.entity}: ${f.error?.message ?? f.state}`),
      ]
    : [];
  return {
    versions: {
      app: appVersion(),
      node: process.versions.node,
      electron: process.versions.electron ?? null,
      platform: process.platform,
      arch: process.arch,
    },
    dataDir,
    logsDir: logsDir(dataDir),
    replicas: await replicaSizes(dataDir),
    signedIn: status !== null,
    outbox: status
      ? {
          pending: status.pending,
          failed: status.failed.length,
          pendingByKind: status.pendingByKind,
        }
      : null,
    lastErrors: errors.slice(0, LAST_ERRORS).map(redact),
  };
};

/** The logs folder, made if missing so the file manager has something to open. */
export const logsFolder = async (dataDir: string) => {
  const path = logsDir(dataDir);
  await mkdir(path, { recursive: true });
  return { path, opened: false };
};
