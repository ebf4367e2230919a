/**
 * Something made on a project's task, then the project deleted: the delete takes the task
 * with it, and the create may reach the server after it (a project's delete does not wait for
 * edits of its tasks' children). Found by the model test (MODEL_SEED=522158053, an upload to
 * the seeded project task, then the project deleted): the upload met a 404 and stayed a failed
 * edit, though the user had deleted what it was made in.
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, faults, settle } from './engine-setup';

const setUp = engineSetup();

describe('a create on a task of a project the user then deletes', () => {
  it.each([
    ['a file', 'attachment.upload'],
    ['a checklist item', 'checklist.create'],
    ['a subtask', 'task.create'],
  ] as const)('%s: nothing is left failed, nothing is made', async (_what, kind) => {
    const { server, engine } = await setUp();
    const t = engine.replica.db
      .prepare(
        `SELECT task_id AS id, project_id AS projectId FROM tasks
         WHERE project_id IS NOT NULL AND parent_task_id IS NULL AND task_id > 0 LIMIT 1`,
      )
      .get() as { id: number; projectId: number };
    const count = (sql: string) => server.deps.db.prepare(sql).pluck().get(t.id) as number;
    // The create's first attempt fails before the server does anything: the project's delete,
    // which does not wait for it, gets there first.
    await faults(server, { rules: [{ kind: '5xx', method: 'POST', count: 1 }] });
    engine.edit(
      kind === 'attachment.upload'
        ? {
            kind,
            taskId: t.id,
            files: [{ name: 'a.txt', dataBase64: Buffer.from('abc').toString('base64') }],
          }
        : kind === 'checklist.create'
          ? { kind, taskId: t.id, name: 'on a task about to go' }
          : { kind, parentTaskId: t.id, fields: { taskTitle: 'under a task about to go' } },
    );
    engine.edit({ kind: 'project.delete', projectId: t.projectId });
    await settle(engine);
    await faults(server, { clear: true });
    const project = server.deps.db
      .prepare('SELECT deleted FROM projects WHERE project_id = ?')
      .pluck()
      .get(t.projectId);
    expect(project).toBe(1);
    // Made after the delete, it would hang on a deleted task: nothing was made.
    expect({
      files: count('SELECT COUNT(*) FROM attachments WHERE task_id = ?'),
      items: count('SELECT COUNT(*) FROM checklist_items WHERE task_id = ?'),
      subtasks: count('SELECT COUNT(*) FROM tasks WHERE parent_task_id = ? AND deleted = 0'),
    }).toEqual({ files: 0, items: 0, subtasks: 0 });
  });
});
