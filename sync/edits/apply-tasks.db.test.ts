import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT, DEADLINE, NOW, STAGE } from '../db/queries/read.fixture';
import { listTasks, readTask } from '../db/queries/tasks-read';
import { readChecklist, taskDetail } from '../db/queries/views';
import { EditError } from './state';
import { dumpReplica, type EditFixture, editFixture } from './test-support';

let f: EditFixture;
beforeEach(() => {
  f = editFixture();
});
afterEach(() => f.close());

const page = { page: 0, size: 50, sort: [] };

describe('applyEdit: tasks', () => {
  it('creates a personal task under a local id, visible in the lists at once', () => {
    const r = f.edit({ kind: 'task.create', fields: { taskTitle: '  Buy bread ', owners: [1] } });
    expect(r.id).toBeLessThan(0);
    expect(r.entityKind).toBe('task');
    const task = readTask(f.db, r.id, NOW);
    expect(task).toMatchObject({ taskTitle: 'Buy bread', status: 'To Do', priority: 'None' });
    expect(task?.owners?.map((o) => o.userId)).toEqual([1]);
    const mine = listTasks(f.db, { kind: 'personal', userId: 1 }, page, NOW);
    expect(mine.content.map((t) => t.taskId)).toContain(r.id);
    const [row] = f.rows();
    expect(row).toMatchObject({
      mutationId: r.mutationId,
      kind: 'task.create',
      operationId: 'createTask',
      entity: `task:${r.id}`,
      body: { taskTitle: 'Buy bread', owners: [1] },
    });
  });

  it('a personal task the user creates shows in their list even without owners', () => {
    const r = f.edit({ kind: 'task.create', fields: { taskTitle: 'Mine' } });
    const mine = listTasks(f.db, { kind: 'personal', userId: 1 }, page, NOW);
    expect(mine.content.map((t) => t.taskId)).toContain(r.id);
  });

  it('creates a project task in its project, and subtasks where their parent lives', () => {
    const t = f.edit({ kind: 'task.create', projectId: 101, fields: { taskTitle: 'Launch copy' } });
    expect(f.rows()[0]).toMatchObject({
      operationId: 'createProjectTask',
      path: { spaceId: 10, projectId: 101 },
    });
    const sub = f.edit({ kind: 'task.create', parentTaskId: 1, fields: { taskTitle: 'Step' } });
    expect(f.rows()[1]).toMatchObject({
      operationId: 'createProjectSubtask',
      path: { spaceId: 10, projectId: 100, taskId: 1 },
    });
    const personalSub = f.edit({
      kind: 'task.create',
      parentTaskId: 9,
      fields: { taskTitle: 'Oat' },
    });
    expect(f.rows()[2]).toMatchObject({
      operationId: 'createPersonalSubtask',
      path: { parentTaskId: 9 },
    });
    // A subtask of a task created offline references its local id (the queue holds it back).
    const subOfNew = f.edit({
      kind: 'task.create',
      parentTaskId: t.id,
      fields: { taskTitle: 'x' },
    });
    expect(f.rows()[3]).toMatchObject({
      operationId: 'createProjectSubtask',
      path: { spaceId: 10, projectId: 101, taskId: t.id },
      dependsOn: expect.arrayContaining([`task:${t.id}`]),
    });
    expect(taskDetail(f.db, 1, NOW)?.subtasks.map((s) => s.taskId)).toContain(sub.id);
    expect(readTask(f.db, 1, NOW)?.subtaskCount).toBe(3);
    expect(readTask(f.db, 9, NOW)?.subtaskCount).toBe(2);
    expect(readTask(f.db, personalSub.id, NOW)).toMatchObject({ parentTaskId: 9, projectId: null });
    expect(readTask(f.db, subOfNew.id, NOW)).toMatchObject({ parentTaskId: t.id, projectId: 101 });
    expect(
      listTasks(f.db, { kind: 'project', projectId: 101 }, page, NOW).content.map((x) => x.taskId),
    ).toContain(t.id);
  });

  it('a custom field is edited per field: the others keep their values', () => {
    const values = (id: number) =>
      Object.fromEntries(
        (readTask(f.db, id, NOW)?.customFields ?? []).map((c) => [
          c.taskCustomFieldId,
          c.fieldValue?.[0]?.value ?? null,
        ]),
      );
    const before = values(2);
    f.edit({
      kind: 'task.update',
      taskId: 2,
      patch: { customFieldValues: [{ taskCustomFieldId: STAGE, value: 'Ship' }] },
    });
    expect(values(2)).toEqual({ ...before, [STAGE]: 'Ship' });
    expect(
      (f.rows()[0]?.body as { customFieldValues?: unknown } | undefined)?.customFieldValues,
    ).toEqual([
      { taskCustomFieldId: CLIENT, value: 'acme corp' },
      { taskCustomFieldId: DEADLINE, value: before[DEADLINE] },
      { taskCustomFieldId: STAGE, value: 'Ship' },
    ]);
    // null clears that one field only.
    f.edit({
      kind: 'task.update',
      taskId: 2,
      patch: { customFieldValues: [{ taskCustomFieldId: CLIENT, value: null }] },
    });
    expect(values(2)).toEqual({ ...before, [CLIENT]: null, [STAGE]: 'Ship' });
    expect(
      (f.rows()[0]?.body as { customFieldValues?: unknown } | undefined)?.customFieldValues,
    ).toEqual([
      { taskCustomFieldId: DEADLINE, value: before[DEADLINE] },
      { taskCustomFieldId: STAGE, value: 'Ship' },
    ]);
  });

  it('Reopen puts back the status and completion from before Complete', () => {
    const reopen = { status: 'To Do', completion: 0 };
    f.edit({ kind: 'task.update', taskId: 2, patch: { status: 'Done', completion: 100 } });
    expect(readTask(f.db, 2, NOW)).toMatchObject({ status: 'Done', completion: 100 });
    f.edit({ kind: 'task.update', taskId: 2, patch: reopen, reopen: true });
    expect(readTask(f.db, 2, NOW)).toMatchObject({ status: 'In Progress', completion: 40 });
    expect(f.rows()[0]?.body).toMatchObject({ status: 'In Progress', completion: 40 });
    // Reopened once, the memory is spent: completed elsewhere, it takes the command's values.
    f.edit({ kind: 'task.update', taskId: 2, patch: { status: 'Done', completion: 100 } });
    f.edit({ kind: 'task.update', taskId: 2, patch: { priority: 'High' } });
    f.edit({ kind: 'task.update', taskId: 2, patch: reopen, reopen: true });
    expect(readTask(f.db, 2, NOW)).toMatchObject({ status: 'In Progress', completion: 40 });
    const done = f.edit({ kind: 'task.update', taskId: 3, patch: { status: 'Done' } });
    f.edit({ kind: 'task.update', taskId: done.id, patch: reopen, reopen: true });
    expect(readTask(f.db, 3, NOW)).toMatchObject(reopen);
  });

  it('Reopen of a task completed elsewhere takes the first open status', () => {
    f.db.prepare("UPDATE tasks SET status = 'Done', completion = 100 WHERE task_id = 4").run();
    f.edit({
      kind: 'task.update',
      taskId: 4,
      patch: { status: 'To Do', completion: 0 },
      reopen: true,
    });
    expect(readTask(f.db, 4, NOW)).toMatchObject({ status: 'To Do', completion: 0 });
  });

  it('an update sends the full state: the patch over the current row', () => {
    const before = readTask(f.db, 2, NOW);
    const r = f.edit({ kind: 'task.update', taskId: 2, patch: { status: 'Done' } });
    const [row] = f.rows();
    expect(row?.operationId).toBe('updateProjectTask');
    expect(row?.path).toEqual({ spaceId: 10, projectId: 100, taskId: 2 });
    expect(row?.body).toMatchObject({
      taskTitle: 'Review the SPEC',
      status: 'Done',
      priority: 'Medium',
      owners: [2],
      tags: ['Backend'],
      completion: 40,
      dueDate: before?.dueDate,
    });
    const body = row?.body as { customFieldValues: { taskCustomFieldId: number }[] };
    expect(body.customFieldValues.map((v) => v.taskCustomFieldId).sort()).toEqual([501, 502, 503]);
    const after = readTask(f.db, r.id, NOW);
    expect(after?.status).toBe('Done');
    expect(after?.completedTime).not.toBeNull();
    expect(after?.customFields).toEqual(before?.customFields);
    expect(after?.modifiedTime).toBe(before?.modifiedTime);
    // The base is the server's state before the edit.
    expect((row?.base as { state: { status: string } } | undefined)?.state.status).toBe(
      'In Progress',
    );
  });

  it('two updates coalesce into one row with the final state; the first base is kept', () => {
    f.edit({ kind: 'task.update', taskId: 10, patch: { taskTitle: 'Call the plumber' } });
    f.edit({ kind: 'task.update', taskId: 10, patch: { priority: 'High' } });
    const rows = f.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.body).toMatchObject({ taskTitle: 'Call the plumber', priority: 'High' });
    expect((rows[0]?.base as { state: { taskTitle: string } } | undefined)?.state.taskTitle).toBe(
      'Call plumber',
    );
  });

  it('create + update is one create carrying the final state', () => {
    const r = f.edit({ kind: 'task.create', fields: { taskTitle: 'Draft' } });
    f.edit({ kind: 'task.update', taskId: r.id, patch: { taskTitle: 'Final', tags: ['a'] } });
    const rows = f.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'task.create',
      body: { taskTitle: 'Final', tags: ['a'] },
    });
    expect(readTask(f.db, r.id, NOW)?.tags).toEqual(['a']);
  });

  it('a subtask update and delete use the subtask operations', () => {
    f.edit({ kind: 'task.update', taskId: 13, patch: { taskTitle: 'Skim milk' } });
    expect(f.rows()[0]).toMatchObject({
      operationId: 'updatePersonalSubtask',
      path: { parentTaskId: 9, subtaskId: 13 },
    });
    f.edit({ kind: 'task.delete', taskId: 5 });
    expect(f.rows()[1]).toMatchObject({
      operationId: 'deleteSubtask',
      path: { spaceId: 10, projectId: 100, taskId: 1, subtaskId: 5 },
    });
    expect(readTask(f.db, 5, NOW)).toBeNull();
    expect(readChecklist(f.db, 5)).toEqual([]);
    expect(readTask(f.db, 1, NOW)?.subtaskCount).toBe(1);
  });

  it('a delete removes the task with its subtasks and everything on them', () => {
    f.edit({ kind: 'task.delete', taskId: 1 });
    expect(f.rows()[0]).toMatchObject({
      kind: 'task.delete',
      operationId: 'deleteProjectTask',
      path: { spaceId: 10, projectId: 100, taskId: 1 },
    });
    for (const id of [1, 5, 6]) expect(readTask(f.db, id, NOW)).toBeNull();
    expect(readChecklist(f.db, 1)).toEqual([]);
    const base = f.rows()[0]?.base as { rows: Record<string, unknown[]> } | undefined;
    expect(base?.rows.tasks).toHaveLength(3);
    expect(base?.rows.checklist_items).toHaveLength(5);
    expect(base?.rows.attachments).toHaveLength(2);
  });

  it('create then delete sends nothing and leaves nothing', () => {
    const r = f.edit({ kind: 'task.create', fields: { taskTitle: 'Oops' } });
    f.edit({ kind: 'checklist.create', taskId: r.id, name: 'on it' });
    const d = f.edit({ kind: 'task.delete', taskId: r.id });
    expect(d.mutationId).toBeNull();
    expect(f.rows()).toEqual([]);
    expect(readTask(f.db, r.id, NOW)).toBeNull();
  });

  it("is visible to reads inside the caller's transaction, and goes with it", () => {
    const before = dumpReplica(f.db);
    expect(() =>
      f.db.transaction(() => {
        const r = f.edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'inside' } });
        expect(readTask(f.db, r.id, NOW)?.taskTitle).toBe('inside');
        expect(f.rows()).toHaveLength(1);
        throw new Error('the caller gives up');
      })(),
    ).toThrow('the caller gives up');
    expect(dumpReplica(f.db)).toBe(before);
  });

  it('a bad command throws a clear error and changes nothing', () => {
    const before = dumpReplica(f.db);
    const bad: unknown[] = [
      { kind: 'task.create', fields: { taskTitle: '   ' } },
      { kind: 'task.create', fields: {} },
      { kind: 'task.explode', taskId: 1 },
      { kind: 'task.update', taskId: 0, patch: {} },
      { kind: 'task.update', taskId: 4242, patch: { taskTitle: 'x' } },
      { kind: 'task.update', taskId: 2, patch: { completion: 101 } },
      {
        kind: 'task.update',
        taskId: 2,
        patch: { customFieldValues: [{ taskCustomFieldId: 999, value: 1 }] },
      },
      { kind: 'task.create', parentTaskId: 5, fields: { taskTitle: 'grandchild' } },
      { kind: 'task.delete', taskId: -77 },
      { kind: 'checklist.update', checklistId: 4242, patch: { completed: true } },
      { kind: 'checklist.create', taskId: 1, name: '' },
    ];
    for (const c of bad) expect(() => f.edit(c), JSON.stringify(c)).toThrow(EditError);
    expect(() => f.edit({ kind: 'task.update', taskId: 4242, patch: {} })).toThrow(
      /task 4242 is not in the replica/,
    );
    expect(dumpReplica(f.db)).toBe(before);
  });
});

