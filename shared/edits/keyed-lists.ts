/**
 * List-valued fields whose items are edited one by one, each item named by its key field.
 * A patch's list names only the items it changes (a null value clears one) and keeps the rest;
 * the engine's merge of a queued update with the server's copy compares such a list item by
 * item, so editing one custom field never touches another, and another writer's change of a
 * different item is kept. Owners and tags are not here: the UI edits them as whole lists.
 */
import type { Json, JsonObject } from './kinds';

export const keyedLists: Readonly<Record<string, string>> = {
  customFieldValues: 'taskCustomFieldId',
};

const itemKey = (field: string, id: number) => `${field}[${id}]`;
const ITEM_KEY = /^(.+)\[(-?\d+)\]$/;

const isObject = (v: Json | undefined): v is JsonObject =>
  v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

/** A keyed list's items as id → value (the item without its key field's name changes nothing). */
const itemsOf = (list: Json | undefined, key: string): Map<number, Json> => {
  const out = new Map<number, Json>();
  if (!Array.isArray(list)) return out;
  for (const item of list)
    if (isObject(item) && typeof item[key] === 'number') out.set(item[key], item.value ?? null);
  return out;
};

const listOf = (items: Map<number, Json>, key: string): Json[] =>
  [...items]
    .filter(([, value]) => value !== null)
    .sort(([a], [b]) => a - b)
    .map(([id, value]) => ({ [key]: id, value }));

/**
 * The state with a patch over it: plain fields replaced, keyed lists merged item by item (the
 * result in key order, cleared items left out: an update sends the whole list).
 */
export const patchState = (state: JsonObject, patch: JsonObject): JsonObject => {
  const out: JsonObject = { ...state, ...patch };
  for (const [field, key] of Object.entries(keyedLists)) {
    if (!Object.hasOwn(patch, field)) continue;
    const items = itemsOf(state[field], key);
    for (const [id, value] of itemsOf(patch[field], key)) items.set(id, value);
    out[field] = listOf(items, key);
  }
  return out;
};

/**
 * The objects with each keyed list spread into one field per item (`customFieldValues[7]`),
 * over the items any of them holds: an item an object lacks is null there, so absent and
 * cleared compare equal. An object without the list gets none of its items.
 */
export const spreadItems = (objects: readonly (JsonObject | null)[]): (JsonObject | null)[] => {
  const lists = Object.entries(keyedLists).filter(([field]) =>
    objects.some((o) => o !== null && Object.hasOwn(o, field)),
  );
  if (lists.length === 0) return [...objects];
  const ids = new Map<string, Set<number>>();
  for (const [field, key] of lists) {
    const all = new Set<number>();
    for (const o of objects) if (o) for (const id of itemsOf(o[field], key).keys()) all.add(id);
    ids.set(field, all);
  }
  return objects.map((o) => {
    if (o === null) return null;
    const out: JsonObject = { ...o };
    for (const [field, key] of lists) {
      const all = ids.get(field) ?? new Set<number>();
      if (!Object.hasOwn(o, field) || all.size === 0) continue;
      delete out[field];
      const items = itemsOf(o[field], key);
      for (const id of all) out[itemKey(field, id)] = items.get(id) ?? null;
    }
    return out;
  });
};

/** The inverse of `spreadItems`: item fields gathered back into their lists. */
export const gatherItems = (o: JsonObject): JsonObject => {
  const out: JsonObject = {};
  const lists = new Map<string, Map<number, Json>>();
  for (const [k, v] of Object.entries(o)) {
    const m = ITEM_KEY.exec(k);
    if (m?.[1] && Object.hasOwn(keyedLists, m[1])) {
      const items = lists.get(m[1]) ?? new Map<number, Json>();
      items.set(Number(m[2]), v);
      lists.set(m[1], items);
    } else out[k] = v;
  }
  for (const [field, items] of lists) out[field] = listOf(items, keyedLists[field] ?? '');
  return out;
};

/**
 * Item fields gathered into a patch: each list names the items given, a null one cleared (a
 * patch names only the items it changes, unlike a state, which leaves cleared ones out).
 */
export const gatherPatch = (o: JsonObject): JsonObject => {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) {
    const m = ITEM_KEY.exec(k);
    const key = m?.[1] ? keyedLists[m[1]] : undefined;
    if (m?.[1] && key) {
      const list = (out[m[1]] ?? []) as Json[];
      out[m[1]] = [...list, { [key]: Number(m[2]), value: v }];
    } else out[k] = v;
  }
  return out;
};

/** The name of the list an item field (`customFieldValues[7]`) is of, or the field's own. */
export const listOfItem = (field: string): string => {
  const m = ITEM_KEY.exec(field);
  return m?.[1] && Object.hasOwn(keyedLists, m[1]) ? m[1] : field;
};

/**
 * Edit marks as item marks: a mark of a whole keyed list (a row of an older build) marks every
 * item of that list in `spread`.
 */
export const spreadMarks = (
  marks: Readonly<Record<string, number>>,
  spread: JsonObject,
): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const [k, at] of Object.entries(marks)) {
    if (!Object.hasOwn(keyedLists, k)) {
      out[k] = at;
      continue;
    }
    for (const item of Object.keys(spread))
      if (item.startsWith(`${k}[`)) out[item] = Math.max(out[item] ?? 0, at);
  }
  return out;
};
