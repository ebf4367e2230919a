import type { EditCommand } from '../../shared/edits/commands';

/**
 * What an edit looks like before the host answers: applied to whatever cached answers hold
 * the entity, so the change paints in the same frame. The host's re-read replaces it moments
 * later with the replica's truth (including the sync mark), so this only has to be right for
 * the fields the edit names.
 */
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Returns a copy of `value` where `fix` changed some objects, or `value` itself if none. */
export function mapObjects(value: unknown, fix: (o: Obj) => Obj | null): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out: unknown[] = [];
    for (const item of value) {
      const next = mapObjects(item, fix);
      if (next !== item) changed = true;
      if (next !== REMOVE) out.push(next);
      else changed = true;
    }
    return changed ? out : value;
  }
  if (!isObj(value)) return value;
  const fixed = fix(value);
  if (fixed === null) return REMOVE;
  let changed = fixed !== value;
  const out: Obj = { ...fixed };
  for (const [k, v] of Object.entries(fixed)) {
    if (typeof v !== 'object' || v === null) continue;
    const next = mapObjects(v, fix);
    if (next !== v) {
      out[k] = next === REMOVE ? null : next;
      changed = true;
    }
  }
  return changed ? out : value;
}

const REMOVE = Symbol('remove');

const pending = { sync: 'pending' };

/** Which cached answers can hold each kind of entity (the rest are not walked). */
const holders: Record<string, readonly string[]> = {
  task: ['tasks.list', 'tasks.detail', 'projects.board'],
  checklist: ['tasks.detail'],
  attachment: ['tasks.detail'],
  notification: ['notifications.list'],
  project: ['spaces.tree', 'spaces.nav', 'projects.get'],
  space: ['spaces.tree', 'spaces.nav'],
};

export interface OptimisticPatch {
  methods: readonly string[];
  apply: (data: unknown) => unknown;
}

/** The optimistic change of one edit, and the cached answers it applies to. */
export function optimisticPatch(cmd: EditCommand): OptimisticPatch | null {
  const apply = patchFor(cmd);
  if (!apply) return null;
  return { methods: holders[cmd.kind.slice(0, cmd.kind.indexOf('.'))] ?? [], apply };
}

function patchFor(cmd: EditCommand): ((data: unknown) => unknown) | null {
  switch (cmd.kind) {
    case 'task.update': {
      const { owners, ...rest } = cmd.patch;
      const fields: Obj = { ...rest, ...pending };
      if (owners) fields.owners = owners.map((userId) => ({ userId }));
      return (data) =>
        mapObjects(data, (o) =>
          o.taskId === cmd.taskId && 'taskTitle' in o ? { ...o, ...fields } : o,
        );
    }
    case 'task.delete':
      return (data) =>
        mapObjects(data, (o) => (o.taskId === cmd.taskId && 'taskTitle' in o ? null : o));
    case 'checklist.update':
      return (data) =>
        mapObjects(data, (o) =>
          o.checklistId === cmd.checklistId && 'name' in o ? { ...o, ...cmd.patch, ...pending } : o,
        );
    case 'checklist.delete':
      return (data) =>
        mapObjects(data, (o) => (o.checklistId === cmd.checklistId && 'name' in o ? null : o));
    case 'attachment.rename':
      return (data) =>
        mapObjects(data, (o) => {
          if (o.attachmentId !== cmd.attachmentId || !('fileName' in o)) return o;
          const ext = typeof o.extension === 'string' && o.extension ? `.${o.extension}` : '';
          return { ...o, fileName: `${cmd.fileName}${ext}`, ...pending };
        });
    case 'attachment.delete':
      return (data) =>
        mapObjects(data, (o) =>
          o.attachmentId === cmd.attachmentId && 'fileName' in o ? null : o,
        );
    case 'notification.read':
      return (data) =>
        mapObjects(data, (o) =>
          o.notificationId === cmd.notificationId && 'read' in o ? { ...o, read: true } : o,
        );
    case 'project.update': {
      const { projectName, description, completion } = cmd.patch;
      const fields: Obj = { ...pending };
      if (projectName !== undefined) fields.projectName = projectName;
      if (description !== undefined) fields.description = description;
      if (completion !== undefined) fields.completion = completion;
      return (data) =>
        mapObjects(data, (o) =>
          o.projectId === cmd.projectId && 'projectName' in o ? { ...o, ...fields } : o,
        );
    }
    case 'space.update':
      return (data) =>
        mapObjects(data, (o) =>
          o.spaceId === cmd.spaceId && 'spaceName' in o ? { ...o, ...cmd.patch, ...pending } : o,
        );
    default:
      // Creates need the host's new id; they paint on the re-read right after.
      return null;
  }
}
