/**
 * The merge of a queued update with the server's new copy of its entity, field by field: the
 * rule behind "a pull never hides a local edit, and an offline edit does not overwrite what
 * someone else changed meanwhile".
 *
 * - A field the user changed (the row's `edited`, or an earlier queued row's) keeps the user's
 *   value, unless another writer changed it on the server after the user's edit.
 * - Every other field takes the server's value.
 *
 * "Another writer" and "after" are decided without trusting two machines' raw clocks:
 * - the server's value is this engine's own if it equals the entity's base (the server's copy
 *   the row was last merged against) or a value an earlier row of the entity sent, answered or
 *   not (a write whose answer was lost is still ours);
 * - a foreign value wins only when the server's modification time, in its own clock, is later
 *   than the user's edit converted to that clock (this machine's offset estimated from the
 *   answers, sync/api/server-clock.ts), beyond the estimate's error. Within the error the
 *   user's value stays.
 */
import { gatherItems, spreadItems, spreadMarks } from '../../shared/edits/keyed-lists';
import type { Json, JsonObject } from '../outbox';

export { mergeEdited } from '../outbox/coalesce';

/** Fields the user set, each with when (this machine's clock). */
export type Edited = Record<string, number>;

/** The offset of the server's clock from this machine's, as estimated, or null if unknown. */
export interface MergeClock {
  offsetMs: number;
  errorMs: number;
}

export const same = (a: Json | undefined, b: Json | undefined): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/** Whether a server time is later than a time of this machine, in one clock. */
export const serverLater = (
  serverTime: number | null,
  localTime: number,
  clock: MergeClock | null,
): boolean => {
  if (serverTime === null) return false;
  if (!clock) return serverTime > localTime;
  return serverTime - (localTime + clock.offsetMs) > clock.errorMs;
};

/**
 * The fields an update changes against the state it was made from (the replica's, with the
 * queued edits on it), each stamped `at`; a keyed list's items each count as a field
 * (`customFieldValues[7]`, shared/edits/keyed-lists.ts).
 */
export const changedFields = (body: Json, before: JsonObject | null, at: number): Edited => {
  const out: Edited = {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return out;
  const [mine, was] = spreadItems([body, before]);
  for (const [k, v] of Object.entries(mine ?? {})) if (!was || !same(v, was[k])) out[k] = at;
  return out;
};

export interface MergeInput {
  /** The row's body: the user's state of the entity. */
  body: JsonObject;
  /** The server's copy the row was last merged against (null: none known). */
  base: JsonObject | null;
  /** The server's new copy. */
  server: JsonObject;
  /** Its modification time, in the server's clock. */
  serverModified: number | null;
  /** The fields the user changed, with this row or an earlier queued one, and when. */
  edited: Edited;
  /** Bodies of earlier rows of the entity that may be on the server (their values are ours). */
  sent: readonly JsonObject[];
  clock: MergeClock | null;
}

/** A field the user changed that another writer changed later: theirs was kept. */
export interface Overruled {
  field: string;
  mine: Json;
  theirs: Json;
}

export interface MergeResult {
  body: JsonObject;
  /** The user's fields that still hold the user's value (a foreign later change took the rest). */
  edited: Edited;
  overruled: Overruled[];
}

/** Field by field, a keyed list's items each as a field (see `changedFields`). */
export const mergeFields = (m: MergeInput): MergeResult => {
  const [body = {}, server = {}, base = null, ...sent] = spreadItems([
    m.body,
    m.server,
    m.base,
    ...m.sent,
  ]);
  const marks = spreadMarks(m.edited, body ?? {});
  const out: JsonObject = { ...server };
  const edited: Edited = {};
  const overruled: Overruled[] = [];
  for (const [k, mine] of Object.entries(body ?? {})) {
    const at = marks[k];
    if (at === undefined) {
      out[k] = server && Object.hasOwn(server, k) ? (server[k] as Json) : mine;
      continue;
    }
    const theirs = server?.[k];
    const ours =
      !server ||
      !Object.hasOwn(server, k) ||
      same(theirs, mine) ||
      (base !== null && same(theirs, base[k])) ||
      sent.some((s) => s !== null && Object.hasOwn(s, k) && same(theirs, s[k]));
    if (!ours && serverLater(m.serverModified, at, m.clock)) {
      out[k] = theirs as Json;
      overruled.push({ field: k, mine, theirs: theirs as Json });
    } else {
      out[k] = mine;
      edited[k] = at;
    }
  }
  return { body: gatherItems(out), edited, overruled };
};
