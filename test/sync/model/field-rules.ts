/**
 * The rules that say which values of a field the server may hold at the end of a case, from
 * the field's history: its initial value, the user's sets and the second writer's changes (the
 * second client's, second-client.ts, each as it landed on the server).
 * All times are this machine's real clock (not the engine's, which is skewed and steps); the
 * server's clock is it plus an offset that only moves forward (a sleep, clock.ts), so the
 * order of events is the same in both.
 *
 * Field rules (issue 14):
 * 1. A field the user set: the user's last value, unless the second writer changed the field
 *    after it (then the writer's last value). Ambiguity, the documented limit (one
 *    modification time per entity, ARCHITECTURE.md "What it does not promise"): when the
 *    writer's last change of the field came before the user's set, unseen by the app then,
 *    and the entity changed again after the set, the writer's value is accepted too. The model
 *    decides that (`keptEarlier`, model.ts): no pull that began after the write had ended
 *    before the set, and a change of the entity that reached the server after the set (the
 *    writer's of another field, of the task's checklist items, or the user's own change of the
 *    task's checklist and files still unsent at the set).
 * 2. A field whose value is the writer's (the user never set it, or the writer changed it after
 *    the user's last set): the writer's last value, or the initial one if nobody wrote it.
 *    Ambiguity (updates carry whole entities, the other fields as the engine last saw them):
 *    for each writer change made while the user had an edit of the entity unsent, or followed
 *    by a user edit of the entity, the field's value before that change is accepted too; and,
 *    for a change made while the user's edit was unsent, the user's own last value of a field
 *    the user set (that edit reaches the server after the change: "after" in server order).
 * 3. The other way round (the second client's updates carry whole entities too): a user's set
 *    still unsent when the second client's update of the entity landed may arrive between that
 *    client's pull and its write, and be overwritten by the value the client last saw (a
 *    "carry": the field's server value as that sync began). ARCHITECTURE.md, "What it does not
 *    promise": the service has no conditional writes.
 * Creates give an entity its initial values; they are not "sets".
 */

export type Value = string | number | boolean | null;

export interface FieldHistory {
  initial: Value;
  sets: { at: number; value: Value }[];
  /** The writer's changes only (a write of the value already there is not one). */
  writes: { at: number; value: Value; before: Value; unsent: boolean }[];
}

export interface FieldExpectation {
  accept: Value[];
  why: string;
  /** 1: the user set the field (last write as the user left it); 2: the user never did. */
  rule: 1 | 2;
}

export const last = <T>(xs: readonly T[]): T | undefined => xs[xs.length - 1];

/**
 * The acceptable values of one field (rules 1 and 2 with their ambiguities). `userEdits`:
 * times of the user's edits of the entity; `keptEarlier(writeAt, setAt)`: whether the engine
 * may keep a writer's change made at `writeAt`, before the user's set at `setAt` (rule 1's
 * documented limit).
 */
export const expectField = (
  h: FieldHistory,
  userEdits: readonly number[],
  keptEarlier: (writeAt: number, setAt: number) => boolean,
  carries: readonly { at: number; value: Value }[] = [],
): FieldExpectation => {
  const lastSet = last(h.sets);
  const after = h.writes.filter((w) => lastSet === undefined || w.at > lastSet.at);
  const lastWrite = last(after);
  if (lastWrite === undefined) {
    if (lastSet === undefined)
      return { accept: [h.initial], why: 'initial, never written', rule: 2 };
    const accept: Value[] = [lastSet.value];
    const before = last(h.writes);
    let why = "the user's last set";
    if (before && keptEarlier(before.at, lastSet.at)) {
      accept.push(before.value);
      why += "; or the writer's earlier change (unseen at the set, the entity changed after it)";
    }
    for (const c of carries.filter((x) => x.at > lastSet.at)) {
      accept.push(c.value);
      why += `; or ${JSON.stringify(c.value)}, carried by the second client's update at ${c.at} (the set unsent then)`;
    }
    return { accept: unique(accept), why, rule: 1 };
  }
  const accept: Value[] = [lastWrite.value];
  let why = lastSet ? "the writer's change after the user's last set" : "the writer's last change";
  for (const w of after) {
    if (!w.unsent && !userEdits.some((t) => t >= w.at)) continue;
    accept.push(w.before);
    why += `; or the value before the write at ${w.at} (a user edit of the entity ${w.unsent ? 'was unsent then' : 'followed'})`;
    // An edit still queued at the write lands after it in the server's order, carrying the
    // user's own value of a field the user set: "after" judged by server order.
    if (w.unsent && lastSet) {
      accept.push(lastSet.value);
      why += ", or the user's value landing after it";
    }
  }
  return { accept: unique(accept), why, rule: lastSet ? 1 : 2 };
};

const unique = (xs: Value[]) => [...new Set(xs)];
