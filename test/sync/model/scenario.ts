/**
 * One case of the model test: its actions as fast-check arbitraries, and the runner that
 * plays them (steps.ts) against the engine in its child process and the reference server,
 * logging every event into the model, then ends the case (case-end.ts: heal, stop the running
 * timer, drain each org, check).
 */
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { endCase } from './case-end';
import {
  CaseFailure,
  type CaseRun,
  clockIn,
  clocksOf,
  type RunContext,
  spawnChild,
} from './case-run';
import { type ClockAction, clockSleepArb, clockStepArb } from './clock';
import { Model } from './model';
import { UserSteps } from './model-history';
import { fillSecond, newSecondClient } from './second-client';
import {
  type FaultKind,
  type FaultMethod,
  faultKinds,
  healFaults,
  refreshSignIn,
  type SeededOrg,
  seedOrg,
  setClockOffset,
} from './server-side';
import { step } from './steps';
import { placeFields, seededProjectKey, seededSpaceKey } from './steps-structure';

/** User edits of one field, `n` choosing the value (a clear among them, where there is one). */
export type FieldEdit =
  | 'task.description'
  | 'task.start'
  | 'task.due'
  | 'task.completion'
  | 'task.owners'
  | 'task.tags'
  | 'task.cf'
  | 'item.assign'
  | 'file.rename'
  | 'timer.notes'
  | 'timer.billing';

/** Field-like edits played by steps-structure.ts, not by steps.ts's fieldEdit. */
type Structural = 'space.edit' | 'project.edit' | 'timer.range' | 'timer.manual' | 'timer.fix';

/** What the second client changes: a task field (`cf`: one custom field) or an item's name. */
export type WriterField =
  | 'title'
  | 'priority'
  | 'status'
  | 'description'
  | 'dueDate'
  | 'completion'
  | 'tags'
  | 'cf'
  | 'item.name';

export type Action =
  /**
   * `proj`: in one of the org's projects (`p` chooses which; their custom fields apply), else
   * a personal task.
   */
  | { a: 'task.create'; proj?: boolean; p?: number }
  /** Under a top-level task. */
  | { a: 'subtask.create'; i: number }
  | { a: 'space.create' }
  /** In a space `i` chooses. */
  | { a: 'project.create'; i: number }
  /** `n` chooses the field and its value. */
  | { a: 'space.edit' | 'project.edit'; i: number; n: number }
  | { a: 'space.delete' | 'project.delete'; i: number }
  /** Time added to a task whole; `n` chooses the start, length, billing and notes. */
  | { a: 'timer.range' | 'timer.manual'; i: number; n: number }
  /** A stopped entry's start, duration or both corrected. */
  | { a: 'timer.fix'; i: number; n: number }
  | { a: 'timer.delete' | 'file.delete'; i: number }
  /** `n` in a row (1 to 3); an undo's `back`: that many redone right after it. */
  | { a: 'undo'; n: number; back: number }
  | { a: 'redo'; n: number }
  | { a: 'task.title' | 'task.priority' | 'task.status' | 'task.delete'; i: number }
  | { a: FieldEdit; i: number; n: number }
  | { a: 'item.create' | 'item.toggle' | 'item.rename' | 'item.delete'; i: number }
  | { a: 'upload'; i: number; pad: number }
  | { a: 'timer.start'; i: number }
  | { a: 'timer.toggle' | 'timer.stop' }
  | { a: 'sync' }
  | { a: 'fault'; kind: FaultKind; method: FaultMethod; count: number }
  | { a: 'latency' }
  | { a: 'heal' }
  /** `aim`: then at the first moment after it that the server has a request in flight. */
  | { a: 'kill'; afterMs: number; aim?: boolean }
  | { a: 'restart' }
  | { a: 'switch' }
  /** The second client (second-client.ts); `offline`: queued until its next sync. */
  | { a: 'write'; i: number; field: WriterField; alt: boolean; offline: boolean }
  | { a: 'writer.create'; i: number; item: boolean; offline: boolean }
  | { a: 'writer.delete'; i: number; item: boolean; offline: boolean }
  | { a: 'writer.sync' }
  | { a: 'wait' | 'wait.timer'; ms: number }
  | ClockAction;

export interface Case {
  quirky: boolean;
  /** The server's clock against the real one at the start (a sleep moves it on). */
  offsetMs: number;
  /** The child's clock against the real one at the start (a step or a sleep moves it). */
  clientOffsetMs: number;
  actions: Action[];
}