describe('applyEdit: checklist items', () => {
  it('toggling an assigned item keeps its assignee in the queued body', () => {
    f.edit({ kind: 'checklist.update', checklistId: 71, patch: { completed: false } });
    const [row] = f.rows();
    expect(row).toMatchObject({
      operationId: 'updateCheckListForTask',
      path: { taskId: 1, checklistId: 71 },
      body: { name: 'Collect notes', completed: false, assigneeId: 2 },
    });
    expect(readChecklist(f.db, 1).find((c) => c.checklistId === 71)).toMatchObject({
      completed: false,
      assigneeId: 2,
    });
    expect(readTask(f.db, 1, NOW)?.checklistCompletedCount).toBe(0);
  });

  it('five toggles queue at most one request', () => {
    for (let i = 0; i < 5; i++)
      f.edit({ kind: 'checklist.update', checklistId: 72, patch: { completed: i % 2 === 0 } });
    const rows = f.rows();
    expect(rows.length).toBeLessThanOrEqual(1);
    expect(rows[0]?.body).toEqual({ name: 'Ask for review', completed: true, assigneeId: 1 });
    expect(readChecklist(f.db, 1).find((c) => c.checklistId === 72)?.completed).toBe(true);
  });

  it('items on a subtask use the subtask operations and append at the end', () => {
    const r = f.edit({ kind: 'checklist.create', taskId: 5, name: 'Index', assigneeId: 3 });
    expect(f.rows()[0]).toMatchObject({
      operationId: 'createCheckListForSubtask',
      path: { taskId: 1, subtaskId: 5 },
      body: { name: 'Index', assigneeId: 3 },
    });
    expect(readChecklist(f.db, 5).map((c) => [c.checklistId, c.position])).toEqual([
      [81, 0],
      [82, 1],
      [r.id, 2],
    ]);
    expect(readTask(f.db, 5, NOW)?.checklistCount).toBe(3);
    f.edit({ kind: 'checklist.update', checklistId: 81, patch: { name: 'Heads' } });
    expect(f.rows()[1]).toMatchObject({
      operationId: 'updateCheckListForSubtask',
      path: { taskId: 1, subtaskId: 5, checklistId: 81 },
    });
  });

  it('a delete closes the gap in positions', () => {
    f.edit({ kind: 'checklist.delete', checklistId: 71 });
    expect(f.rows()[0]).toMatchObject({ operationId: 'deleteCheckListForTask' });
    expect(readChecklist(f.db, 1).map((c) => [c.checklistId, c.position])).toEqual([
      [73, 0],
      [72, 1],
    ]);
    expect(readTask(f.db, 1, NOW)).toMatchObject({ checklistCount: 2, checklistCompletedCount: 0 });
  });

  it('an item created offline and renamed is one create; ticked, it stays two', () => {
    const r = f.edit({ kind: 'checklist.create', taskId: 2, name: 'a' });
    f.edit({ kind: 'checklist.update', checklistId: r.id, patch: { name: 'b' } });
    expect(f.rows()).toHaveLength(1);
    expect(f.rows()[0]?.body).toEqual({ name: 'b', assigneeId: null });
    f.edit({ kind: 'checklist.update', checklistId: r.id, patch: { completed: true } });
    expect(f.rows().map((m) => m.kind)).toEqual(['checklist.create', 'checklist.update']);
    expect(readChecklist(f.db, 2)).toMatchObject([
      { checklistId: r.id, name: 'b', completed: true },
    ]);
  });
});
