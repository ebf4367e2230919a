/**
 * The engine's side of an undo or a redo as the model reads it: ids as the replica names
 * entities now (local → server, and `history_ids` for entities made again), and an entity's
 * state in the replica in the model's terms (field names and canonical values).
 */

import { cfKey, ownersKey, tagsKey } from './canonical';
import type { CaseRun } from './case-run';
import type { Value } from './field-rules';
import type { IdsAnswer } from './protocol';

/** The engine's name for the kind of what a model key names. */
export type EngineKind = 'task' | 'checklist' | 'attachment' | 'timer' | 'space' | 'project';

export const engineKindOf = (run: CaseRun, key: string): EngineKind | null => {
  const e = run.model.entities.get(key);
  if (e) return e.kind;
  if (run.model.timers.has(key)) return 'timer';
  if (run.model.uploads.has(key)) return 'attachment';
  return null;
};

export const idOf = (run: CaseRun, key: string): number | null =>
  run.model.entities.get(key)?.id ??
  run.model.timers.get(key)?.id ??
  run.model.uploads.get(key)?.id ??
  null;

export interface Ids {
  /** The id the replica names the entity by now (as `resolveId` follows it). */
  now(kind: EngineKind, id: number): number;
  /** The id a step's entity was made again under, if it was (a redo, a recreate). */
  movedTo(kind: EngineKind, id: number): number | undefined;
}

export const readIds = async (run: CaseRun): Promise<Ids> => {
  const a: IdsAnswer = await run.child().request({ cmd: 'ids' });
  const mapped = new Map(a.mappings.map((m) => [`${m.kind}:${m.local}`, m.server]));
  const local = new Map(a.mappings.map((m) => [`${m.kind}:${m.server}`, m.local]));
  const moved = new Map(a.moved.map((m) => [`${m.kind}:${m.from}`, m.to]));
  const now = (kind: EngineKind, id: number) => {
    let at = id;
    for (let i = 0; i < 16; i++) {
      const m = moved.get(`${kind}:${at}`) ?? at;
      const next = mapped.get(`${kind}:${m}`) ?? m;
      if (next === at) return at;
      at = next;
    }
    return at;
  };
  // A step names an entity by the id it had then: its local id, or its server id once mapped.
  const movedTo = (kind: EngineKind, id: number) =>
    moved.get(`${kind}:${id}`) ??
    moved.get(`${kind}:${mapped.get(`${kind}:${id}`)}`) ??
    moved.get(`${kind}:${local.get(`${kind}:${id}`)}`);
  return { now, movedTo };
};

const iso = (v: unknown): Value => (typeof v === 'string' ? Date.parse(v) : null);

/**
 * An entity's fields in the replica, in the model's terms, by any id it had (local or the
 * server's); null when the replica lacks it. A push may map a local id between two requests:
 * the id is looked up afresh until it holds still.
 */
export const replicaFields = async (
  run: CaseRun,
  kind: EngineKind,
  id: number,
): Promise<Record<string, Value> | null> => {
  let s: Record<string, unknown> | null = null;
  let asked: number | null = null;
  for (let i = 0; i < 3; i++) {
    const now = (await readIds(run)).now(kind, id);
    if (now === asked) break;
    asked = now;
    s = await run.child().request({ cmd: 'state', kind, id: now });
    if (s !== null) break;
  }
  if (s === null) return null;
  const str = (v: unknown): Value => (typeof v === 'string' ? v : null);
  const num = (v: unknown): Value => (typeof v === 'number' ? v : null);
  switch (kind) {
    case 'task': {
      const values = (s.customFieldValues ?? []) as { taskCustomFieldId: number; value: unknown }[];
      return {
        title: str(s.taskTitle),
        description: str(s.description) ?? '',
        status: str(s.status),
        priority: str(s.priority),
        completion: num(s.completion),
        startDate: iso(s.startDate),
        dueDate: iso(s.dueDate),
        owners: ownersKey((s.owners ?? []) as number[]),
        tags: tagsKey((s.tags ?? []) as string[]),
        ...Object.fromEntries(
          values.map((v) => [cfKey(v.taskCustomFieldId), JSON.stringify(v.value)]),
        ),
      };
    }
    case 'checklist':
      return { name: str(s.name), completed: s.completed === true, assignee: num(s.assigneeId) };
    case 'attachment':
      // The model names files with their extension; the state, as a rename sends it, without.
      return { name: `${String(s.fileName)}.txt` };
    case 'timer':
      return {
        notes: str(s.notes),
        billing: str(s.billingStatus),
        startTime: num(s.startTime),
        durationSeconds: num(s.durationSeconds),
      };
    case 'space':
      return { name: str(s.spaceName), description: str(s.description) ?? '' };
    case 'project':
      return {
        name: str(s.projectName),
        description: str(s.description) ?? '',
        completion: num(s.completion),
        dueDate: iso(s.dueDate),
      };
  }
};
