import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Comment, comment, timesheet, timesheetSummary } from '../../../shared/api';
import { serverDataTables } from '../migrations';
import {
  getAttachmentFile,
  getCached,
  getComments,
  getTimesheet,
  getTimesheetSummary,
  putAttachmentFile,
  putCached,
  putComments,
  putTimesheet,
  putTimesheetSummary,
  removeAttachmentFile,
  timesheetKey,
} from './lazy-cache';
import {
  alice,
  bob,
  iso,
  NOW,
  openTestReplica,
  seedReplica,
  type TestReplica,
} from './read.fixture';
import { searchTasks } from './search';
import { readTask } from './tasks-read';

let t: TestReplica;
beforeEach(() => {
  t = openTestReplica();
});
afterEach(() => t.close());

const c = (commentId: number, taskId: number, minutesAgo: number, extra: object = {}): Comment =>
  comment.parse({
    commentId,
    taskId,
    content: `comment ${commentId}`,
    createdBy: commentId % 2 ? alice : bob,
    createdTime: iso(NOW - minutesAgo * 60_000),
    modifiedTime: null,
    ...extra,
  });

describe('comments', () => {
  it('never fetched is null; fetched and empty is an empty list', () => {
    expect(getComments(t.replica.db, 1)).toBeNull();
    putComments(t.replica.db, 1, [], NOW);
    expect(getComments(t.replica.db, 1)).toEqual({ value: [], fetchedAt: NOW });
  });

  it('round trip, oldest first, unknown fields kept; a new fetch replaces the old one', () => {
    const list = [c(3, 1, 5), c(1, 1, 50, { reactions: ['+1'] }), c(2, 1, 5)];
    putComments(t.replica.db, 1, list, NOW);
    putComments(t.replica.db, 2, [c(9, 2, 1)], NOW);
    expect(getComments(t.replica.db, 1)).toEqual({
      value: [list[1], list[2], list[0]],
      fetchedAt: NOW,
    });
    putComments(t.replica.db, 1, [c(2, 1, 5)], NOW + 1);
    expect(getComments(t.replica.db, 1)).toEqual({ value: [c(2, 1, 5)], fetchedAt: NOW + 1 });
    expect(getComments(t.replica.db, 2)?.value.map((x) => x.commentId)).toEqual([9]);
  });
});

describe('timesheets and other cached answers', () => {
  const sheet = timesheet.parse({
    from: NOW - 86_400_000,
    to: NOW,
    totalSeconds: 3600,
    entries: [
      {
        trackId: 1,
        taskId: 1,
        userId: 1,
        state: 'STOPPED',
        startTime: NOW - 7200_000,
        endTime: NOW - 3600_000,
        durationSeconds: 3600,
      },
    ],
  });
  const summary = timesheetSummary.parse({
    projectId: 100,
    from: 0,
    to: NOW,
    totalSeconds: 60,
    billableSeconds: 60,
    nonBillableSeconds: 0,
    byUser: [{ userId: 1, seconds: 60 }],
    byTask: [{ taskId: 1, seconds: 60 }],
  });

  it('keyed by the query', () => {
    putTimesheet(t.replica.db, { kind: 'timesheet', from: sheet.from, to: sheet.to }, sheet, NOW);
    expect(
      getTimesheet(t.replica.db, { kind: 'timesheet', from: sheet.from, to: sheet.to }),
    ).toEqual({ value: sheet, fetchedAt: NOW });
    expect(
      getTimesheet(t.replica.db, { kind: 'timesheet', from: sheet.from, to: sheet.to + 1 }),
    ).toBeNull();
    expect(
      getTimesheet(t.replica.db, {
        kind: 'project-timesheet',
        projectId: 100,
        from: sheet.from,
        to: sheet.to,
      }),
    ).toBeNull();
    const q = { kind: 'project-timesheet-summary', projectId: 100, from: 0, to: NOW } as const;
    putTimesheetSummary(t.replica.db, q, summary, NOW);
    putTimesheetSummary(t.replica.db, q, { ...summary, totalSeconds: 61 }, NOW + 5);
    expect(getTimesheetSummary(t.replica.db, q)).toEqual({
      value: { ...summary, totalSeconds: 61 },
      fetchedAt: NOW + 5,
    });
  });

  it('a body of another shape (an older version wrote it) is a miss, not a crash', () => {
    const key = { kind: 'timesheet', from: 1, to: 2 } as const;
    putCached(t.replica.db, timesheetKey(key), { totally: 'different' }, NOW);
    expect(getTimesheet(t.replica.db, key)).toBeNull();
    putCached(t.replica.db, 'anything', [1, 2], NOW);
    expect(getCached(t.replica.db, 'anything', z.array(z.number()))).toEqual({
      value: [1, 2],
      fetchedAt: NOW,
    });
  });
});

