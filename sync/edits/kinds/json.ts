/** Reading the loosely typed parts of an outbox row (its body, its path). */
import type { Json, JsonObject } from '../../outbox';

export const asObject = (v: Json): JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};

export const numOrNull = (v: Json | undefined): number | null => (typeof v === 'number' ? v : null);

/** The named parameters a path has. */
export const pick = (path: Readonly<Record<string, number>>, names: readonly string[]) =>
  Object.fromEntries(names.flatMap((n) => (path[n] === undefined ? [] : [[n, path[n] as number]])));
