/**
 * A process hosting the sync engine for the model test, driven over the IPC channel
 * (child_process.fork): open an org's replica, edit, sync, report. It is SIGKILLed at random
 * moments and started again on the same data directory, as a host would be. Bundled by
 * child.ts and run by plain node.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ApiClient } from '../../../sync/api';
import { createApiClient, createSession, signIn } from '../../../sync/api';
import type { Session, SessionTokens } from '../../../sync/api/session';
import { timerDto } from '../../../sync/db/queries/activity-read';
import type { TimersTable } from '../../../sync/db/types';
import { entityState } from '../../../sync/edits/entities';
import { openEngine } from '../../../sync/engine/engine';
import type { EngineStatus, SyncEngine } from '../../../sync/engine/engine-api';
import { cfKey, type TaskColumns, taskFields } from './canonical';
import {
  type ChildMessage,
  type ChildRequest,
  type IdsAnswer,
  type OpenRequest,
  type ReplicaDump,
  requestEnvelope,
  timerView,
} from './protocol';
import { installWarmWorkers, warmWorker } from './warm-worker';

if (!process.send) throw new Error('engine-child runs under child_process.fork only');

// Bundled, the fill worker is the entry beside this file (as the app ships it).
const fillWorker = new URL('./fill-worker.js', import.meta.url);
if (existsSync(fileURLToPath(fillWorker))) {
  installWarmWorkers();
  warmWorker(fillWorker);
}

const send = (m: ChildMessage) => process.send?.(m);

interface Open {
  engine: SyncEngine;
  client: ApiClient;
  session: Session;
}
let open: Open | null = null;

/**
 * The engine's clock: the real one at an offset the parent sets (a skew for the whole case,
 * moved by a step or a sleep mid-case). Session, API client and engine share it, as the app's
 * share one wall clock. Its first reading during an edit is recorded with the real time.
 */
let clockOffsetMs = 0;
/** The next offset and the real time it takes effect at. */
let nextOffset: { offsetMs: number; atReal: number } | null = null;
let capturing = false;
let captured: { at: number; engineAt: number } | null = null;
const clock = () => {
  const real = Date.now();
  if (nextOffset && real >= nextOffset.atReal) {
    clockOffsetMs = nextOffset.offsetMs;
    nextOffset = null;
  }
  const t = real + clockOffsetMs;
  if (capturing && captured === null) captured = { at: real, engineAt: t };
  return t;
};

/**
 * Runs `fn` with the clock recording its first reading: the real time and the engine's at
 * which its edits were applied (null: it read no clock).
 */
const clocked = <T>(fn: () => T): { value: T; at: { at: number; engineAt: number } | null } => {
  capturing = true;
  captured = null;
  try {
    const value = fn();
    // Read through a function: TypeScript narrows the module variable to null above.
    return { value, at: capturedTimes() };
  } finally {
    capturing = false;
  }
};

const capturedTimes = () => captured;

const sessionFor = async (r: OpenRequest): Promise<Session> => {
  // A refresh rotates the pair: the parent keeps the newest for the next child.
  const onTokens = (tokens: SessionTokens) => {
    send({ type: 'tokens', tokens });
  };
  if (r.auth.kind === 'password')
    return signIn(r.serverUrl, r.auth.email, r.auth.password, { onTokens, clock });
  return createSession(r.serverUrl, {
    tokens: r.auth.tokens,
    user: r.auth.user,
    onTokens,
    clock,
  });
};

const doOpen = async (r: OpenRequest): Promise<EngineStatus> => {
  if (open) throw new Error('an engine is open already: close it first');
  clockOffsetMs = r.clockOffsetMs;
  nextOffset = null;
  const session = await sessionFor(r);
  const client = createApiClient({ baseUrl: r.serverUrl, orgId: r.orgId, session });
  const engine = openEngine({
    dataDir: r.dataDir,
    client,
    userId: r.userId,
    // Syncs are the test's to drive; retries still come due on their own, as in the app.
    pullIntervalMs: 3_600_000,
    backoff: { baseMs: 5, capMs: 100 },
    concurrency: 4,
    now: clock,
  });
  open = { engine, client, session };
  // Offline: edits apply and queue, nothing is sent until it is opened online.
  if (r.offline) return engine.status();
  engine.start();
  if (r.awaitSync) await engine.syncNow();
  return engine.status();
};

