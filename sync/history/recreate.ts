/**
 * Making a deleted entity again, once its delete may have reached the server: from the copy
 * taken just before the delete (a task with its checklist, ticks, subtasks and files whose
 * content is cached here). The step's old ids lead to the new entities (`history_ids`).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EditCommand, UploadFile } from '../../shared/edits/commands';
import { fieldIdsAt } from '../db/queries/custom-fields';
import { entityHeld } from '../edits/entities';
import type { JsonObject } from '../outbox';
import { nounOf } from './label';
import { resolveId } from './remap';
import { noteMoved } from './store';
import type { DeletedCopy, DeleteEntry, FileCopy, TaskCopy } from './types';
import { run, type UndoIo } from './undo-io';

/** A task's time entries and its subtasks', as its copy counted them. */
const timersIn = (t: TaskCopy): number =>
  (t.timers ?? 0) + t.subtasks.reduce((n, sub) => n + timersIn(sub), 0);

/** What a recreate cannot make again, said in the step's notes. */
const lostNote = (io: UndoIo, n: number, kind: 'timer' | 'project' | 'task') => {
  if (n > 0) io.notes.push(`its ${n} ${nounOf(kind, n)} could not be brought back`);
};

/**
 * A task's fields without the values of custom fields that do not apply where it is made
 * again: its project deleted since is made again as a new project, without the old one's
 * fields (the app cannot make a field). The notes say how many values stay behind.
 */
const withFieldsAt = (
  io: UndoIo,
  fields: JsonObject,
  place: { projectId?: number; parentTaskId?: number },
): JsonObject => {
  const values = fields.customFieldValues;
  if (!Array.isArray(values) || values.length === 0) return fields;
  const applies = fieldIdsAt(io.db, place);
  const kept = values.filter((v) =>
    applies.has((v as { taskCustomFieldId?: unknown }).taskCustomFieldId as number),
  );
  const lost = values.length - kept.length;
  if (lost === 0) return fields;
  io.notes.push(
    `its ${lost} custom field ${lost === 1 ? 'value' : 'values'} could not be brought back: the ${lost === 1 ? 'field is' : 'fields are'} gone`,
  );
  return { ...fields, customFieldValues: kept };
};

const makeTask = (
  io: UndoIo,
  t: TaskCopy,
  place: { projectId?: number; parentTaskId?: number },
): number => {
  const r = run(io, {
    kind: 'task.create',
    ...place,
    fields: withFieldsAt(io, t.fields, place) as never,
  } as EditCommand);
  noteMoved(io.db, 'task', t.id, r.id);
  for (const item of t.checklist) {
    const made = run(io, {
      kind: 'checklist.create',
      taskId: r.id,
      name: item.name,
      assigneeId: item.assigneeId,
    });
    noteMoved(io.db, 'checklist', item.id, made.id);
    if (item.completed)
      run(io, { kind: 'checklist.update', checklistId: made.id, patch: { completed: true } });
  }
  upload(io, t.files, { taskId: r.id });
  for (const sub of t.subtasks) makeTask(io, sub, { parentTaskId: r.id });
  return r.id;
};

/** A cached copy's bytes, if the copy is still there as it was cached. */
const cachedBytes = (io: UndoIo, f: FileCopy): string | null => {
  if (!f.cached) return null;
  const path = join(io.filesDir, f.cached.path);
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile() || stat.size !== f.cached.size) return null;
  return readFileSync(path).toString('base64');
};

/**
 * Files made again: those whose content is cached here are uploaded again (one upload);
 * the others cannot be, and the notes say how many.
 */
const upload = (io: UndoIo, files: FileCopy[], on: { taskId: number } | { projectId: number }) => {
  const back: UploadFile[] = [];
  let lost = 0;
  for (const f of files) {
    const data = cachedBytes(io, f);
    if (data === null) lost++;
    else
      back.push({
        name: f.name,
        dataBase64: data,
        ...(f.cached?.contentType ? { contentType: f.cached.contentType } : {}),
      });
  }
  if (back.length > 0) {
    const made = run(io, { kind: 'attachment.upload', ...on, files: back });
    const cached = files.filter((f) => f.cached !== null && cachedBytes(io, f) !== null);
    cached.forEach((f, i) => {
      const id = made.ids[i];
      if (id !== undefined) noteMoved(io.db, 'attachment', f.id, id);
    });
  }
  if (lost > 0)
    io.notes.push(
      `${lost} ${nounOf('attachment', lost)} could not be brought back (not downloaded here)`,
    );
};

