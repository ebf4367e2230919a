import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { readProjects } from '../../sync/db/queries/projects-read';
import { searchTasks } from '../../sync/db/queries/search';
import { searchIndexPending } from '../../sync/db/queries/search-index';
import { readSpaces } from '../../sync/db/queries/spaces-read';
import { readStreamState, writeStreamState } from '../../sync/db/queries/sync-state';
import { readTasks } from '../../sync/db/queries/tasks-read';
import { Replica } from '../../sync/db/replica';
import { PullCancelledError, type PullProgress } from '../../sync/engine/progress';
import { Puller, pullAll, requestRebootstrap } from '../../sync/engine/pull';
import { replicaTasks, serverProjects, serverTasks } from './snapshot';
import { admin, demo, demoClient, startDemoServer, tempDir } from './support';

let server: RunningServer;
let client: ApiClient;
const dir = tempDir();
let n = 0;
const freshReplica = () => Replica.openFile(join(dir, `r${++n}.sqlite`));

beforeAll(async () => {
  server = await startDemoServer();
  client = await demoClient(server);
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const expectEqualToServer = async (replica: Replica, c: ApiClient = client) => {
  expect(replicaTasks(replica)).toEqual(await serverTasks(c));
  const projects = await serverProjects(c);
  const local = replica.db
    .prepare('SELECT project_id, project_name, space_id, status FROM projects ORDER BY project_id')
    .all();
  expect(local).toEqual(
    projects.map((p) => ({
      project_id: p.projectId,
      project_name: p.projectName,
      space_id: p.spaceId,
      status: p.projectStatus?.projectStatusName ?? null,
    })),
  );
};

describe('bootstrap', () => {
  it('reports bytes received in its progress, never going back', async () => {
    const replica = freshReplica();
    const progress: PullProgress[] = [];
    await pullAll(replica, client, { onProgress: (p) => progress.push(p) });
    const bytes = progress.map((p) => p.bytes);
    expect(bytes.at(-1)).toBeGreaterThan(10_000);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    replica.close();
  });

  it('fills the replica with every row of the org, equal to the server', async () => {
    const replica = freshReplica();
    const progress: PullProgress[] = [];
    const result = await pullAll(replica, client, {
      pageSize: 50,
      onProgress: (p) => progress.push(p),
    });
    expect(result.rebootstrapped).toBe(false);
    const tasks = result.streams.find((s) => s.stream === 'tasks');
    expect(tasks?.mode).toBe('bootstrap');
    expect(tasks?.pages).toBeGreaterThan(1);
    await expectEqualToServer(replica);
    const taskProgress = progress.filter((p) => p.stream === 'tasks').map((p) => p.itemsDone);
    expect(taskProgress).toEqual([...taskProgress].sort((a, b) => a - b));
    expect(progress.filter((p) => p.stream === 'tasks').at(-1)?.done).toBe(true);
    const unread = replica.db
      .prepare('SELECT COUNT(*) AS n FROM notifications WHERE read = 0')
      .get() as { n: number };
    expect(unread.n).toBeGreaterThan(0);
    expect(readStreamState(replica.db, 'tasks')?.phase).toBe('done');
    // The search index, deferred during the fill, is complete and sound afterwards.
    expect(searchIndexPending(replica.db)).toBe(false);
    const some = replica.db
      .prepare('SELECT task_id, title FROM tasks ORDER BY task_id DESC LIMIT 1')
      .get() as { task_id: number; title: string };
    const word = some.title.split(/\s+/).find((w) => w.length > 3) ?? some.title;
    expect(searchTasks(replica.db, word, { limit: 500 }).map((h) => h.taskId)).toContain(
      some.task_id,
    );
    replica.db
      .prepare("INSERT INTO tasks_fts(tasks_fts, rank) VALUES ('integrity-check', 1)")
      .run();
    replica.close();
  });

  it("fetches a first fill's tasks while the projects come, and moves them only after", async () => {
    const replica = freshReplica();
    await admin(server, 'faults', {
      rules: [{ kind: '5xx', method: 'GET', pathPrefix: '/v1/bulk/projects', count: 1 }],
    });
    const progress: PullProgress[] = [];
    await expect(
      pullAll(replica, client, { pageSize: 50, onProgress: (p) => progress.push(p) }),
    ).rejects.toMatchObject({ kind: 'server' });
    // The tasks stream started beside the projects, and nothing moved without them.
    expect(progress.some((p) => p.stream === 'tasks')).toBe(true);
    expect(replica.db.prepare('SELECT count(*) AS n FROM tasks').get()).toEqual({ n: 0 });
    expect(readStreamState(replica.db, 'projects')?.phase).not.toBe('done');

    progress.length = 0;
    await pullAll(replica, client, { pageSize: 50, onProgress: (p) => progress.push(p) });
    const firstTasks = progress.findIndex((p) => p.stream === 'tasks');
    const projectsDone = progress.findIndex((p) => p.stream === 'projects' && p.done);
    expect(firstTasks).toBeGreaterThanOrEqual(0);
    expect(firstTasks).toBeLessThan(projectsDone);
    await expectEqualToServer(replica);
    replica.close();
  });

  it('reads back every task exactly as the server answers it, field for field', async () => {
    const replica = freshReplica();
    await pullAll(replica, client);
    const ids = (
      replica.db.prepare('SELECT task_id FROM tasks ORDER BY task_id').all() as {
        task_id: number;
      }[]
    ).map((r) => r.task_id);
    const now = server.deps.clock.now();
    const local = readTasks(replica.db, ids, now);
    const remote = await Promise.all(
      ids.map((taskId) => client.ops.getTaskById({ path: { taskId } })),
    );
    expect(local).toEqual(remote);
    const projects = readProjects(
      replica.db,
      (
        replica.db.prepare('SELECT project_id FROM projects ORDER BY project_id').all() as {
          project_id: number;
        }[]
      ).map((r) => r.project_id),
      now,
    );
    expect(projects.length).toBeGreaterThan(0);
    for (const p of projects)
      expect(p).toEqual(
        await client.ops.getProjectById({ path: { spaceId: p.spaceId, projectId: p.projectId } }),
      );
    expect(readSpaces(replica.db)).toEqual(await client.ops.getAllSpaces());
    replica.close();
  });

  it('keeps two orgs in two files, neither showing the other’s rows', async () => {
    const client2 = client.forOrg(2);
    const r1 = freshReplica();
    const r2 = freshReplica();
    await pullAll(r1, client);
    await pullAll(r2, client2);
    const ids = (r: Replica) =>
      new Set(
        (r.db.prepare('SELECT task_id FROM tasks').all() as { task_id: number }[]).map(
          (x) => x.task_id,
        ),
      );
    const a = ids(r1);
    const b = ids(r2);
    expect(a.size).toBeGreaterThan(0);
    expect(b.size).toBeGreaterThan(0);
    for (const id of b) expect(a.has(id)).toBe(false);
    const orgOf = server.deps.db.prepare('SELECT org_id FROM tasks WHERE task_id = ?');
    for (const id of a) expect((orgOf.get(id) as { org_id: number }).org_id).toBe(1);
    for (const id of b) expect((orgOf.get(id) as { org_id: number }).org_id).toBe(2);
    await expectEqualToServer(r2, client2);
    r1.close();
    r2.close();
  });

  it('can be cancelled and then resumes where it stopped', async () => {
    const replica = freshReplica();
    const abort = new AbortController();
    const pulled = pullAll(replica, client, {
      pageSize: 40,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.stream === 'tasks' && p.itemsDone >= 80) abort.abort();
      },
    });
    await expect(pulled).rejects.toBeInstanceOf(PullCancelledError);
    const mid = readStreamState(replica.db, 'tasks');
    expect(mid?.phase).toBe('bootstrap');
    expect(mid?.itemsDone).toBeGreaterThanOrEqual(80);
    const rest = await pullAll(replica, client, { pageSize: 40 });
    const tasks = rest.streams.find((s) => s.stream === 'tasks');
    expect(tasks?.mode).toBe('bootstrap');
    expect((tasks?.upserted ?? 0) + (mid?.itemsDone ?? 0)).toBe((await serverTasks(client)).length);
    await expectEqualToServer(replica);
    replica.close();
  });

  it('resumes after the process is killed with SIGKILL mid-way, never from zero', async () => {
    const file = join(dir, 'killed.sqlite');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'pull-child.ts'),
        server.url,
        file,
        demo.email,
        demo.password,
        '1',
        '20',
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          if (line === 'done') reject(new Error('the child finished before it was killed'));
          const p = JSON.parse(line) as PullProgress;
          if (p.stream === 'tasks' && p.itemsDone >= 100) child.kill('SIGKILL');
        }
      });
      child.on('exit', () => resolve());
    });
    expect(existsSync(file)).toBe(true);
    const replica = Replica.openFile(file);
    const mid = readStreamState(replica.db, 'tasks');
    expect(mid?.phase).toBe('bootstrap');
    expect(mid?.itemsDone).toBeGreaterThanOrEqual(100);
    // The pages written are whole: rows equal items done (a first fill stages them first).
    const rows = replica.db
      .prepare('SELECT (SELECT COUNT(*) FROM tasks) + (SELECT COUNT(*) FROM tasks_stage) AS n')
      .get() as { n: number };
    expect(rows.n).toBe(mid?.itemsDone);
    const rest = await pullAll(replica, client, { pageSize: 20 });
    expect(rest.streams.find((s) => s.stream === 'tasks')?.upserted).toBe(
      (await serverTasks(client)).length - (mid?.itemsDone ?? 0),
    );
    await expectEqualToServer(replica);
    replica.close();
  }, 60_000);
});