describe('attachment files', () => {
  const bytes = new TextEncoder().encode('%PDF-1.7 hello');

  it('stores the bytes under the data dir and reads them back', async () => {
    const dataDir = join(t.dir, 'data');
    const stored = await putAttachmentFile(
      t.replica.db,
      dataDir,
      { attachmentId: 91, bytes, contentType: 'application/pdf' },
      NOW,
    );
    expect(stored).toEqual({
      attachmentId: 91,
      path: join(dataDir, 'attachments', '91.bin'),
      size: bytes.length,
      contentType: 'application/pdf',
      fetchedAt: NOW,
    });
    expect(readFileSync(stored.path)).toEqual(Buffer.from(bytes));
    expect(getAttachmentFile(t.replica.db, dataDir, 91)).toEqual(stored);
    expect(readdirSync(join(dataDir, 'attachments'))).toEqual(['91.bin']);
    expect(getAttachmentFile(t.replica.db, dataDir, 92)).toBeNull();
  });

  it('takes a stream of chunks, and a new copy replaces the old', async () => {
    const dataDir = join(t.dir, 'data');
    await putAttachmentFile(t.replica.db, dataDir, { attachmentId: 5, bytes }, NOW);
    const chunks = async function* () {
      yield new Uint8Array([1, 2, 3]);
      yield new Uint8Array([4, 5]);
    };
    const second = await putAttachmentFile(
      t.replica.db,
      dataDir,
      { attachmentId: 5, bytes: chunks() },
      NOW + 1,
    );
    expect([...readFileSync(second.path)]).toEqual([1, 2, 3, 4, 5]);
    expect(getAttachmentFile(t.replica.db, dataDir, 5)).toMatchObject({
      size: 5,
      fetchedAt: NOW + 1,
      contentType: null,
    });
  });

  it('a cut download leaves the previous copy whole and no temp file', async () => {
    const dataDir = join(t.dir, 'data');
    const good = await putAttachmentFile(t.replica.db, dataDir, { attachmentId: 7, bytes }, NOW);
    const broken = async function* () {
      yield new Uint8Array([9, 9, 9]);
      throw new Error('connection reset');
    };
    await expect(
      putAttachmentFile(t.replica.db, dataDir, { attachmentId: 7, bytes: broken() }, NOW + 1),
    ).rejects.toThrow('connection reset');
    expect(readdirSync(join(dataDir, 'attachments'))).toEqual(['7.bin']);
    expect(readFileSync(good.path)).toEqual(Buffer.from(bytes));
    expect(getAttachmentFile(t.replica.db, dataDir, 7)).toEqual(good);
  });

  it('a file gone or changed on disk is a miss and forgets its row; remove deletes both', async () => {
    const dataDir = join(t.dir, 'data');
    const a = await putAttachmentFile(t.replica.db, dataDir, { attachmentId: 1, bytes }, NOW);
    writeFileSync(a.path, 'truncated');
    expect(getAttachmentFile(t.replica.db, dataDir, 1)).toBeNull();
    const b = await putAttachmentFile(t.replica.db, dataDir, { attachmentId: 2, bytes }, NOW);
    await removeAttachmentFile(t.replica.db, dataDir, 2);
    expect(existsSync(b.path)).toBe(false);
    expect(getAttachmentFile(t.replica.db, dataDir, 2)).toBeNull();
    const rows = t.replica.db.prepare('SELECT count(*) AS n FROM attachment_files').get() as {
      n: number;
    };
    expect(rows.n).toBe(0);
  });

  it("a row an older build wrote (content in the folder replicas shared) is a miss in the replica's own", async () => {
    const shared = join(t.dir, 'replicas');
    const own = join(shared, 'replica-0123456789abcdef-u1-o1.files');
    const old = await putAttachmentFile(t.replica.db, shared, { attachmentId: 3, bytes }, NOW);
    expect(getAttachmentFile(t.replica.db, own, 3)).toBeNull();
    // Fetched again into the replica's folder; the shared copy (maybe another server's) is
    // neither read nor touched.
    const again = await putAttachmentFile(t.replica.db, own, { attachmentId: 3, bytes }, NOW + 1);
    expect(again.path).toBe(join(own, 'attachments', '3.bin'));
    expect(getAttachmentFile(t.replica.db, own, 3)).toEqual(again);
    expect(readFileSync(old.path)).toEqual(Buffer.from(bytes));
  });
});

describe('Replica.wipeServerData', () => {
  it('empties server data and the search index, keeps lazy caches', async () => {
    seedReplica(t.replica);
    const dataDir = join(t.dir, 'data');
    putComments(t.replica.db, 1, [c(1, 1, 5)], NOW);
    putCached(t.replica.db, 'timesheet:1:2', { x: 1 }, NOW);
    await putAttachmentFile(
      t.replica.db,
      dataDir,
      { attachmentId: 91, bytes: new Uint8Array([1]) },
      NOW,
    );
    expect(searchTasks(t.replica.db, 'spec')).toHaveLength(2);

    t.replica.wipeServerData();

    for (const table of serverDataTables) {
      const { n } = t.replica.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as {
        n: number;
      };
      expect(n, table).toBe(0);
    }
    expect(searchTasks(t.replica.db, 'spec')).toEqual([]);
    const { n: indexed } = t.replica.db
      .prepare('SELECT count(*) AS n FROM tasks_fts_docsize')
      .get() as { n: number };
    expect(indexed).toBe(0);
    t.replica.db
      .prepare("INSERT INTO tasks_fts(tasks_fts, rank) VALUES ('integrity-check', 1)")
      .run();
    expect(readTask(t.replica.db, 1, NOW)).toBeNull();

    // Lazy data stays; a comment's author is a bare ref until users come back with a pull.
    expect(getComments(t.replica.db, 1)?.value).toEqual([
      { ...c(1, 1, 5), createdBy: { userId: 1 } },
    ]);
    expect(getCached(t.replica.db, 'timesheet:1:2', z.object({ x: z.number() }))?.value).toEqual({
      x: 1,
    });
    expect(getAttachmentFile(t.replica.db, dataDir, 91)?.size).toBe(1);

    seedReplica(t.replica);
    expect(searchTasks(t.replica.db, 'spec')).toHaveLength(2);
    expect(getComments(t.replica.db, 1)?.value).toEqual([c(1, 1, 5)]);
  });
});