const doClose = async (): Promise<null> => {
  const o = open;
  open = null;
  if (!o) return null;
  await o.engine.close();
  await o.client.close();
  return null;
};

const engineOf = (): SyncEngine => {
  if (!open) throw new Error('no engine is open');
  return open.engine;
};

const ids = (engine: SyncEngine): IdsAnswer => {
  const db = engine.replica.db;
  const mappings = (
    db.prepare('SELECT entity_kind, local_id, server_id FROM local_ids').all() as {
      entity_kind: string;
      local_id: number;
      server_id: number;
    }[]
  ).map((r) => ({ kind: r.entity_kind, local: r.local_id, server: r.server_id }));
  const queued = (
    db.prepare('SELECT DISTINCT entity FROM outbox').all() as { entity: string }[]
  ).map((r) => r.entity);
  const moved = db
    .prepare('SELECT kind, from_id AS "from", to_id AS "to" FROM history_ids')
    .all() as {
    kind: string;
    from: number;
    to: number;
  }[];
  return { mappings, queued, moved };
};

/** Rows grouped by task id. */
const byTask = <R extends { task_id: number }>(rows: readonly R[]) => {
  const out = new Map<number, R[]>();
  for (const r of rows) out.set(r.task_id, [...(out.get(r.task_id) ?? []), r]);
  return out;
};

