import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  adoptSharedStagedFiles,
  OUTBOX_FILES_DIR,
  removeStagedFiles,
  stagedFiles,
  stageUploadFiles,
  sweepOrphanFiles,
  uploadFilesOf,
} from './files';
import { discard, enqueue, markInflight, settle } from './queue';
import { type TempReplica, tempReplica, uploadToTask } from './test-support';

let t: TempReplica;
beforeEach(() => {
  t = tempReplica();
});
afterEach(() => t.close());

const NOW = 50;
const staged = () => readdirSync(join(t.dir, OUTBOX_FILES_DIR));

/** Enqueues an upload of two files (one from disk, one from memory), as the edit layer would. */
const enqueueUpload = (localId: number) => {
  const original = join(t.dir, `report-${localId}.pdf`);
  writeFileSync(original, 'pdf bytes');
  const mutationId = t.db.transaction(() => {
    const r = enqueue(t.db, uploadToTask(12, localId), NOW);
    if (r.mutationId === null) throw new Error('coalesced away');
    stageUploadFiles(t.db, t.dir, r.mutationId, [
      { name: 'report.pdf', data: original },
      { name: 'notes.txt', data: new TextEncoder().encode('hello'), contentType: 'text/plain' },
    ]);
    return r.mutationId;
  })();
  return { mutationId, original };
};

