import { z } from 'zod';
import { entityId } from '../edits/commands';
import { method, noInput } from './define';

/**
 * "Changes from sync": what a pull or a push changed of the user's own work, each with what the
 * user had, what the server has, who and when, and one action. Kept 30 days in the replica.
 *
 * - overwritten: a field the user edited that the server kept at another writer's later value;
 * - failed: an edit the server refused (the replica went back to the server's copy);
 * - conflict: an edit of something deleted on the server;
 * - deleted: the user's own task (theirs or made by them) deleted elsewhere;
 * - adopted: a create whose answer was lost, found on the server and taken as the user's.
 */
export const syncChangeKind = z.enum(['overwritten', 'failed', 'conflict', 'deleted', 'adopted']);
export type SyncChangeKind = z.infer<typeof syncChangeKind>;

export const syncChange = z.object({
  changeId: z.number().int().min(1),
  kind: syncChangeKind,
  /** `task:12`: the entity as the replica names it now. */
  entity: z.string(),
  entityKind: z.string(),
  entityId,
  /** The task it belongs to (itself, or an item's or a file's task), to open; null if none. */
  taskId: entityId.nullable(),
  /** What the entity is called (a task's title, an item's name), when known. */
  name: z.string().nullable(),
  /** The field in the request's words (`taskTitle`, `customFieldValues[7]`), or null (whole). */
  field: z.string().nullable(),
  /** The field in the user's words: "Title", "Story Points". */
  fieldLabel: z.string().nullable(),
  /** The user's value and the server's, as JSON (null: none, or not a single field). */
  mine: z.json(),
  theirs: z.json(),
  /** Who made the server's value, and when (server time, ms), when known. */
  by: z.object({ userId: z.number().int(), name: z.string().nullable() }).nullable(),
  at: z.number().int().nullable(),
  /** What happened, in words. */
  message: z.string(),
  createdAt: z.number().int(),
  /** Kept or restored already: the list shows it as settled. */
  settled: z.boolean(),
  /** "Restore mine" can be done (a field, a refused or conflicting edit, a deleted task). */
  canRestore: z.boolean(),
});
export type SyncChange = z.infer<typeof syncChange>;

export const syncChanges = z.object({
  /** Newest first. */
  changes: z.array(syncChange),
  /** Changes the user has not seen yet (the Sync entry's badge). */
  unseen: z.number().int().min(0),
});
export type SyncChanges = z.infer<typeof syncChanges>;

export const changeMethods = {
  'sync.changes': method(noInput, syncChanges),
  /** The user has looked at the list: the badge goes. */
  'sync.changesSeen': method(noInput, syncChanges),
  /**
   * One change's action: keep theirs (settles it), or restore mine (a new edit with the
   * user's value; a refused edit sent again; a deleted task made again).
   */
  'sync.resolveChange': method(
    z.strictObject({
      changeId: z.number().int().min(1),
      choice: z.enum(['keepTheirs', 'restoreMine']),
    }),
    syncChanges,
  ),
};