/** The replica as the check compares it with the server's store (protocol.ts `replicaDump`). */
const dump = (engine: SyncEngine): ReplicaDump => {
  const db = engine.replica.db;
  const now = clock();
  const owners = byTask(
    db.prepare('SELECT task_id, user_id FROM task_owners').all() as {
      task_id: number;
      user_id: number;
    }[],
  );
  const tags = byTask(
    db.prepare('SELECT task_id, name FROM task_tags').all() as { task_id: number; name: string }[],
  );
  const values = byTask(
    db.prepare('SELECT task_id, field_id, value FROM custom_field_values').all() as {
      task_id: number;
      field_id: number;
      value: string;
    }[],
  );
  return {
    tasks: (
      db
        .prepare(
          `SELECT task_id, title, description, status, priority, completion, start_date, due_date
           FROM tasks ORDER BY task_id`,
        )
        .all() as TaskColumns[]
    ).map((t) => ({
      id: t.task_id,
      fields: taskFields(
        t,
        (owners.get(t.task_id) ?? []).map((o) => o.user_id),
        (tags.get(t.task_id) ?? []).map((g) => g.name),
        Object.fromEntries((values.get(t.task_id) ?? []).map((v) => [cfKey(v.field_id), v.value])),
      ),
    })),
    checklist: (
      db
        .prepare(
          'SELECT checklist_id, task_id, name, completed, assignee_id FROM checklist_items ORDER BY checklist_id',
        )
        .all() as {
        checklist_id: number;
        task_id: number;
        name: string;
        completed: number;
        assignee_id: number | null;
      }[]
    ).map((c) => ({
      id: c.checklist_id,
      taskId: c.task_id,
      name: c.name,
      completed: c.completed === 1,
      assignee: c.assignee_id,
    })),
    attachments: (
      db
        .prepare(
          'SELECT attachment_id, task_id, file_name, size FROM attachments ORDER BY attachment_id',
        )
        .all() as {
        attachment_id: number;
        task_id: number | null;
        file_name: string;
        size: number | null;
      }[]
    ).map((a) => ({
      id: a.attachment_id,
      taskId: a.task_id,
      name: a.file_name,
      size: a.size ?? -1,
    })),
    // As the app shows them: a running timer's duration grows from the copy's observed_at, on
    // the engine's clock.
    timers: (db.prepare('SELECT * FROM timers ORDER BY track_id').all() as TimersTable[]).map(
      (row) => timerView(timerDto(row, now)),
    ),
  };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Syncs until nothing is pending and a whole sync (pull and push) that began after the call
 * succeeded: the first syncNow joins the cycle in flight, which may have pulled before the
 * test's last write (or before it healed the faults). Waits for each retry to come due;
 * bounded by `maxMs`.
 */
const drain = async (engine: SyncEngine, maxMs: number) => {
  const deadline = Date.now() + maxMs;
  await engine.syncNow();
  // No cycle is in flight now, and a timer's next one starts 10 ms later at the earliest: the
  // next syncNow begins a cycle of its own, and a sync time other than this one is of a cycle
  // begun after it. (Compared for change, not order: the engine's clock may have stepped
  // back since.)
  const before = engine.status().lastSyncAt;
  let rounds = 0;
  for (;;) {
    rounds++;
    await engine.syncNow();
    const s = engine.status();
    if (s.pending === 0 && s.lastSyncAt !== null && s.lastSyncAt !== before)
      return { status: s, drained: true, rounds };
    if (Date.now() >= deadline) return { status: s, drained: false, rounds };
    // Nothing due (an edit waits behind a failed one, say): look again a little later. The
    // retry's time is the engine's clock's.
    const due = s.nextRetryAt !== null ? s.nextRetryAt - clock() : 25;
    await sleep(Math.max(1, Math.min(due, deadline - Date.now(), 1_500)));
  }
};

const handle = async (r: ChildRequest): Promise<unknown> => {
  switch (r.cmd) {
    case 'open':
      return doOpen(r);
    case 'close':
      return doClose();
    case 'edit': {
      const done = clocked(() => engineOf().edit(r.command));
      if (done.at === null) throw new Error('the engine applied an edit without its clock');
      return { result: done.value, ...done.at };
    }
    case 'undo':
    case 'redo': {
      const engine = engineOf();
      const done = clocked(() => (r.cmd === 'undo' ? engine.undo() : engine.redo()));
      return { step: done.value, at: done.value === null ? null : (done.at?.at ?? null) };
    }
    case 'state':
      return entityState(engineOf().replica.db, r.kind, r.id);
    case 'sync': {
      const engine = engineOf();
      // Idle: whatever cycle answers this one has not pulled yet (a cycle sets 'pulling' and
      // 'pushing' synchronously as it goes), so its pull began after the request, and a sync
      // time other than the one before is its.
      const { activity, lastSyncAt: before } = engine.status();
      await engine.syncNow();
      const s = engine.status();
      return {
        ...s,
        freshPull: activity === 'idle' && s.lastSyncAt !== null && s.lastSyncAt !== before,
      };
    }
    case 'status':
      return engineOf().status();
    case 'ids':
      return ids(engineOf());
    case 'dump':
      return dump(engineOf());
    case 'drain':
      return drain(engineOf(), r.maxMs);
    case 'resolve':
      return engineOf().resolveConflict(r.mutationId, r.choice);
    case 'clock':
      nextOffset = { offsetMs: r.offsetMs, atReal: r.atReal };
      return null;
  }
};

process.on('message', (raw: unknown) => {
  const parsed = requestEnvelope.safeParse(raw);
  if (!parsed.success) {
    process.stderr.write(`engine-child: bad message: ${parsed.error.message}\n`);
    process.exit(2);
  }
  const { id, request } = parsed.data;
  handle(request).then(
    (value) => send({ type: 'answer', id, value: value ?? null }),
    (error: unknown) =>
      send({
        type: 'error',
        id,
        message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }),
  );
});
// The parent went away (its test ended or died): nothing left to do here.
process.on('disconnect', () => {
  void doClose().finally(() => process.exit(0));
});
send({ type: 'ready' });
