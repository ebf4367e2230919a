/**
 * What of the second client's changes landed in one of its syncs, told to the model: each
 * change judged by the server's state just before and just after the sync (an update whose
 * value is there now and was not before, a create its replica mapped, a delete of what was
 * there), with the moment the sync had ended.
 */

import { cfKey } from './canonical';
import type { CaseRun } from './case-run';
import type { EntityKind, Field, Value } from './model';
import type { IdsAnswer } from './protocol';
import type { ServerState } from './server-side';
import { mark } from './touch';

/** A change the second client made and has not synced yet. */
export type Pending =
  | { t: 'update'; key: string; field: Field; value: Value }
  | { t: 'create'; key: string; kind: EntityKind; local: number; task: string | null }
  | { t: 'delete'; key: string };

/** The server id of a model entity, as the user's replica maps it (seeded and pulled: its own). */
export const serverIdOf = (run: CaseRun, ids: IdsAnswer, key: string): number | undefined => {
  const e = run.model.entities.get(key);
  if (!e) return undefined;
  if (e.id > 0) return e.id;
  return ids.mappings.find((m) => m.kind === e.kind && m.local === e.id)?.server;
};

/** An entity's fields in a server state, or undefined when it is not there (or deleted). */
export const rowOf = (s: ServerState, kind: EntityKind, id: number | undefined) => {
  if (id === undefined) return undefined;
  if (kind === 'task') {
    const t = s.tasks.find((x) => x.id === id && !x.deleted);
    return t ? (t.fields as Partial<Record<Field, Value>>) : undefined;
  }
  const c = s.items.find((x) => x.id === id);
  return c ? { name: c.name, completed: c.completed, assignee: c.assignee } : undefined;
};

export interface Window {
  before: ServerState;
  after: ServerState;
  /** The user's replica's ids as the sync began and after it ended. */
  userIds: IdsAnswer;
  userAfter: IdsAnswer;
  writerIds: IdsAnswer;
  /** When the sync had ended (the parent's clock). */
  at: number;
}

/** What of `pending` landed in the window, told to the model. */
export const learn = (run: CaseRun, org: number, pending: Pending[], win: Window) => {
  const { model } = run;
  const queued = new Set(win.userIds.queued);
  const unsentAt = (key: string, sid: number | undefined) => {
    const e = model.entities.get(key);
    return e !== undefined && (queued.has(`${e.kind}:${e.id}`) || queued.has(`${e.kind}:${sid}`));
  };
  // The last change of each field counts (the engine coalesces the rest away).
  const updates = new Map<string, Extract<Pending, { t: 'update' }>>();
  for (const p of pending) if (p.t === 'update') updates.set(`${p.key} ${p.field}`, p);
  for (const p of updates.values()) {
    const e = model.entities.get(p.key);
    if (!e) continue;
    const sid = serverIdOf(run, win.userIds, p.key);
    const was = rowOf(win.before, e.kind, sid);
    const now = rowOf(win.after, e.kind, sid);
    const before = was?.[p.field] ?? null;
    const value = now?.[p.field];
    if (!was || value !== p.value || before === p.value) {
      run.log.push(
        `  second client's ${p.key}.${p.field} = ${JSON.stringify(p.value)}: not landed`,
      );
      continue;
    }
    const unsent = unsentAt(p.key, sid);
    mark(run, p.key, 'writer', win.at);
    model.apply({
      type: 'write',
      key: p.key,
      field: p.field,
      value: p.value,
      before,
      at: win.at,
      unsent,
      ...(unsent ? { carry: was } : {}),
    });
    run.log.push(
      `  second client wrote ${p.key}.${p.field} ${JSON.stringify(before)} -> ${JSON.stringify(p.value)} by ${win.at}${unsent ? ' (user edit unsent)' : ''}`,
    );
  }
  for (const p of pending) {
    if (p.t === 'create') {
      const sid = win.writerIds.mappings.find(
        (m) => m.kind === p.kind && m.local === p.local,
      )?.server;
      const row = rowOf(win.after, p.kind, sid);
      if (sid === undefined || !row) {
        run.log.push(`  second client's create ${p.key}: not landed`);
        continue;
      }
      const fields =
        p.kind === 'task'
          ? {
              ...Object.fromEntries(
                (run.orgs[org]?.fields ?? []).map((f) => [cfKey(f.fieldId), null]),
              ),
              ...row,
            }
          : row;
      // A task of the org's project: it hangs on the project as the seeded one does.
      const projectId = run.orgs[org]?.projectId;
      const within =
        p.kind === 'task' && projectId !== undefined
          ? (model.byId('project', projectId) ?? null)
          : null;
      model.apply({
        type: 'writer-create',
        key: p.key,
        kind: p.kind,
        org,
        id: sid,
        task: p.task,
        within,
        at: win.at,
        fields,
      });
      mark(run, p.key, 'writer', win.at);
      run.log.push(`  second client made ${p.key} (server ${sid}) by ${win.at}`);
    } else if (p.t === 'delete') {
      const e = model.entities.get(p.key);
      if (!e || !model.userSees(p.key)) continue;
      const sid = serverIdOf(run, win.userIds, p.key);
      if (!rowOf(win.before, e.kind, sid) || rowOf(win.after, e.kind, sid)) {
        run.log.push(`  second client's delete of ${p.key}: not landed`);
        continue;
      }
      const children = e.kind === 'task' ? landedChildren(run, p.key, sid, win) : [];
      model.apply({ type: 'writer-delete', key: p.key, at: win.at, children });
      mark(run, p.key, 'writer', win.at);
      run.log.push(
        `  second client deleted ${p.key} (server ${sid}) by ${win.at}, with ${children.join(' ') || 'nothing else'}`,
      );
    }
  }
};

