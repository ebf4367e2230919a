/**
 * The messages between the model test (parent) and the process hosting the engine
 * (engine-child.ts), both ways checked with these schemas: a process boundary is an input
 * from outside like any other.
 */
import { z } from 'zod';
import { userRef } from '../../../shared/api/common';
import { editCommand, editResult } from '../../../shared/edits/commands';

export const sessionTokens = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  accessExpiresAt: z.number(),
  refreshExpiresAt: z.number(),
});
export type SessionTokensMsg = z.infer<typeof sessionTokens>;

/**
 * How the child gets its session: resumed from tokens the parent got once (no password
 * sign-in and its ~30 ms of scrypt on every spawn), or a sign-in.
 */
export const childAuth = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tokens'), tokens: sessionTokens, user: userRef }),
  z.object({ kind: z.literal('password'), email: z.string(), password: z.string() }),
]);
export type ChildAuth = z.infer<typeof childAuth>;

export const openRequest = z.object({
  cmd: z.literal('open'),
  dataDir: z.string().min(1),
  serverUrl: z.string().url(),
  orgId: z.number().int().positive(),
  userId: z.number().int().positive(),
  auth: childAuth,
  /** Await the engine's first sync before answering (a fresh replica has nothing to edit). */
  awaitSync: z.boolean(),
  /** Offline: the engine applies and queues edits but never syncs until opened online. */
  offline: z.boolean().optional(),
  /**
   * The child's clock against the real one (ms): the engine reads `Date.now() + offset`. Given
   * at every open, so that a child started after a kill keeps the case's clock.
   */
  clockOffsetMs: z.number().int(),
});
export type OpenRequest = z.infer<typeof openRequest>;

export const childRequest = z.discriminatedUnion('cmd', [
  openRequest,
  z.object({ cmd: z.literal('close') }),
  z.object({ cmd: z.literal('edit'), command: editCommand }),
  z.object({ cmd: z.literal('sync') }),
  z.object({ cmd: z.literal('status') }),
  z.object({ cmd: z.literal('ids') }),
  z.object({ cmd: z.literal('dump') }),
  z.object({ cmd: z.literal('drain'), maxMs: z.number().int().positive() }),
  /** A failed or conflicting edit resolved as the user would: recreate, or discard. */
  z.object({
    cmd: z.literal('resolve'),
    mutationId: z.number().int(),
    choice: z.enum(['recreate', 'discard']),
  }),
  z.object({ cmd: z.literal('undo') }),
  z.object({ cmd: z.literal('redo') }),
  /** An entity's state as the engine's edits see it (`entityState`), or null when not there. */
  z.object({
    cmd: z.literal('state'),
    kind: z.enum(['task', 'checklist', 'attachment', 'timer', 'space', 'project']),
    id: z.number().int(),
  }),
  /**
   * The child's clock moves to another offset from the real one (a step, a sleep), from the
   * real time `atReal` on (at once if that has passed): a moment the parent moves the server's
   * clock at too, for a sleep.
   */
  z.object({ cmd: z.literal('clock'), offsetMs: z.number().int(), atReal: z.number() }),
]);
export type ChildRequest = z.infer<typeof childRequest>;

export const requestEnvelope = z.object({ id: z.number().int(), request: childRequest });

// ---- answers ------------------------------------------------------------------------------

export const failedEdit = z.looseObject({
  mutationId: z.number(),
  kind: z.string(),
  entity: z.string(),
  state: z.string(),
  error: z.looseObject({ message: z.string() }).nullable(),
  attempts: z.number(),
});

/** The part of EngineStatus the test reads; the rest passes through for failure reports. */
export const engineStatus = z.looseObject({
  online: z.boolean(),
  needsSignIn: z.boolean(),
  pending: z.number().int(),
  pendingByKind: z.record(z.string(), z.number()),
  failed: z.array(failedEdit),
  nextRetryAt: z.number().nullable(),
  lastError: z.string().nullable(),
});
export type EngineStatusMsg = z.infer<typeof engineStatus>;

export const editAnswer = z.object({
  result: editResult,
  /**
   * The real time (ms, this machine's clock unskewed) when the engine first read its clock for
   * the edit: what the model orders the user's edits by against the second writer.
   */
  at: z.number(),
  /** The engine's own (skewed) clock at that moment: the time the edit carries. */
  engineAt: z.number(),
});
export type EditAnswer = z.infer<typeof editAnswer>;

