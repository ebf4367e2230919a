/**
 * What one entity's edit module holds: for each of its edit kinds, the command applied and
 * the row's local effect; its rows in the replica; its editable state; how the server's answer
 * is written; and, where it can be, how an edit of it deleted on the server is recreated.
 * kinds/index.ts registers one module per entity kind; the machinery around them (commit,
 * effects, snapshots, answers, recreate) asks the registry instead of switching on kinds.
 */
import type { EditKind, EditOf, EditResult } from '../../../shared/edits/commands';
import type { mutationKinds } from '../../../shared/edits/kinds';
import type { Sqlite } from '../../db/open';
import type { EntityKind, Json, JsonObject, MutationKind, QueuedMutation } from '../../outbox';
import type { RowSet } from '../rows';

export interface EditContext {
  now: number;
  userId: number;
  dataDir: string;
  /**
   * The server's clock minus this machine's, as estimated from answers (0 when unknown): a time
   * this machine stamps for the server (a timer's start, its end) is written in the server's
   * clock, so that it lands at once whatever the skew.
   */
  serverOffsetMs?: number;
  /**
   * The last readings before the forward jumps of this machine's clock that the server has not
   * yet told apart from sleeps (none: empty or absent): a timer's running part closed now is
   * marked with those it runs across (timers.ts `acrossJumps`).
   */
  clockUnsure?: readonly number[];
}

/** The mutation kinds of one entity kind: `KindsOf<'checklist'>` = `'checklist.create' | …`. */
export type KindsOf<E extends EntityKind> = {
  [K in MutationKind]: (typeof mutationKinds)[K]['entity'] extends E ? K : never;
}[MutationKind];

/** A command checked, applied to the replica and queued; throws `EditError`, writing nothing. */
export type Apply<K extends EditKind> = (db: Sqlite, c: EditOf<K>, ctx: EditContext) => EditResult;

/** The parts of an outbox row its effect depends on. */
export interface EffectRow {
  kind: MutationKind;
  operationId: string;
  path: Readonly<Record<string, number>>;
  body: Json;
  /** The edited entity's id (the local id of a create). */
  entityId: number;
}

/** What an effect is given: ids already read as the ids the replica uses now. */
export interface EffectInput {
  row: EffectRow;
  /** The edited entity's id now. */
  id: number;
  /** The row's body as an object (`{}` when it has none). */
  body: JsonObject;
  /** The id now of the entity a path parameter names, or null when the path has no such name. */
  ref(kind: EntityKind, param: string): number | null;
  now: number;
}

/**
 * A row's local effect. Returns false when there was nothing to apply it to (an update of a
 * row the replica no longer holds).
 */
export type Effect = (db: Sqlite, e: EffectInput) => boolean;

/** The create that brings back an entity the server deleted, with the user's latest state. */
export interface CreatePlan {
  kind: MutationKind;
  operationId: string;
  path: Record<string, number>;
  body: JsonObject;
  /** An update to send after the create (a ticked item is created unticked). */
  followUp?: { operationId: string; body: JsonObject };
}

export interface EntityModule<E extends EntityKind> {
  /** Each edit kind of the entity: the command applied, and its row's local effect. */
  kinds: { [K in KindsOf<E>]: { apply: Apply<K>; effect: Effect } };
  /**
   * Its rows: the column naming it, its own table first and then the tables of rows wholly
   * its (a task's tags), and whether its row keeps the server's modifiedTime.
   */
  rows: { column: string; tables: readonly string[]; modifiedTime: boolean };
  /**
   * Its rows with what removing it removes too (a delete's base), when that is more than its
   * own rows (those of `rows.tables`).
   */
  deepRows?(db: Sqlite, id: number, into: RowSet): void;
  /** Its editable state in the shape of its request body, or null when the replica lacks it. */
  state(db: Sqlite, id: number): JsonObject | null;
  /** The server's answer about it: the field holding its id, and how its copy is written. */
  answer: {
    idField: string;
    write(db: Sqlite, item: unknown, path: Readonly<Record<string, number>>, now: number): void;
  };
  /** Removes its rows (a local copy the server's replaces, or what the server deleted). */
  remove(db: Sqlite, id: number): void;
  /** The create that brings it back from an update row (`row`, its latest full state). */
  recreate?(row: QueuedMutation, conflict: QueuedMutation): CreatePlan;
}
