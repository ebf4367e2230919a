/**
 * Org 2 of the demo server, where the demo user and another member both work: the user's
 * engine (through its first fill) and the other member's plain client, closed after each test.
 */
import { afterEach } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { testEngine } from './engine-setup';
import { demoClient, startDemoServer } from './support';

export interface TwoMembers {
  server: RunningServer;
  engine: SyncEngine;
  theirs: ApiClient;
  me: number;
}

/** Call once per test file: what `setUp` opens is closed after each test. */
export const twoMembersSetup = (folder: string) => {
  let opened: (TwoMembers & { mine: ApiClient }) | undefined;
  afterEach(async () => {
    await opened?.engine.close();
    await opened?.mine.close();
    await opened?.theirs.close();
    await opened?.server.close();
    opened = undefined;
  });
  return async (): Promise<TwoMembers> => {
    const server = await startDemoServer();
    const mine = await demoClient(server, 2, 'demo');
    const theirs = await demoClient(server, 2, 'other');
    const engine = testEngine(mine, folder);
    opened = { server, mine, theirs, engine, me: mine.session.user?.userId ?? 0 };
    engine.start();
    await engine.syncNow();
    return opened;
  };
};

/** The replica's first top-level project task with a server id. */
export const firstProjectTask = (e: SyncEngine): number =>
  e.replica.db
    .prepare(
      `SELECT task_id FROM tasks WHERE project_id IS NOT NULL AND parent_task_id IS NULL
       AND task_id > 0 ORDER BY task_id LIMIT 1`,
    )
    .pluck()
    .get() as number;

/** A project task as the other member's client reads it, with the path its routes take. */
export const projectTaskOf = async (c: ApiClient, taskId: number) => {
  const t = await c.ops.getTaskById({ path: { taskId } });
  return { t, path: { spaceId: t.spaceId ?? 0, projectId: t.projectId ?? 0, taskId } };
};
