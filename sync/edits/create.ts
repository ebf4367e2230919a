/**
 * The edit machinery, built from the entity modules in one place: every function that needs
 * a kind's `apply`, `effect`, answer writer, hooks or traits is bound here to the modules it
 * is given (kinds/index.ts's in the app; a test may pass others). Nothing else holds them.
 */
import type { Sqlite } from '../db/open';
import type { Replica } from '../db/replica';
import type { QueuedMutation } from '../outbox';
import { applyAnswer } from './answers';
import { applyEdit } from './apply';
import type { EditContext, EntityModules } from './kinds/types';
import type { MergeClock } from './merge';
import { installRebase, type RebaseOptions, reapplyPending, rebaseOwnRows } from './rebase';
import { recreate } from './recreate';
import { rollBack } from './rollback';

export const createEdits = (modules: EntityModules) => ({
  /** A user's edit, applied to the replica and queued, in one transaction (apply.ts). */
  applyEdit: (db: Sqlite, command: unknown, ctx: EditContext) =>
    applyEdit(modules, db, command, ctx),
  /** The server's answer to a sent edit, written (the pusher's; answers.ts). */
  applyAnswer: (
    db: Sqlite,
    row: QueuedMutation,
    answer: unknown,
    path: Record<string, number>,
    now: number,
  ) => applyAnswer(modules, db, row, answer, path, now),
  /** Queued edits back on top of what the server wrote (rebase.ts). */
  reapplyPending: (db: Sqlite, touched: ReadonlySet<string>, options: RebaseOptions) =>
    reapplyPending(modules, db, touched, options),
  /** After an answer to an edit of `key`: its own queued rows on top again (rebase.ts). */
  rebaseOwnRows: (db: Sqlite, key: string, options: RebaseOptions) =>
    rebaseOwnRows(modules, db, key, options),
  /** The rebase hooked into every server-data transaction of the replica (rebase.ts). */
  installRebase: (replica: Replica, clock?: () => number, serverClock?: () => MergeClock | null) =>
    installRebase(modules, replica, clock, serverClock),
  /** A refused or discarded edit gives the server's rows back (rollback.ts). */
  rollBack: (db: Sqlite, mutations: readonly QueuedMutation[], now?: number) =>
    rollBack(modules, db, mutations, now),
  /** An edit of something deleted on the server becomes a create (recreate.ts). */
  recreate: (db: Sqlite, mutationId: number, now: number) => recreate(modules, db, mutationId, now),
});

export type Edits = ReturnType<typeof createEdits>;
