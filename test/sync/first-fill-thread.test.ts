import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStreamState } from '../../sync/db/queries/sync-state';
import { Replica } from '../../sync/db/replica';
import { PullCancelledError } from '../../sync/engine/progress';
import { pullAll } from '../../sync/engine/pull';
import { demoServerForFile } from './demo-fixture';
import { replicaTasks, serverTasks } from './snapshot';
import { admin, tempDir } from './support';

const env = demoServerForFile();
const dir = tempDir();

/** Everything a first fill has written so far: the stage, the tables, the stream's state. */
const dump = (r: Replica) =>
  JSON.stringify([
    r.db.prepare('SELECT seq, task_id, json(data) AS data FROM tasks_stage ORDER BY seq').all(),
    replicaTasks(r),
    readStreamState(r.db, 'tasks'),
  ]);

describe('a first fill decoded on its worker thread', () => {
  it('writes nothing of a malformed page, surfaces the error, and resumes after it', async () => {
    const replica = Replica.openFile(join(dir, 'malformed.sqlite'));
    const abort = new AbortController();
    await expect(
      pullAll(replica, env.client, {
        pageSize: 20,
        signal: abort.signal,
        onProgress: (p) => {
          if (p.stream === 'tasks' && p.itemsDone >= 40) abort.abort();
        },
      }),
    ).rejects.toBeInstanceOf(PullCancelledError);
    const before = dump(replica);
    expect(readStreamState(replica.db, 'tasks')?.phase).toBe('bootstrap');
    await admin(env.server, 'faults', {
      rules: [{ kind: 'malformed', method: 'GET', pathPrefix: '/v1/bulk/tasks', count: 1 }],
    });
    await expect(pullAll(replica, env.client, { pageSize: 20 })).rejects.toMatchObject({
      kind: 'bad-response',
      operationId: 'bulkTasks',
    });
    expect(dump(replica)).toBe(before);
    await pullAll(replica, env.client, { pageSize: 20 });
    expect(replicaTasks(replica)).toEqual(await serverTasks(env.client));
    expect(replica.db.prepare('SELECT COUNT(*) AS n FROM tasks_stage').get()).toEqual({ n: 0 });
    // The writer checkpoints by itself again once the fill is over.
    expect(replica.db.pragma('wal_autocheckpoint', { simple: true })).toBeGreaterThan(0);
    replica.close();
  });
});