describe('delta pulls', () => {
  it('apply edits, deletes (with subtasks) and moves between projects', async () => {
    const replica = freshReplica();
    await pullAll(replica, client);
    const db = server.deps.db;
    const parent = db
      .prepare(
        'SELECT parent_task_id AS id FROM tasks WHERE org_id = 1 AND parent_task_id IS NOT NULL AND deleted = 0 AND project_id IS NOT NULL LIMIT 1',
      )
      .get() as { id: number };
    const parentRow = db
      .prepare('SELECT space_id, project_id FROM tasks WHERE task_id = ?')
      .get(parent.id) as { space_id: number; project_id: number };
    const edited = db
      .prepare(
        'SELECT task_id, space_id, project_id FROM tasks WHERE org_id = 1 AND project_id IS NOT NULL AND parent_task_id IS NULL AND deleted = 0 AND task_id <> ? LIMIT 1',
      )
      .get(parent.id) as {
      task_id: number;
      space_id: number;
      project_id: number;
    };
    const current = await client.ops.getProjectTaskById({
      path: { spaceId: edited.space_id, projectId: edited.project_id, taskId: edited.task_id },
    });
    await client.ops.updateProjectTask({
      path: { spaceId: edited.space_id, projectId: edited.project_id, taskId: edited.task_id },
      body: {
        taskTitle: 'Renamed by a colleague',
        status: 'In Review',
        priority: current.priority ?? 'None',
        tags: ['edited'],
      },
    });
    await client.ops.deleteProjectTask({
      path: { spaceId: parentRow.space_id, projectId: parentRow.project_id, taskId: parent.id },
    });
    // A move between projects (done by another client of the service): project and time change.
    const other = db
      .prepare(
        'SELECT project_id FROM projects WHERE org_id = 1 AND project_id <> ? AND deleted = 0 LIMIT 1',
      )
      .get(edited.project_id) as { project_id: number };
    const moved = db
      .prepare(
        'SELECT task_id FROM tasks WHERE org_id = 1 AND project_id = ? AND parent_task_id IS NULL AND deleted = 0 AND task_id NOT IN (?, ?) LIMIT 1',
      )
      .get(edited.project_id, edited.task_id, parent.id) as { task_id: number };
    const now = server.deps.clock.now();
    db.prepare(
      'UPDATE tasks SET project_id = ?, modified_time = ? WHERE task_id = ? OR parent_task_id = ?',
    ).run(other.project_id, now, moved.task_id, moved.task_id);

    const result = await pullAll(replica, client);
    const tasks = result.streams.find((s) => s.stream === 'tasks');
    expect(tasks?.mode).toBe('delta');
    expect(tasks?.deleted).toBeGreaterThanOrEqual(1);
    const local = replica.db
      .prepare('SELECT title, status FROM tasks WHERE task_id = ?')
      .get(edited.task_id);
    expect(local).toEqual({ title: 'Renamed by a colleague', status: 'In Review' });
    expect(
      replica.db
        .prepare('SELECT COUNT(*) AS n FROM tasks WHERE task_id = ? OR parent_task_id = ?')
        .get(parent.id, parent.id),
    ).toEqual({ n: 0 });
    expect(
      replica.db.prepare('SELECT project_id FROM tasks WHERE task_id = ?').get(moved.task_id),
    ).toEqual({ project_id: other.project_id });
    await expectEqualToServer(replica);
    replica.close();
  });

  it('leave the replica exactly as before when a page is malformed, and surface the error', async () => {
    const replica = freshReplica();
    await pullAll(replica, client);
    const t = server.deps.db
      .prepare(
        'SELECT task_id FROM tasks WHERE org_id = 1 AND project_id IS NULL AND parent_task_id IS NULL AND deleted = 0 LIMIT 1',
      )
      .get() as { task_id: number };
    const task = await client.ops.getTaskById({ path: { taskId: t.task_id } });
    await client.ops.updateTask({
      path: { taskId: t.task_id },
      body: {
        taskTitle: `${task.taskTitle} (changed)`,
        status: task.status ?? 'To Do',
        priority: task.priority ?? 'None',
      },
    });
    // The streams before the tasks may complete; the tasks stream and its rows must not move.
    const dump = () =>
      JSON.stringify([replicaTasks(replica), readStreamState(replica.db, 'tasks')]);
    const before = dump();
    await admin(server, 'faults', {
      rules: [{ kind: 'malformed', method: 'GET', pathPrefix: '/v1/bulk/tasks', count: 1 }],
    });
    await expect(pullAll(replica, client)).rejects.toMatchObject({ kind: 'bad-response' });
    expect(dump()).toBe(before);
    await pullAll(replica, client);
    expect(replica.db.prepare('SELECT title FROM tasks WHERE task_id = ?').get(t.task_id)).toEqual({
      title: `${task.taskTitle} (changed)`,
    });
    replica.close();
  });

  it('fall back to a fresh bootstrap when the server refuses the stored cursor', async () => {
    const replica = freshReplica();
    await pullAll(replica, client);
    const state = readStreamState(replica.db, 'tasks');
    if (!state) throw new Error('no state');
    writeStreamState(
      replica.db,
      { ...state, phase: 'delta', cursor: 'not-a-cursor', pullSince: state.serverTime },
      Date.now(),
    );
    const result = await pullAll(replica, client);
    expect(result.rebootstrapped).toBe(true);
    await expectEqualToServer(replica);
    replica.close();
  });

  it('fall back to a fresh bootstrap when the server answers that the export is gone (410)', async () => {
    const replica = freshReplica();
    await pullAll(replica, client);
    await admin(server, 'faults', {
      rules: [{ kind: 'gone', method: 'GET', pathPrefix: '/v1/bulk/tasks', count: 1 }],
    });
    const result = await pullAll(replica, client);
    expect(result.rebootstrapped).toBe(true);
    expect(result.streams.find((s) => s.stream === 'tasks')?.mode).toBe('bootstrap');
    await expectEqualToServer(replica);
    replica.close();
  });

  it('rebuild from scratch when asked (a schema change), keeping nothing stale', async () => {
    const replica = freshReplica();
    await pullAll(replica, client);
    replica.db.prepare("INSERT INTO tasks (task_id, title) VALUES (999999, 'stale row')").run();
    requestRebootstrap(replica);
    const result = await pullAll(replica, client);
    expect(result.rebootstrapped).toBe(true);
    expect(
      replica.db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE task_id = 999999').get(),
    ).toEqual({ n: 0 });
    await expectEqualToServer(replica);
    replica.close();
  });

  it('never run two at once: a second request joins the first', async () => {
    const replica = freshReplica();
    const puller = new Puller(replica, client);
    const a = puller.pull();
    const b = puller.pull();
    expect(puller.running).toBe(true);
    expect(b).toBe(a);
    await a;
    expect(puller.running).toBe(false);
    replica.close();
  });
});