describe('staged upload files', () => {
  it('are copies: the upload survives the original being deleted', () => {
    const { mutationId, original } = enqueueUpload(-1);
    rmSync(original);
    const files = stagedFiles(t.db, mutationId);
    expect(files.map((f) => [f.position, f.name, f.size, f.contentType])).toEqual([
      [0, 'report.pdf', 9, 'application/pdf'],
      [1, 'notes.txt', 5, 'text/plain'],
    ]);
    expect(files.every((f) => f.path.startsWith(`${OUTBOX_FILES_DIR}/`))).toBe(true);
    const upload = uploadFilesOf(t.db, t.dir, mutationId);
    expect(upload.map((f) => readFileSync(f.data as string, 'utf8'))).toEqual([
      'pdf bytes',
      'hello',
    ]);
    expect(upload[0]).toMatchObject({ name: 'report.pdf', contentType: 'application/pdf' });
    // More files for the same row go after the first ones.
    const more = stageUploadFiles(t.db, t.dir, mutationId, [
      { name: 'c.csv', data: new Uint8Array([1]) },
    ]);
    expect(more[0]?.position).toBe(2);
  });

  it('are removed when the upload settles', () => {
    const { mutationId } = enqueueUpload(-1);
    markInflight(t.db, mutationId, NOW);
    const dropped = settle(t.db, mutationId);
    expect(dropped.files).toHaveLength(2);
    expect(staged()).toHaveLength(2); // the bytes go only after the commit…
    removeStagedFiles(t.dir, dropped.files);
    expect(staged()).toEqual([]);
    expect(stagedFiles(t.db, mutationId)).toEqual([]);
  });

  it('are removed when the upload is discarded, or deleted before it was sent', () => {
    const a = enqueueUpload(-1);
    enqueueUpload(-2);
    const dropped = discard(t.db, a.mutationId);
    removeStagedFiles(t.dir, dropped.files);
    expect(staged()).toHaveLength(2);
    const del = enqueue(
      t.db,
      {
        kind: 'attachment.delete',
        operationId: 'deleteTaskAttachment',
        path: { taskId: 12, attachmentId: -2 },
      },
      NOW,
    );
    expect(del).toMatchObject({ mutationId: null, rule: 'create-then-delete' });
    removeStagedFiles(t.dir, del.dropped.files);
    expect(staged()).toEqual([]);
  });

  it('left behind by a rolled-back enqueue are swept; referenced ones stay', () => {
    const { mutationId } = enqueueUpload(-1);
    expect(() =>
      t.db.transaction(() => {
        const r = enqueue(t.db, uploadToTask(12, -2), NOW);
        stageUploadFiles(t.db, t.dir, r.mutationId ?? 0, [
          { name: 'x.txt', data: new Uint8Array([1, 2]) },
        ]);
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(staged()).toHaveLength(3);
    expect(sweepOrphanFiles(t.db, t.dir)).toBe(1);
    expect(staged()).toHaveLength(2);
    expect(uploadFilesOf(t.db, t.dir, mutationId).every((f) => existsSync(f.data as string))).toBe(
      true,
    );
  });

  it('a file that cannot be read fails the enqueue and leaves no copy', () => {
    expect(() =>
      t.db.transaction(() => {
        const r = enqueue(t.db, uploadToTask(12, -1), NOW);
        stageUploadFiles(t.db, t.dir, r.mutationId ?? 0, [
          { name: 'ok.txt', data: new Uint8Array([1]) },
          { name: 'gone.txt', data: join(t.dir, 'missing.txt') },
        ]);
      })(),
    ).toThrow(/ENOENT/);
    expect(staged()).toEqual([]);
  });

  it('removal never leaves the staging directory', () => {
    writeFileSync(join(t.dir, 'keep.txt'), 'x');
    removeStagedFiles(t.dir, ['keep.txt', `${OUTBOX_FILES_DIR}/../keep.txt`]);
    expect(existsSync(join(t.dir, 'keep.txt'))).toBe(true);
  });
});

describe('the upgrade from one shared staging folder', () => {
  // What older builds left: every replica's copies in `<dataDir>/outbox-files/`. Here `t.dir`
  // is that data dir and `mine` the replica's own folder.
  const mine = () => join(t.dir, 'replica-x.files');
  const shared = () => join(t.dir, OUTBOX_FILES_DIR);
  /** Stages as an older build did (into the shared folder), with a stranger's file beside. */
  const olderBuild = () => {
    const { mutationId } = enqueueUpload(-1);
    writeFileSync(join(shared(), '9-0-a-replica-not-opened-yet'), 'theirs');
    return mutationId;
  };

  it("moves the files this replica's rows name into its folder; the rows and others' files stay", () => {
    const mutationId = olderBuild();
    const rows = stagedFiles(t.db, mutationId);
    expect(adoptSharedStagedFiles(t.db, t.dir, mine())).toBe(2);
    expect(stagedFiles(t.db, mutationId)).toEqual(rows);
    expect(
      uploadFilesOf(t.db, mine(), mutationId).map((f) => readFileSync(f.data as string, 'utf8')),
    ).toEqual(['pdf bytes', 'hello']);
    expect(readdirSync(shared())).toEqual(['9-0-a-replica-not-opened-yet']);
    // Nothing left to move: the next open changes nothing, and the sweep of the own folder keeps
    // what the rows name.
    expect(adoptSharedStagedFiles(t.db, t.dir, mine())).toBe(0);
    expect(sweepOrphanFiles(t.db, mine())).toBe(0);
    expect(readFileSync(join(shared(), '9-0-a-replica-not-opened-yet'), 'utf8')).toBe('theirs');
  });

  it('finishes a move a kill interrupted (one file moved, one not)', () => {
    const mutationId = olderBuild();
    const [first, second] = stagedFiles(t.db, mutationId);
    mkdirSync(join(mine(), OUTBOX_FILES_DIR), { recursive: true });
    renameSync(join(t.dir, first?.path ?? ''), join(mine(), first?.path ?? ''));
    expect(existsSync(join(t.dir, second?.path ?? ''))).toBe(true);
    expect(adoptSharedStagedFiles(t.db, t.dir, mine())).toBe(1);
    expect(uploadFilesOf(t.db, mine(), mutationId).every((f) => existsSync(f.data as string))).toBe(
      true,
    );
  });

  it('removes the shared folder once the last file is out, and never before', () => {
    const mutationId = olderBuild();
    adoptSharedStagedFiles(t.db, t.dir, mine());
    expect(existsSync(shared())).toBe(true);
    rmSync(join(shared(), '9-0-a-replica-not-opened-yet'));
    adoptSharedStagedFiles(t.db, t.dir, mine());
    expect(existsSync(shared())).toBe(false);
    expect(stagedFiles(t.db, mutationId)).toHaveLength(2);
  });
});
