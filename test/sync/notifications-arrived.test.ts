/**
 * New unread notifications a pull brings are announced once (the host turns them into system
 * notifications); a first fill's are the past, and read ones are not news.
 */
import { expect, it } from 'vitest';
import type { EngineEvent } from '../../sync/engine/engine-api';
import { engineSetup } from './engine-setup';

const setUp = engineSetup();

it('announces each new unread notification a pull brings, once', async () => {
  const { server: s, engine: e, client: c } = await setUp();
  const arrived: number[][] = [];
  e.on((ev: EngineEvent) => {
    if (ev.type === 'notifications-arrived') arrived.push(ev.notificationIds);
  });
  const userId = c.session.user?.userId ?? 0;
  const add = (read: number) =>
    Number(
      s.deps.db
        .prepare(
          `INSERT INTO notifications (org_id, user_id, type, title, body, task_id, project_id, read, created_time)
           VALUES (1, ?, 'TASK_ASSIGNED', 'new', 'body', NULL, NULL, ?, ?)`,
        )
        .run(userId, read, s.deps.clock.now()).lastInsertRowid,
    );
  const unread = add(0);
  add(1);
  await e.syncNow();
  expect(arrived).toEqual([[unread]]);
  await e.syncNow();
  expect(arrived).toEqual([[unread]]);
});