export const idsAnswer = z.object({
  /** local_ids: kind → [local, server] pairs. */
  mappings: z.array(z.object({ kind: z.string(), local: z.number(), server: z.number() })),
  /** Entity keys (`task:-3`, `checklist:12`) with a row in the outbox, whatever its state. */
  queued: z.array(z.string()),
  /** history_ids: an id a step named → the id its entity got again (redo, recreate). */
  moved: z.array(z.object({ kind: z.string(), from: z.number(), to: z.number() })),
});
export type IdsAnswer = z.infer<typeof idsAnswer>;

/** A field's value in the model's canonical form (server-side.ts `Canonical`). */
const canonical = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * The replica's rows, every field the app edits in the model's canonical forms (the server's
 * `ServerState`): a task's fields keyed as the model keys them (`title`, `startDate` in epoch
 * ms, `owners` as sorted ids, `tags` as sorted names, `cf:<id>` as the stored JSON).
 */
export const replicaDump = z.object({
  tasks: z.array(z.object({ id: z.number(), fields: z.record(z.string(), canonical) })),
  checklist: z.array(
    z.object({
      id: z.number(),
      taskId: z.number(),
      name: z.string(),
      completed: z.boolean(),
      assignee: z.number().nullable(),
    }),
  ),
  attachments: z.array(
    z.object({ id: z.number(), taskId: z.number().nullable(), name: z.string(), size: z.number() }),
  ),
  timers: z.array(
    z.object({
      id: z.number(),
      taskId: z.number(),
      state: z.string(),
      startTime: z.number(),
      endTime: z.number().nullable(),
      durationSeconds: z.number(),
      notes: z.string().nullable(),
      billing: z.string(),
    }),
  ),
});
export type ReplicaDump = z.infer<typeof replicaDump>;
export type TimerView = ReplicaDump['timers'][number];

/**
 * A timer as both sides are compared: every field of its DTO the app edits. Billing defaults
 * as the server's does (a record without one is billable).
 */
export const timerView = (t: {
  trackId: number;
  taskId: number;
  state: string;
  startTime: number;
  endTime?: number | null | undefined;
  durationSeconds: number;
  notes?: string | null | undefined;
  billingStatus?: string | null | undefined;
}): TimerView => ({
  id: t.trackId,
  taskId: t.taskId,
  state: t.state,
  startTime: t.startTime,
  endTime: t.endTime ?? null,
  durationSeconds: t.durationSeconds,
  notes: t.notes ?? null,
  billing: t.billingStatus ?? 'BILLABLE',
});

/**
 * A sync's answer: the status, and whether a pull that began after the request came in
 * succeeded (a cycle already past its pull when the request came is joined, not counted).
 */
export const syncAnswer = engineStatus.extend({ freshPull: z.boolean() });

export const drainAnswer = z.object({
  status: engineStatus,
  drained: z.boolean(),
  rounds: z.number().int(),
});
export type DrainAnswer = z.infer<typeof drainAnswer>;

/** An undo's or a redo's answer (the bridge's `historyStep`), with the engine's clock then. */
export const historyAnswer = z.object({
  step: z.object({ label: z.string(), kind: z.string(), entities: z.array(z.string()) }).nullable(),
  /**
   * The real time (ms, unskewed) when the engine first read its clock to undo or redo, or null
   * when it answered null.
   */
  at: z.number().nullable(),
});
export type HistoryAnswer = z.infer<typeof historyAnswer>;

/** What each command answers (`open`, `close`, `sync`, `status`: the status). */
export const answerSchemas = {
  open: engineStatus,
  close: z.null(),
  edit: editAnswer,
  sync: syncAnswer,
  status: engineStatus,
  ids: idsAnswer,
  dump: replicaDump,
  drain: drainAnswer,
  /** A recreate answers the entity it made again (a new local id); a discard, null. */
  resolve: editResult.nullable(),
  undo: historyAnswer,
  redo: historyAnswer,
  state: z.record(z.string(), z.unknown()).nullable(),
  clock: z.null(),
} as const;
export type AnswerOf<C extends ChildRequest['cmd']> = z.infer<(typeof answerSchemas)[C]>;

export const childMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('answer'), id: z.number().int(), value: z.unknown() }),
  z.object({ type: z.literal('error'), id: z.number().int(), message: z.string() }),
  /** The session refreshed: the parent keeps the rotated pair for the next spawn. */
  z.object({ type: z.literal('tokens'), tokens: sessionTokens }),
]);
export type ChildMessage = z.infer<typeof childMessage>;
