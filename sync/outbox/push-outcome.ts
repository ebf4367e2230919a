/** What one send came to, and what writing it did: the pusher's steps pass these along. */
import type { EntityKey, OutboxError, QueuedMutation } from './types';

/** What writing an answer did. */
export interface Applied {
  /** Entities whose rows the answer wrote (the rebase re-applies their queued edits). */
  touched: EntityKey[];
  /** Local keys that now have a server key. */
  rekeyed: { from: EntityKey; to: EntityKey }[];
}

/** What came back for a row, written in the step's transaction with the others. */
export type Outcome =
  | {
      type: 'answer';
      row: QueuedMutation;
      answer: unknown;
      path: Record<string, number>;
      /** Whether it counts as sent by this push (an adopted lost write does not). */
      counts: boolean;
      /** Sent again to a service that may have made the first one too: the user is told. */
      twin: boolean;
      /** The server had made it already (a lost answer found): the user is told. */
      adopted: boolean;
    }
  | { type: 'blocked'; row: QueuedMutation }
  /** `lookup`: the error is a look's for a lost answer, not the request's. */
  | { type: 'error'; row: QueuedMutation; error: unknown; lookup?: boolean };

/** What writing an outcome did, told (events, staged files removed) once it is committed. */
export type Written =
  | { type: 'sent'; row: QueuedMutation; applied: Applied; files: string[]; counts: boolean }
  | { type: 'retrying'; row: QueuedMutation; error: OutboxError; at: number; offline: boolean }
  | { type: 'auth' }
  | { type: 'failed'; row: QueuedMutation; error: OutboxError }
  | { type: 'none' };

export const answered = (
  row: QueuedMutation,
  answer: unknown,
  path: Record<string, number>,
  adopted = false,
): Extract<Outcome, { type: 'answer' }> => ({
  type: 'answer',
  row,
  answer,
  path,
  counts: true,
  twin: false,
  adopted,
});