/**
 * The items, timers and files of a task the server held when the second client deleted it
 * (they went with it): those the server had as the sync began, or whose create the user's
 * replica saw answered by its end (a create can land only before the delete).
 */
const landedChildren = (run: CaseRun, task: string, sid: number | undefined, win: Window) => {
  const { model } = run;
  const landed = (kind: string, id: number, onServer: (s: number) => boolean) => {
    const s =
      id > 0
        ? id
        : (win.userAfter.mappings.find((m) => m.kind === kind && m.local === id)?.server ??
          win.userIds.mappings.find((m) => m.kind === kind && m.local === id)?.server);
    if (s === undefined) return false;
    return id < 0 || onServer(s);
  };
  const items = [...model.entities.values()].filter(
    (c) =>
      c.task === task &&
      landed('checklist', c.id, (s) =>
        win.before.items.some((x) => x.id === s && x.taskId === sid),
      ),
  );
  const timers = [...model.timers.values()].filter(
    (t) =>
      t.task === task &&
      landed('timer', t.id, (s) => win.before.timers.some((x) => x.id === s && x.taskId === sid)),
  );
  const files = [...model.uploads.values()].filter(
    (u) =>
      u.task === task &&
      landed('attachment', u.id, (s) =>
        win.before.attachments.some((x) => x.id === s && x.taskId === sid),
      ),
  );
  // Its subtasks the server had go with it, and what they hold (seed 912250766: a subtask the
  // user made before another's delete of its parent was expected on the server after).
  const subtasks = [...model.entities.values()].filter(
    (c) =>
      c.kind === 'task' &&
      c.within === task &&
      landed('task', c.id, (s) =>
        win.before.tasks.some((x) => x.id === s && x.parentTaskId === sid && !x.deleted),
      ),
  );
  const held: string[] = subtasks.flatMap((t) => {
    const tsid = serverIdOf(run, win.userAfter, t.key) ?? serverIdOf(run, win.userIds, t.key);
    return [t.key, ...landedChildren(run, t.key, tsid, win)];
  });
  return [...[...items, ...timers, ...files].map((x) => x.key), ...held];
};
