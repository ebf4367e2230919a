/**
 * Upload bytes of queued uploads. At enqueue time each file is copied into
 * `<replica folder>/outbox-files/` (and flushed to disk) so that the upload can be replayed
 * after the original moved or vanished; `outbox_files` records name, size and type. The
 * `dataDir` of every function here is the replica's own folder (sync/db/open.ts
 * `replicaFilesDir`), never a folder replicas share: the sweep of one org would take another's.
 *
 * Rows and files are removed in two steps: the queue deletes the records inside the caller's
 * transaction and returns the file paths, and `removeStagedFiles` deletes the bytes after the
 * commit (a rollback must not leave a row whose bytes are gone). `sweepOrphanFiles` at
 * start-up removes what a crash between the two steps, or a rolled-back enqueue, left behind.
 */
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  copyFileSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join, posix } from 'node:path';
import type { UploadFile } from '../api/types';
import { guessContentType } from '../api/upload';
import { all, qb, stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';

export const OUTBOX_FILES_DIR = 'outbox-files';

export interface StagedFile {
  mutationId: number;
  position: number;
  name: string;
  /** Relative to the replica's folder (`outbox-files/…`). */
  path: string;
  size: number;
  contentType: string | null;
}

const fsyncPath = (path: string, flags: number) => {
  let fd: number | undefined;
  try {
    fd = openSync(path, flags);
    fsyncSync(fd);
  } catch {
    // Directories cannot be opened on every platform; the file itself was flushed.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};

const writeBytes = (dest: string, data: Uint8Array) => {
  const fd = openSync(dest, 'wx');
  try {
    for (let at = 0; at < data.byteLength; ) at += writeSync(fd, data, at, data.byteLength - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * Copies the files of an upload into the data directory and records them for `mutationId`,
 * after any files it already has. Runs inside the caller's transaction (the enqueue's).
 */
export const stageUploadFiles = (
  db: Sqlite,
  dataDir: string,
  mutationId: number,
  files: readonly UploadFile[],
): StagedFile[] => {
  const dir = join(dataDir, OUTBOX_FILES_DIR);
  mkdirSync(dir, { recursive: true });
  const { n } = stmt(
    db,
    'SELECT coalesce(max(position) + 1, 0) AS n FROM outbox_files WHERE mutation_id = ?',
  ).get(mutationId) as { n: number };
  const staged: StagedFile[] = [];
  const copied: string[] = [];
  try {
    files.forEach((file, i) => {
      const fileName = `${mutationId}-${n + i}-${randomUUID()}`;
      const dest = join(dir, fileName);
      if (typeof file.data === 'string') {
        copyFileSync(file.data, dest, constants.COPYFILE_EXCL);
        copied.push(dest);
        fsyncPath(dest, constants.O_RDONLY);
      } else {
        copied.push(dest);
        writeBytes(dest, file.data);
      }
      staged.push({
        mutationId,
        position: n + i,
        name: file.name,
        path: posix.join(OUTBOX_FILES_DIR, fileName),
        size: statSync(dest).size,
        contentType: file.contentType ?? guessContentType(file.name),
      });
    });
    fsyncPath(dir, constants.O_RDONLY);
    const insert = stmt(
      db,
      'INSERT INTO outbox_files (mutation_id, position, name, path, size, content_type) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const f of staged)
      insert.run(f.mutationId, f.position, f.name, f.path, f.size, f.contentType);
  } catch (e) {
    for (const p of copied) rmSync(p, { force: true });
    throw e;
  }
  return staged;
};

/** The staged files of a row, in order. */
export const stagedFiles = (db: Sqlite, mutationId: number): StagedFile[] =>
  all(
    db,
    qb
      .selectFrom('outbox_files')
      .select(['mutation_id', 'position', 'name', 'path', 'size', 'content_type'])
      .where('mutation_id', '=', mutationId)
      .orderBy('position'),
  ).map((r) => ({
    mutationId: r.mutation_id,
    position: r.position,
    name: r.name,
    path: r.path,
    size: r.size,
    contentType: r.content_type,
  }));

/** The row's files as the API client's upload input (streamed from the staged copies). */
export const uploadFilesOf = (db: Sqlite, dataDir: string, mutationId: number): UploadFile[] =>
  stagedFiles(db, mutationId).map((f) => ({
    name: f.name,
    data: join(dataDir, f.path),
    ...(f.contentType === null ? {} : { contentType: f.contentType }),
  }));

const isStagedPath = (path: string) =>
  path.startsWith(`${OUTBOX_FILES_DIR}/`) &&
  !path.slice(OUTBOX_FILES_DIR.length + 1).includes('/') &&
  !path.includes('..');

/** Deletes staged files (paths as the queue returned them), after the commit that dropped them. */
export const removeStagedFiles = (dataDir: string, paths: readonly string[]): void => {
  for (const p of paths) if (isStagedPath(p)) rmSync(join(dataDir, p), { force: true });
};

/**
 * Removes every file in the replica's staging directory that no outbox row refers to; the
 * count. Only ever given the replica's own folder: other replicas' rows are not known here.
 */
export const sweepOrphanFiles = (db: Sqlite, dataDir: string): number => {
  let names: string[];
  try {
    names = readdirSync(join(dataDir, OUTBOX_FILES_DIR));
  } catch {
    return 0;
  }
  const known = new Set(all(db, qb.selectFrom('outbox_files').select('path')).map((r) => r.path));
  let removed = 0;
  for (const name of names) {
    const rel = posix.join(OUTBOX_FILES_DIR, name);
    if (known.has(rel)) continue;
    rmSync(join(dataDir, rel), { force: true, recursive: true });
    removed++;
  }
  return removed;
};

/**
 * The upgrade from builds that staged every replica's uploads in one `<dataDir>/outbox-files/`:
 * moves the files this replica's rows name from `sharedDir` into `filesDir` (the rows' relative
 * paths stay as they are). Only a file a row names is provably this replica's (each name holds
 * a random UUID); the rest belongs to replicas not opened yet and stays. Each move is a rename,
 * so a kill leaves every file in one place or the other and the next open moves the rest; a
 * file that cannot be moved now stays for the next open. The count moved.
 */
export const adoptSharedStagedFiles = (db: Sqlite, sharedDir: string, filesDir: string): number => {
  const from = join(sharedDir, OUTBOX_FILES_DIR);
  if (!statSync(from, { throwIfNoEntry: false })?.isDirectory()) return 0;
  const to = join(filesDir, OUTBOX_FILES_DIR);
  let moved = 0;
  for (const { path } of all(db, qb.selectFrom('outbox_files').select('path'))) {
    if (!isStagedPath(path)) continue;
    const src = join(sharedDir, path);
    const dest = join(filesDir, path);
    if (!statSync(src, { throwIfNoEntry: false })?.isFile()) continue;
    if (statSync(dest, { throwIfNoEntry: false })) continue;
    try {
      mkdirSync(to, { recursive: true });
      renameSync(src, dest);
      moved++;
    } catch {
      // Left in the shared folder, still named by its row: the next open tries again.
    }
  }
  if (moved > 0) {
    fsyncPath(to, constants.O_RDONLY);
    fsyncPath(from, constants.O_RDONLY);
  }
  try {
    // Only when empty: the last replica to move its files out removes the shared folder.
    rmdirSync(from);
  } catch {
    // Other replicas' files are still there.
  }
  return moved;
};