/** The entity made again from its last state: it was deleted on the server (or may have been). */
export const recreate = (io: UndoIo, e: DeleteEntry, copy: DeletedCopy) => {
  const db = io.db;
  switch (copy.entity) {
    case 'task': {
      const parent = copy.parentTaskId === null ? null : resolveId(db, 'task', copy.parentTaskId);
      if (parent !== null && !entityHeld(db, 'task', parent)) {
        io.notes.push('its parent task is gone: it cannot be brought back');
        return;
      }
      const project = copy.projectId === null ? null : resolveId(db, 'project', copy.projectId);
      if (parent === null && project !== null && !entityHeld(db, 'project', project)) {
        io.notes.push('its project is gone: it cannot be brought back');
        return;
      }
      makeTask(
        io,
        copy.task,
        parent !== null ? { parentTaskId: parent } : project !== null ? { projectId: project } : {},
      );
      lostNote(io, timersIn(copy.task), 'timer');
      return;
    }
    case 'checklist': {
      const taskId = resolveId(db, 'task', copy.taskId);
      if (!entityHeld(db, 'task', taskId)) {
        io.notes.push('its task is gone: it cannot be brought back');
        return;
      }
      const made = run(io, {
        kind: 'checklist.create',
        taskId,
        name: copy.item.name,
        assigneeId: copy.item.assigneeId,
      });
      noteMoved(db, 'checklist', copy.item.id, made.id);
      if (copy.item.completed)
        run(io, { kind: 'checklist.update', checklistId: made.id, patch: { completed: true } });
      return;
    }
    case 'space': {
      const made = run(io, { kind: 'space.create', fields: copy.fields as never });
      noteMoved(db, 'space', e.id, made.id);
      lostNote(io, copy.projects ?? 0, 'project');
      return;
    }
    case 'project': {
      const spaceId = resolveId(db, 'space', copy.spaceId);
      if (!entityHeld(db, 'space', spaceId)) {
        io.notes.push('its space is gone: it cannot be brought back');
        return;
      }
      const made = run(io, { kind: 'project.create', spaceId, fields: copy.fields as never });
      noteMoved(db, 'project', e.id, made.id);
      lostNote(io, copy.tasks, 'task');
      return;
    }
    case 'timer': {
      const taskId = resolveId(db, 'task', copy.taskId);
      if (!entityHeld(db, 'task', taskId)) {
        io.notes.push('its task is gone: it cannot be brought back');
        return;
      }
      // Its duration kept (pauses left out); an entry under a second (0 s) spans 1 ms, as
      // the API takes no empty range.
      const made = run(io, {
        kind: 'timer.range',
        taskId,
        startTime: copy.startTime,
        endTime: copy.startTime + Math.max(1, copy.durationSeconds * 1000),
      });
      noteMoved(db, 'timer', e.id, made.id);
      const patch: JsonObject = {};
      if (copy.notes !== null) patch.notes = copy.notes;
      if (copy.billingStatus !== null) patch.billingStatus = copy.billingStatus;
      if (Object.keys(patch).length > 0)
        run(io, { kind: 'timer.update', trackId: made.id, patch: patch as never });
      return;
    }
    case 'attachment': {
      const on: { taskId: number } | { projectId: number } | null =
        copy.taskId !== null
          ? { taskId: resolveId(db, 'task', copy.taskId) }
          : copy.projectId !== null
            ? { projectId: resolveId(db, 'project', copy.projectId) }
            : null;
      const there =
        on === null
          ? false
          : 'taskId' in on
            ? entityHeld(db, 'task', on.taskId)
            : entityHeld(db, 'project', on.projectId);
      if (on === null || !there) {
        io.notes.push('what it was attached to is gone: it cannot be brought back');
        return;
      }
      upload(io, [copy.file], on);
      return;
    }
    default:
      io.notes.push(
        `the ${nounOf(e.entity)} was already deleted on the server: it cannot be brought back`,
      );
  }
};