const i = fc.nat(999);
const on = <A extends Action['a']>(a: A) => i.map((n) => ({ a, i: n }) as Action);
const edit = (a: FieldEdit | Structural) =>
  fc.record({ i, n: fc.nat(11) }).map((r) => ({ a, ...r }) as Action);
const just = (a: Action) => fc.constant(a);
const w = (weight: number, arbitrary: fc.Arbitrary<Action>) => ({ weight, arbitrary });

export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  w(
    6,
    fc
      .record({ proj: fc.boolean(), p: fc.nat(3) })
      .map(({ proj, p }) => ({ a: 'task.create', proj, p }) as const),
  ),
  w(2, on('subtask.create')),
  w(1, just({ a: 'space.create' })),
  w(1, on('space.delete')),
  w(1, on('project.create')),
  w(1, on('project.delete')),
  w(1, edit('space.edit')),
  w(2, edit('project.edit')),
  w(2, edit('timer.range')),
  w(2, edit('timer.manual')),
  w(3, edit('timer.fix')),
  w(2, on('timer.delete')),
  w(2, on('file.delete')),
  w(
    8,
    fc
      .record({ n: fc.integer({ min: 1, max: 3 }), back: fc.nat(5) })
      .map(
        ({ n, back }) => ({ a: 'undo', n, back: back < 3 ? 0 : Math.min(n, back - 2) }) as const,
      ),
  ),
  w(
    5,
    fc.integer({ min: 1, max: 3 }).map((n) => ({ a: 'redo', n }) as const),
  ),
  w(3, on('task.title')),
  w(3, on('task.priority')),
  w(3, on('task.status')),
  w(3, on('task.delete')),
  w(2, edit('task.description')),
  w(2, edit('task.start')),
  w(2, edit('task.due')),
  w(2, edit('task.completion')),
  w(2, edit('task.owners')),
  w(2, edit('task.tags')),
  w(4, edit('task.cf')),
  w(5, on('item.create')),
  w(5, on('item.toggle')),
  w(2, on('item.rename')),
  w(2, edit('item.assign')),
  w(3, on('item.delete')),
  w(2, edit('file.rename')),
  w(2, edit('timer.notes')),
  w(1, edit('timer.billing')),
  w(
    3,
    fc.record({ i, pad: fc.nat(64) }).map((r) => ({ a: 'upload', ...r }) as const),
  ),
  w(5, on('timer.start')),
  w(12, just({ a: 'timer.toggle' })),
  w(5, just({ a: 'timer.stop' })),
  w(8, just({ a: 'sync' })),
  w(
    10,
    fc
      .record({
        kind: fc.constantFrom(...faultKinds),
        // Writes are what the faults are for; deletes are the rarest requests.
        method: fc.oneof(
          { weight: 1, arbitrary: fc.constant<FaultMethod>('GET') },
          { weight: 2, arbitrary: fc.constant<FaultMethod>('POST') },
          { weight: 2, arbitrary: fc.constant<FaultMethod>('PUT') },
          { weight: 3, arbitrary: fc.constant<FaultMethod>('DELETE') },
        ),
        count: fc.integer({ min: 1, max: 4 }),
      })
      .map((r) => ({ a: 'fault', ...r }) as const),
  ),
  w(2, just({ a: 'latency' })),
  w(3, just({ a: 'heal' })),
  w(
    2,
    fc
      .record({ afterMs: fc.integer({ min: 0, max: 40 }), aim: fc.boolean() })
      .map((r) => ({ a: 'kill', ...r }) as const),
  ),
  w(2, just({ a: 'restart' })),
  w(3, just({ a: 'switch' })),
  w(
    8,
    fc
      .record({
        i,
        field: fc.constantFrom<WriterField>(
          'title',
          'priority',
          'status',
          'description',
          'dueDate',
          'completion',
          'tags',
          'cf',
          'cf',
          'item.name',
        ),
        alt: fc.boolean(),
        offline: fc.boolean(),
      })
      .map((r) => ({ a: 'write', ...r }) as const),
  ),
  w(
    2,
    fc
      .record({ i, item: fc.boolean(), offline: fc.boolean() })
      .map((r) => ({ a: 'writer.create', ...r }) as const),
  ),
  w(
    2,
    fc
      .record({ i, item: fc.boolean(), offline: fc.boolean() })
      .map((r) => ({ a: 'writer.delete', ...r }) as const),
  ),
  w(3, just({ a: 'writer.sync' })),
  w(
    4,
    fc.integer({ min: 0, max: 30 }).map((ms) => ({ a: 'wait', ms }) as const),
  ),
  w(
    1,
    fc.integer({ min: 700, max: 1_600 }).map((ms) => ({ a: 'wait.timer', ms }) as const),
  ),
  w(3, clockStepArb),
  w(2, clockSleepArb),
);

