import { expect, it } from 'vitest';
import type { ApiClient } from './client';

// Compile-time checks of the derived signatures: `tsc` fails on a wrong type or on an
// `@ts-expect-error` that no longer errors. The function is never called.
async function checks(c: ApiClient) {
  const t = await c.ops.getTaskById({ path: { taskId: 1 } });
  const title: string = t.taskTitle;
  const p = await c.ops.getAll({
    query: { title: 'x', creators: [1], sort: ['createdTime,desc'] },
  });
  const n: number = p.totalElements;
  await c.ops.getAll();
  await c.ops.getActiveTimers();
  await c.ops.createTask({ body: { taskTitle: 'a' }, idempotencyKey: 'k' });
  const v: undefined = await c.ops.deleteCheckListForTask({ path: { taskId: 1, checklistId: 2 } });
  const b = await c.ops.getTaskAttachmentContent({ path: { taskId: 1, attachmentId: 2 } });
  const bytes: Uint8Array = b.bytes;
  await c.ops.uploadTaskAttachments({
    path: { taskId: 1 },
    files: [{ name: 'a.txt', data: new Uint8Array(1) }],
    onProgress: (s, tot) => s + tot,
  });
  await c.ops.getTimesheet({ query: { from: 1, to: 2 } });
  // @ts-expect-error missing path
  await c.ops.getTaskById({});
  // @ts-expect-error wrong path type
  await c.ops.getTaskById({ path: { taskId: 'x' } });
  // @ts-expect-error idempotency only on POST
  await c.ops.updateTask({ path: { taskId: 1 }, body: { taskTitle: 'a' }, idempotencyKey: 'k' });
  // @ts-expect-error body required
  await c.ops.createTask({});
  // @ts-expect-error wrong body
  await c.ops.createTask({ body: { taskTitle: 1 } });
  // @ts-expect-error timesheet needs query
  await c.ops.getTimesheet();
  const r = await c.call('getSpaceById', { path: { spaceId: 3 } });
  const s: number = r.spaceId;
  return [title, n, v, bytes, s];
}

it('derives one typed function per operation (checked by tsc)', () => {
  expect(typeof checks).toBe('function');
});
