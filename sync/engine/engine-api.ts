/**
 * The sync engine as its host sees it: one replica (server, user, org), its pulls, its outbox
 * and replay. The host (main/) wraps this in bridge services; nothing else of sync/ needs to be
 * known to call edits, read status or steer the engine. Queries read `engine.replica` directly
 * (sync/db/queries/*), which is why the replica is exposed.
 */
import type { EditCommand, EditResult } from '../../shared/edits/commands';
import type { ApiClient } from '../api';
import type { StoredChange } from '../changes/store';
import type { Replica } from '../db/replica';
import type { StepOutcome } from '../history';
import type { BackoffOptions } from '../outbox/backoff';
import type { SyncNotice } from '../outbox/notices';
import type { FailedEdit } from '../outbox/status';
import type { EntityKey, Json, MutationKind } from '../outbox/types';
import type { LazyData } from './lazy';
import type { PullProgress } from './progress';

export type EngineActivity = 'idle' | 'pulling' | 'pushing';

export interface EngineStatus {
  /** False after a network failure until a request gets through again. */
  online: boolean;
  activity: EngineActivity;
  /** The user paused sync (edits still apply locally and queue). */
  paused: boolean;
  /** A 401 survived a refresh: the outbox waits, nothing is dropped, the user must sign in. */
  needsSignIn: boolean;
  /** Unsent edits (pending or in flight), total and per kind. */
  pending: number;
  pendingByKind: Partial<Record<MutationKind, number>>;
  /** Failed and conflicting edits, with the server's words, oldest first. */
  failed: FailedEdit[];
  /** When the next retry of a waiting edit (or pull) is due, epoch ms. */
  nextRetryAt: number | null;
  /** The end of the last pull and push that both succeeded, epoch ms. */
  lastSyncAt: number | null;
  /** The last pull's or push's error, in words, while it lasts. */
  lastError: string | null;
  /** Set while a first fill (or a re-bootstrap) runs. */
  bootstrap: PullProgress | null;
  /** What the user must know about edits already sent (a possible twin), oldest first. */
  notices: SyncNotice[];
  /** "Changes from sync" the user has not seen yet. */
  changesUnseen: number;
}

export type EngineEvent =
  | { type: 'status'; status: EngineStatus }
  /**
   * Rows of these entities changed in the replica (local edit, pull, push answer, rebase):
   * `task:12`, or `task:*` when very many of a kind did.
   */
  | { type: 'changed'; entities: string[]; source: 'edit' | 'pull' | 'push' }
  /** An entity created offline got its server id; views holding `from` should switch to `to`. */
  | { type: 'rekeyed'; from: EntityKey; to: EntityKey }
  | { type: 'upload-progress'; mutationId: number; completedBytes: number; totalSize: number }
  | { type: 'pull-progress'; progress: PullProgress }
  /** Notifications new to this replica in a pull (for native notifications). */
  | { type: 'notifications-arrived'; notificationIds: number[] }
  /** "Changes from sync" grew (sync/changes): the window shows its badge. */
  | { type: 'sync-changes'; unseen: number; latestChangeId: number };

export interface SyncEngine {
  readonly replica: Replica;
  readonly lazy: LazyData;
  /** Starts pulling and replaying (at once, on an interval, and on every edit). */
  start(): void;
  /** Stops timers and in-flight work; the replica stays open. */
  stop(): Promise<void>;
  /** Stops and closes the replica. */
  close(): Promise<void>;

  /** Applies an edit to the replica and queues it, in one transaction. Throws on bad input. */
  edit(command: EditCommand): EditResult;
  /** Several edits as one undoable step, all or none (a bulk edit). */
  editAll(commands: readonly EditCommand[]): EditResult[];
  /** Undoes the latest step not undone (its inverse edits queue like any); null when none. */
  undo(): StepOutcome | null;
  /** Redoes the step undone last (until a new edit is made); null when none. */
  redo(): StepOutcome | null;

  status(): EngineStatus;
  on(listener: (event: EngineEvent) => void): () => void;

  /** Pull, then push what is ready, now (joins a sync in flight). */
  syncNow(): Promise<void>;
  pause(): void;
  resume(): void;
  /** Time between two background pulls from now on (the user changed the setting). */
  setPullInterval(ms: number): void;
  /** After a sign-in with new tokens: the outbox resumes. */
  signedIn(): void;

  /** A failed or conflicting edit, again (optionally with a corrected body). */
  retry(mutationId: number, body?: Json): void;
  /** Gives a failed or conflicting edit up; the replica returns to the server's state. */
  discard(mutationId: number): void;
  /** An edit to something deleted on the server: make it again, or let it go. */
  resolveConflict(mutationId: number, choice: 'recreate' | 'discard'): EditResult | null;
  /** The user has read a notice. */
  dismissNotice(noticeId: number): void;

  /** What syncs changed of the user's own work (sync/changes), newest first. */
  changesFromSync(): StoredChange[];
  /** The user has looked at them. */
  seeChanges(): void;
  /** Keep theirs, or restore mine (a new edit, a retry, a recreate). Throws if it cannot. */
  resolveChange(changeId: number, choice: 'keepTheirs' | 'restoreMine'): void;
  /** Whether "restore mine" can be done for the change now. */
  canRestoreChange(change: StoredChange): boolean;
}

/** What `openEngine(options)` (sync/engine/engine.ts) takes. */
export interface EngineOptions {
  /** Where the replica file and staged upload files live. */
  dataDir: string;
  /** A client for the replica's server and org (the host made it from its session). */
  client: ApiClient;
  /** The signed-in user: with the client's origin and org it names the replica file. */
  userId: number;
  /** Time between two background pulls; 30 s by default. */
  pullIntervalMs?: number;
  /** Edits of independent entities sent at once; 4 by default. */
  concurrency?: number;
  now?: () => number;
  /**
   * Arms the wait for the next cycle (the pull interval, a retry) and answers its cancel;
   * `setTimeout` by default. A test moving `now` by hand passes its own, to fire what came due.
   */
  schedule?: (run: () => void, delayMs: number) => () => void;
  /** Retry delays of edits and pulls (tests shorten them); the outbox's defaults otherwise. */
  backoff?: BackoffOptions;
}