/** Up to 10 minutes either way. */
const skewArb = (without: readonly string[]) =>
  without.includes('skew') ? fc.constant(0) : fc.integer({ min: -600_000, max: 600_000 });

/**
 * A case. `without` leaves action kinds out (and `skew`, both clocks' offsets at the start):
 * to look at one bug while another hides it, e.g. `MODEL_WITHOUT=skew,clock.step,timer.start`.
 */
export const caseArb = (maxActions: number, without: readonly string[] = []): fc.Arbitrary<Case> =>
  fc.record({
    quirky: fc.boolean(),
    offsetMs: skewArb(without),
    clientOffsetMs: skewArb(without),
    actions: fc.array(
      without.length === 0 ? actionArb : actionArb.filter((x) => !without.includes(x.a)),
      { minLength: 3, maxLength: maxActions, size: 'max' },
    ),
  });

/** The servers' access tokens live an hour; a skew of up to 10 minutes ahead shortens it. */
const SESSION_RENEW_MS = 30 * 60_000;

/** Actions that, when they do something, log it into the model. */
const modelled = new Set<Action['a']>([
  'task.create',
  'task.title',
  'task.priority',
  'task.status',
  'task.delete',
  'task.description',
  'task.start',
  'task.due',
  'task.completion',
  'task.owners',
  'task.tags',
  'task.cf',
  'item.assign',
  'file.rename',
  'timer.notes',
  'timer.billing',
  'item.create',
  'item.toggle',
  'item.rename',
  'item.delete',
  'upload',
  'timer.start',
  'timer.toggle',
  'timer.stop',
  'write',
  'writer.create',
  'writer.delete',
  'writer.sync',
  'subtask.create',
  'space.create',
  'project.create',
  'space.edit',
  'project.edit',
  'space.delete',
  'project.delete',
  'timer.range',
  'timer.manual',
  'timer.fix',
  'timer.delete',
  'file.delete',
]);

/** The model's start: each org's seeded tasks and item, as the server has them. */
const seededModel = (orgs: readonly SeededOrg[]): Model => {
  const model = new Model();
  for (const [org, o] of orgs.entries()) {
    const letter = 'ab'[org];
    const space = seededSpaceKey(org);
    const project = seededProjectKey(org);
    model.apply({
      type: 'seed',
      kind: 'space',
      key: space,
      org,
      id: o.spaceId,
      within: null,
      fields: placeFields('space', o.spaceName),
    });
    model.apply({
      type: 'seed',
      kind: 'project',
      key: project,
      org,
      id: o.projectId,
      within: space,
      fields: placeFields('project', o.projectName),
    });
    for (const [k, t] of o.tasks.entries())
      model.apply({
        type: 'seed-task',
        key: `${letter}s${k + 1}`,
        org,
        id: t.serverId,
        fields: t.fields,
        ...(t.projectId === null ? {} : { within: project }),
      });
    for (const [k, it] of o.items.entries())
      model.apply({
        type: 'seed-item',
        key: `${letter}sc${k + 1}`,
        org,
        id: it.serverId,
        task: `${letter}s1`,
        fields: { name: it.name, completed: it.completed },
      });
  }
  return model;
};

/**
 * Runs one case on fresh orgs and a fresh data directory, with the server's clock skewed for
 * its whole length; throws a CaseFailure telling what broke.
 */
/**
 * A case's log; with MODEL_LIVE=<file> each line is also appended there as it is written (to
 * follow a case that hangs: vitest shows a test's output only when it ends).
 */
const liveLog = (): string[] => {
  const file = process.env.MODEL_LIVE;
  const log: string[] = [];
  if (file)
    log.push = (...lines: string[]) => {
      appendFileSync(file, `${lines.join('\n')}\n`);
      return Array.prototype.push.apply(log, lines);
    };
  return log;
};

