import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Replica } from '../db/replica';
import { tempDir } from '../test-support/temp-dir';
import { startCheckpointer } from './checkpointer';
import { type FillThread, startFillThread } from './fill-thread';

const opened: Replica[] = [];
let thread: FillThread | null = null;
afterEach(async () => {
  await thread?.close();
  thread = null;
  for (const r of opened.splice(0)) r.close();
});
const fileReplica = () => {
  const r = Replica.openFile(join(tempDir('wt-ckpt-'), 'r.sqlite'));
  opened.push(r);
  return r;
};

/** WAL frames, and how many of them are copied back into the database. */
const walState = (r: Replica) =>
  (r.db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[])[0];

const writeRows = (r: Replica, from: number, n: number) =>
  r.db.transaction(() => {
    const insert = r.db.prepare(
      'INSERT INTO users (user_id, first_name, last_name, ref) VALUES (?, ?, ?, ?)',
    );
    for (let i = from; i < from + n; i++) insert.run(i, `first ${i}`, 'x'.repeat(500), '{}');
  })();

describe('checkpointer', () => {
  it('takes the checkpoints off the writer while it runs, and gives them back after', async () => {
    const r = fileReplica();
    const before = r.db.pragma('wal_autocheckpoint', { simple: true });
    thread = startFillThread();
    const checkpointer = startCheckpointer(r, thread, { everyMs: 20 });
    expect(checkpointer.threaded).toBe(true);
    expect(r.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    while (checkpointer.done === 0) await sleep(10);
    for (let i = 0; i < 20; i++) {
      writeRows(r, i * 200, 200);
      await sleep(30);
    }
    expect(checkpointer.done).toBeGreaterThan(5);
    await checkpointer.stop();
    expect(checkpointer.threaded).toBe(false);
    expect(r.db.pragma('wal_autocheckpoint', { simple: true })).toBe(before);
    // The worker copied the WAL back as it went, so the writer started it over: it holds a
    // few of the frames written, not all of them (as without checkpoints, below).
    const wal = walState(r);
    expect(r.db.prepare('SELECT COUNT(*) AS n FROM users').get()).toEqual({ n: 4000 });
    const unchecked = fileReplica();
    unchecked.db.pragma('wal_autocheckpoint = 0');
    for (let i = 0; i < 20; i++) writeRows(unchecked, i * 200, 200);
    const all = walState(unchecked);
    expect(wal?.log).toBeLessThan((all?.log ?? 0) / 4);
  });

  it('leaves an in-memory replica to checkpoint by itself', async () => {
    const r = Replica.openFile(':memory:');
    opened.push(r);
    thread = startFillThread();
    const checkpointer = startCheckpointer(r, thread);
    expect(checkpointer.threaded).toBe(false);
    await checkpointer.stop();
  });
});
