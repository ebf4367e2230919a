/**
 * What one entity's edit module holds: for each of its edit kinds, the command applied and
 * the row's local effect; how the server's answer is written; where it can be, how an edit of
 * it deleted on the server is recreated; and the hooks and traits where it differs from the
 * rest. A module imports nothing of the machinery: `apply` is handed an `EditTx`. kinds/index.ts
 * lists one module per entity kind, and `createEdits` (../create.ts) builds the machinery
 * (commit, effects, answers, rebase, rollback, recreate) from them; it never switches on kinds.
 * Its rows and editable state are the schema's (sync/db/entity-rows.ts, ../state.ts).
 */
import type { EditKind, EditOf, EditResult } from '../../../shared/edits/commands';
import type { mutationKinds } from '../../../shared/edits/kinds';
import type { Sqlite } from '../../db/open';
import type {
  EnqueueResult,
  EntityKind,
  Json,
  JsonObject,
  MutationKind,
  QueuedMutation,
} from '../../outbox';

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
export type Apply<K extends EditKind> = (tx: EditTx, c: EditOf<K>) => EditResult;

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

/** A new entity's edit, under a fresh local id. */
export interface CreatedEdit {
  kind: MutationKind;
  entity: EntityKind;
  operationId: string;
  path: Record<string, number>;
  body: Json;
  /** Runs first with the new id (a timer's record). */
  before?: (id: number) => void;
}

/** An edit of an entity the replica holds. */
export interface ExistingEdit {
  kind: MutationKind;
  entity: EntityKind;
  id: number;
  operationId: string;
  path: Record<string, number>;
  body?: Json;
  /** A delete: the base keeps what the delete takes along. */
  deep?: boolean;
}

/** An edit planned to the last field (what `EditTx.commit` writes and queues). */
export interface PlannedEdit {
  kind: MutationKind;
  operationId: string;
  path: Record<string, number>;
  body?: Json;
  /** A create's local id; for other edits the edited entity's id. */
  entityId: number;
  localId?: number;
  base?: Json;
}

/**
 * What a kind's `apply` is handed: the replica inside the edit's transaction, the edit's
 * context, and the machinery's common end (sync/edits/commit.ts), so that a kind module imports
 * none of it.
 */
export interface EditTx {
  readonly db: Sqlite;
  readonly ctx: EditContext;
  /** The body as the endpoint's request schema accepts it (trimmed, defaults), or `EditError`. */
  checkBody(operationId: string, body: unknown): JsonObject;
  /** An edit of an entity the replica holds: its base, its effect, its row. */
  existing(e: ExistingEdit): EditResult;
  /** A new entity under a fresh local id. */
  created(e: CreatedEdit): EditResult;
  /** Writes a planned edit's effect and queues its row (an upload, which makes several ids). */
  commit(p: PlannedEdit): EnqueueResult;
}

export interface EntityModule<E extends EntityKind> {
  /** Each edit kind of the entity: the command applied, and its row's local effect. */
  kinds: { [K in KindsOf<E>]: { apply: Apply<K>; effect: Effect } };
  /** The server's answer about it: the field holding its id, and how its copy is written. */
  answer: {
    idField: string;
    write(db: Sqlite, item: unknown, path: Readonly<Record<string, number>>, now: number): void;
    /**
     * A create that made several entities (an upload, one per file): each local id with the
     * item of the answer that is its server copy. Default: the row's entity with the first item.
     */
    pairs?(
      row: QueuedMutation,
      items: readonly unknown[],
      localIds: readonly number[],
    ): [number, unknown][];
  };
  /** Removes its rows (a local copy the server's replaces, or what the server deleted). */
  remove(db: Sqlite, id: number): void;
  /** The create that brings it back from an update row (`row`, its latest full state). */
  recreate?(row: QueuedMutation, conflict: QueuedMutation): CreatePlan;
  /** The local ids a create row made (an upload: one per file). Default: the row's entity. */
  made?(row: QueuedMutation): number[];
  /**
   * Runs before any delete is queued (a task's, a project's…), in its transaction: what the
   * delete takes along on the server may need an edit first (a running timer stopped).
   */
  beforeDelete?(tx: EditTx, deleted: { entity: EntityKind; id: number }): void;
  /**
   * After a rollback of its rows (`rest`: its edits still queued, none when it is gone): what
   * the module keeps beside the replica's rows is made to agree (a timer's record).
   */
  rolledBack?(db: Sqlite, id: number, rest: readonly QueuedMutation[], now: number): void;
  /** How the rebase treats it (all false when absent). */
  traits?: {
    /**
     * Pulls bring it in partial lists (active timers, the newest notifications): absent after a
     * server write is not deleted.
     */
    listedPartly?: true;
    /** Its updates go on top as they are, never merged field by field with the server's copy. */
    unmerged?: true;
    /**
     * It comes embedded in its parent's answer, never named itself (a checklist item in a bulk
     * page): a row no longer showing its queued state was rewritten by the server.
     */
    embedded?: true;
    /** Its creates change no task's counts. */
    uncounted?: true;
  };
}

/** One module per entity kind: what `createEdits` is built from. */
export type EntityModules = { [E in EntityKind]: EntityModule<E> };