export const runCase = async (ctx: RunContext, c: Case): Promise<void> => {
  const t0 = performance.now();
  const ms = c.quirky ? ctx.servers.ignores : ctx.servers.honours;
  // A soak outlives the session (an hour, less the clock's skew): sign in afresh in time.
  if (Date.now() - ms.signedInAt > SESSION_RENEW_MS) await refreshSignIn(ms);
  const prefix = `m${++ctx.stats.cases}${c.quirky ? 'q' : 'h'}-`;
  // Skewed before anything is written: the server's times are all of its one clock (a clock
  // set back under existing rows would stamp them prev+1, ahead of itself).
  setClockOffset(ms, c.offsetMs);
  const orgs = [seedOrg(ms, `${prefix}A`, `${prefix}a-`), seedOrg(ms, `${prefix}B`, `${prefix}b-`)];
  const dataDir = join(ctx.workDir, prefix);
  mkdirSync(dataDir, { recursive: true });
  ctx.tokenSink = ms;
  if (!ctx.child?.alive) ctx.child = await spawnChild(ctx);
  const model = seededModel(orgs);
  model.setServerOffset(c.offsetMs);
  const run: CaseRun = {
    ctx,
    quirky: c.quirky,
    clocks: { server: c.offsetMs, client: c.clientOffsetMs },
    skews: { server: c.offsetMs, client: c.clientOffsetMs },
    ms,
    prefix,
    orgs,
    model,
    steps: new UserSteps(),
    did: undefined,
    dataDir,
    current: 0,
    opened: new Set(),
    log: liveLog(),
    touched: { user: new Map(), writer: new Map() },
    second: newSecondClient(`${dataDir}-second`),
    n: 0,
    child: () => {
      if (!ctx.child) throw new Error('no child');
      return ctx.child;
    },
    async open(org) {
      const first = !run.opened.has(org);
      run.opened.add(org);
      run.current = org;
      const opening = run.child().request({
        cmd: 'open',
        dataDir,
        serverUrl: ms.server.url,
        orgId: orgs[org]?.orgId ?? 0,
        userId: ms.demoUserId,
        auth: { kind: 'tokens', tokens: ms.tokens, user: ms.user },
        // A fresh replica has nothing to edit until its first fill.
        awaitSync: first,
        clockOffsetMs: run.clocks.client,
      });
      if (first) await Promise.all([opening, fillSecond(run, org)]);
      else await opening;
    },
    async close() {
      await run.child().request({ cmd: 'close' });
    },
    async edit(command, what) {
      try {
        const answer = await run.child().request({ cmd: 'edit', command });
        run.log.push(
          `  ${what} at ${answer.at} (engine ${answer.engineAt}) -> id ${answer.result.id}`,
        );
        return answer;
      } catch (error) {
        ctx.stats.refused++;
        run.log.push(`  ${what}: REFUSED ${(error as Error).message.split('\n')[0]}`);
        return null;
      }
    },
  };
  let t = clockIn(ctx.stats, 'seed', t0);
  try {
    await run.open(0);
    t = clockIn(ctx.stats, 'first open', t);
    for (const act of c.actions) {
      ctx.stats.actions++;
      run.log.push(`${JSON.stringify(act)} [org ${'AB'[run.current]}]`);
      const logged = run.model.log.length;
      const timing = run.model.activeTimer(run.current)?.state === 'RUNNING';
      await step(run, act);
      // An edit or a write that found nothing to act on (or was refused) did not happen.
      const last = run.model.log[run.model.log.length - 1];
      const kind =
        run.did ??
        (logged === run.model.log.length
          ? modelled.has(act.a) || (act.a === 'wait.timer' && !timing)
            ? 'no-op'
            : act.a
          : last?.type === 'timer-move'
            ? `timer.${last.move}`
            : act.a);
      run.did = undefined;
      ctx.stats.byAction[kind] = (ctx.stats.byAction[kind] ?? 0) + 1;
      t = clockIn(ctx.stats, act.a, t);
    }
    await endCase(run);
    ctx.stats.passedMs.push(performance.now() - t0);
  } catch (error) {
    if (error instanceof CaseFailure) throw error;
    // The harness or the child broke off the case: told with what had happened so far.
    throw new CaseFailure(
      [
        `the case broke off: ${error instanceof Error ? error.message : String(error)}`,
        `case: ${c.quirky ? 'quirky' : 'honouring'} server, ${clocksOf(c.offsetMs, c.clientOffsetMs, run.clocks)}, prefix ${prefix}`,
        'actions (with what each did):',
        ...run.log.map((l) => `  ${l}`),
      ].join('\n'),
    );
  } finally {
    await tidyUp(run);
    clockIn(ctx.stats, 'end', t);
  }
};

/** Whatever happened: the engine closed (or its child gone), the clock and faults reset. */
const tidyUp = async (run: CaseRun) => {
  const { ctx, ms } = run;
  try {
    if (ctx.child?.alive) await run.close();
  } catch {
    await ctx.child?.kill();
    ctx.child = null;
  }
  healFaults(ms);
  setClockOffset(ms, 0);
  rmSync(run.dataDir, { recursive: true, force: true });
  rmSync(run.second.dir, { recursive: true, force: true });
};
