/**
 * Task Timer against the reference server, through the typed client. The server's clock is
 * frozen and moved only through PUT /__admin/clock, so every duration is exact: the state table
 * with each 409, running time excluding pauses, one active timer per user, stop at an endTime,
 * edits, ranges and manual time, personal versus project tasks, ownership, and timesheets.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClock } from '../../server/clock';
import type { ApiClient } from '../../sync/api';
import {
  advanceClock,
  failure,
  insertProject,
  insertTask,
  rawCaller,
  taskWorld,
} from '../support/fixtures-items';
import { aliceBobCarol, signedIn, suiteServer } from './support';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('Task Timer', () => {
  const frozen = Date.now();
  // Tokens outlive the clock moves below, so no refresh happens mid-test.
  const ctx = suiteServer(
    { ...aliceBobCarol, aliceInGlobex: signedIn('alice', 'globex') },
    { clock: createClock(() => frozen), accessTtlSec: 30 * 24 * 3600 },
  );
  let world: ReturnType<typeof taskWorld>;
  let otherProject: { projectId: number; task: number };
  let globex: { projectId: number; task: number; personal: number };

  const now = () => ctx.server.deps.clock.now();
  const advance = (ms: number) => advanceClock(ctx.server, ms);

  beforeAll(() => {
    const { db } = ctx.server.deps;
    const acme = { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice };
    world = taskWorld(db, acme, now());
    const p2 = insertProject(db, acme, world.spaceId, now(), 'Other project');
    otherProject = {
      projectId: p2,
      task: insertTask(db, acme, now(), { spaceId: world.spaceId, projectId: p2 }),
    };
    const g = taskWorld(
      db,
      { orgId: ctx.server.orgs.globex, userId: ctx.server.users.carol },
      now(),
    );
    globex = { projectId: g.projectId, task: g.projectTask, personal: g.personal };
  });
  beforeEach(() => {
    ctx.server.deps.db.prepare('DELETE FROM timers').run();
  });

  const personal = () => ({ taskId: world.personal });
  const startPersonal = (c: ApiClient = ctx.alice, body = {}) =>
    c.ops.startTimer({ path: personal(), body });

  it('start, pause, resume, stop: durations count running time only', async () => {
    const t0 = now();
    const started = await startPersonal(ctx.alice, { notes: 'deep work' });
    expect(started).toMatchObject({
      state: 'RUNNING',
      taskId: world.personal,
      projectId: null,
      userId: ctx.server.users.alice,
      startTime: t0,
      endTime: null,
      durationSeconds: 0,
      billingStatus: 'BILLABLE',
      notes: 'deep work',
    });
    const track = { trackId: started.trackId };
    await advance(61_500);
    const paused = await ctx.alice.ops.pauseTimer({ path: track });
    expect(paused).toMatchObject({ state: 'PAUSED', durationSeconds: 61 });
    await advance(30 * MIN);
    const [active] = await ctx.alice.ops.getActiveTimers();
    expect(active).toMatchObject({
      trackId: started.trackId,
      state: 'PAUSED',
      durationSeconds: 61,
    });
    const resumed = await ctx.alice.ops.resumeTimer({ path: track });
    expect(resumed).toMatchObject({ state: 'RUNNING', durationSeconds: 61 });
    await advance(45_000);
    expect((await ctx.alice.ops.getTaskTimers({ path: personal() }))[0]?.durationSeconds).toBe(106);
    const stopped = await ctx.alice.ops.stopTimer({ path: track, body: {} });
    expect(stopped).toMatchObject({
      state: 'STOPPED',
      durationSeconds: 106,
      startTime: t0,
      endTime: t0 + 61_500 + 30 * MIN + 45_000,
      notes: 'deep work',
    });
    await advance(10 * MIN);
    expect((await ctx.alice.ops.getTaskTimers({ path: personal() }))[0]?.durationSeconds).toBe(106);
    expect(await ctx.alice.ops.getActiveTimers()).toEqual([]);
  });

  it('every move the state table does not allow is a 409 and changes nothing', async () => {
    const t = await startPersonal();
    const track = { trackId: t.trackId };
    const snapshot = async () => ctx.alice.ops.getTaskTimers({ path: personal() });
    const conflicts = async (calls: (() => Promise<unknown>)[]) => {
      const before = await snapshot();
      const errors = await Promise.all(calls.map((call) => failure(call())));
      expect(errors.map((e) => e.status)).toEqual(calls.map(() => 409));
      expect(await snapshot()).toEqual(before);
    };
    // RUNNING: no second start anywhere, no resume.
    await conflicts([
      () => startPersonal(),
      () => ctx.alice.ops.startTimer({ path: { taskId: world.personalSub }, body: {} }),
      () =>
        ctx.alice.ops.startProjectTaskTimer({
          path: { projectId: world.projectId, taskId: world.projectTask },
          body: {},
        }),
      () => ctx.alice.ops.resumeTimer({ path: track }),
    ]);
    await ctx.alice.ops.pauseTimer({ path: track });
    // PAUSED: still active, so no start; no second pause.
    await conflicts([
      () => startPersonal(),
      () =>
        ctx.alice.ops.startProjectTaskTimer({
          path: { projectId: world.projectId, taskId: world.projectTask },
          body: {},
        }),
      () => ctx.alice.ops.pauseTimer({ path: track }),
    ]);
    await ctx.alice.ops.stopTimer({ path: track, body: {} });
    // STOPPED: nothing moves it any more.
    await conflicts([
      () => ctx.alice.ops.pauseTimer({ path: track }),
      () => ctx.alice.ops.resumeTimer({ path: track }),
      () => ctx.alice.ops.stopTimer({ path: track, body: {} }),
    ]);
    // And a new start is allowed again.
    expect((await startPersonal()).state).toBe('RUNNING');
  });

  it('one active timer per user and org', async () => {
    const mine = await startPersonal();
    // Other users, and the same user in another org, are independent.
    expect((await startPersonal(ctx.bob)).state).toBe('RUNNING');
    expect(
      (await ctx.aliceInGlobex.ops.startTimer({ path: { taskId: globex.personal }, body: {} }))
        .state,
    ).toBe('RUNNING');
    expect((await failure(startPersonal())).status).toBe(409);
    const active = ctx.server.deps.db
      .prepare(
        "SELECT COUNT(*) AS n FROM timers WHERE user_id = ? AND org_id = ? AND state <> 'STOPPED'",
      )
      .get(ctx.server.users.alice, ctx.server.orgs.acme);
    expect(active).toEqual({ n: 1 });
    expect((await ctx.alice.ops.getActiveTimers()).map((t) => t.trackId)).toEqual([mine.trackId]);
    // Deleting the active timer frees the slot as stopping does.
    await ctx.alice.ops.deleteTimeTracker({ path: { trackId: mine.trackId } });
    expect((await startPersonal()).state).toBe('RUNNING');
  });

  it('stop may carry an endTime: not in the future, not before the last resume', async () => {
    const t0 = now();
    const t = await startPersonal();
    const track = { trackId: t.trackId };
    await advance(MIN);
    await ctx.alice.ops.pauseTimer({ path: track });
    await advance(MIN);
    await ctx.alice.ops.resumeTimer({ path: track });
    await advance(MIN);
    for (const endTime of [now() + 1, t0 + 2 * MIN - 1]) {
      const e = await failure(ctx.alice.ops.stopTimer({ path: track, body: { endTime } }));
      expect(e.status).toBe(400);
      expect(e.fieldErrors.map((f) => f.field)).toContain('endTime');
    }
    // Stop is no edit: a start time other than the stored one is refused, the stored one echoed back is fine.
    const moved = await failure(
      ctx.alice.ops.stopTimer({ path: track, body: { startTime: t0 - 1 } }),
    );
    expect(moved.fieldErrors.map((f) => f.field)).toContain('startTime');
    expect((await ctx.alice.ops.getActiveTimers())[0]).toMatchObject({
      state: 'RUNNING',
      durationSeconds: 120,
    });
    const stopped = await ctx.alice.ops.stopTimer({
      path: track,
      body: { endTime: t0 + 2 * MIN + 30_000, startTime: t0 },
    });
    expect(stopped).toMatchObject({
      state: 'STOPPED',
      durationSeconds: 90,
      endTime: t0 + 2 * MIN + 30_000,
    });

    // A paused timer stops with the running time it holds; notes and billing may come along.
    const p = await startPersonal();
    await advance(10_000);
    await ctx.alice.ops.pauseTimer({ path: { trackId: p.trackId } });
    await advance(10_000);
    const end = now();
    const stoppedPaused = await ctx.alice.ops.stopTimer({
      path: { trackId: p.trackId },
      body: { notes: 'short', billingStatus: 'NON_BILLABLE' },
    });
    expect(stoppedPaused).toMatchObject({
      durationSeconds: 10,
      endTime: end,
      notes: 'short',
      billingStatus: 'NON_BILLABLE',
    });
  });

  it('a start may be backdated, never put in the future or given an end', async () => {
    const backdated = await startPersonal(ctx.alice, {
      startTime: now() - 10 * MIN,
      billingStatus: 'NON_BILLABLE',
    });
    expect(backdated).toMatchObject({
      startTime: now() - 10 * MIN,
      durationSeconds: 600,
      billingStatus: 'NON_BILLABLE',
    });
    await ctx.alice.ops.deleteTimeTracker({ path: { trackId: backdated.trackId } });
    for (const body of [{ startTime: now() + 1 }, { endTime: now() }]) {
      const e = await failure(startPersonal(ctx.alice, body));
      expect(e.status).toBe(400);
    }
    expect(await ctx.alice.ops.getActiveTimers()).toEqual([]);
  });

  it('updateTimer sets billing, notes, start and duration', async () => {
    const t0 = now();
    const range = await ctx.alice.ops.addNewTimeRange({
      path: personal(),
      body: { startTime: t0 - 2 * HOUR, endTime: t0 - HOUR },
    });
    const track = { trackId: range.trackId };
    const edited = await ctx.alice.ops.updateTimer({
      path: track,
      body: {
        billingStatus: 'NON_BILLABLE',
        notes: 'fixed',
        startTime: t0 - 3 * HOUR,
        durationSeconds: 1800,
      },
    });
    expect(edited).toMatchObject({
      state: 'STOPPED',
      billingStatus: 'NON_BILLABLE',
      notes: 'fixed',
      startTime: t0 - 3 * HOUR,
      durationSeconds: 1800,
      endTime: t0 - 3 * HOUR + 30 * MIN,
    });
    // The same numbers with other notes: the span stays exactly as it was; omitted notes clear.
    const notesOnly = await ctx.alice.ops.updateTimer({
      path: track,
      body: { billingStatus: 'BILLABLE', startTime: t0 - 3 * HOUR, durationSeconds: 1800 },
    });
    expect(notesOnly).toMatchObject({
      billingStatus: 'BILLABLE',
      notes: null,
      endTime: t0 - 3 * HOUR + 30 * MIN,
    });

    // A running timer reads as sent, and keeps counting.
    const running = await startPersonal();
    await advance(10_000);
    const set = await ctx.alice.ops.updateTimer({
      path: { trackId: running.trackId },
      body: {
        billingStatus: 'BILLABLE',
        notes: 'set',
        startTime: running.startTime - 10 * MIN,
        durationSeconds: 300,
      },
    });
    expect(set).toMatchObject({
      state: 'RUNNING',
      durationSeconds: 300,
      startTime: running.startTime - 10 * MIN,
    });
    await advance(10_000);
    expect((await ctx.alice.ops.getActiveTimers())[0]?.durationSeconds).toBe(310);
    // Paused: reads as sent and stays.
    await ctx.alice.ops.pauseTimer({ path: { trackId: running.trackId } });
    await ctx.alice.ops.updateTimer({
      path: { trackId: running.trackId },
      body: {
        billingStatus: 'BILLABLE',
        startTime: running.startTime - 10 * MIN,
        durationSeconds: 100,
      },
    });
    await advance(10_000);
    expect((await ctx.alice.ops.getActiveTimers())[0]).toMatchObject({
      state: 'PAUSED',
      durationSeconds: 100,
    });
    // More running time than has passed since the start, or a future start: refused.
    const tooLong = await failure(
      ctx.alice.ops.updateTimer({
        path: { trackId: running.trackId },
        body: { billingStatus: 'BILLABLE', startTime: now() - MIN, durationSeconds: 61 },
      }),
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.fieldErrors.map((f) => f.field)).toContain('durationSeconds');
    const future = await failure(
      ctx.alice.ops.updateTimer({
        path: { trackId: running.trackId },
        body: { billingStatus: 'BILLABLE', startTime: now() + 1, durationSeconds: 0 },
      }),
    );
    expect(future.status).toBe(400);
    expect((await ctx.alice.ops.getActiveTimers())[0]).toMatchObject({
      durationSeconds: 100,
      notes: null,
    });
  });

  it('deleteTimeTracker answers no data and removes the record', async () => {
    const r = await ctx.alice.ops.addNewTimeRange({
      path: personal(),
      body: { startTime: now() - HOUR, endTime: now() },
    });
    const raw = await rawCaller(ctx.server, 'alice', 'acme');
    const res = await raw('DELETE', `/v1/time-track/${r.trackId}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.success).toBe(true);
    expect('data' in body).toBe(false);
    expect(await ctx.alice.ops.getTaskTimers({ path: personal() })).toEqual([]);
    expect(
      (await failure(ctx.alice.ops.deleteTimeTracker({ path: { trackId: r.trackId } }))).status,
    ).toBe(404);
    const r2 = await ctx.alice.ops.addNewTimeRange({
      path: personal(),
      body: { startTime: now() - HOUR, endTime: now() },
    });
    expect(
      await ctx.alice.ops.deleteTimeTracker({ path: { trackId: r2.trackId } }),
    ).toBeUndefined();
  });

  it('only the owner moves, edits or deletes a timer; others get 404', async () => {
    const t = await startPersonal();
    const track = { trackId: t.trackId };
    const edit = { billingStatus: 'BILLABLE' as const, startTime: t.startTime, durationSeconds: 0 };
    for (const other of [ctx.bob, ctx.carol, ctx.aliceInGlobex]) {
      const errors = await Promise.all([
        failure(other.ops.pauseTimer({ path: track })),
        failure(other.ops.resumeTimer({ path: track })),
        failure(other.ops.stopTimer({ path: track, body: {} })),
        failure(other.ops.updateTimer({ path: track, body: edit })),
        failure(other.ops.deleteTimeTracker({ path: track })),
      ]);
      expect(errors.map((e) => e.status)).toEqual([404, 404, 404, 404, 404]);
    }
    expect(await ctx.bob.ops.getActiveTimers()).toEqual([]);
    expect(await ctx.bob.ops.getTaskTimers({ path: personal() })).toEqual([]);
    expect((await ctx.alice.ops.getActiveTimers())[0]).toMatchObject({
      trackId: t.trackId,
      state: 'RUNNING',
    });
  });

  it('range and manual time create stopped records', async () => {
    const t0 = now();
    const range = await ctx.alice.ops.addNewTimeRange({
      path: personal(),
      body: { startTime: t0 - 3 * HOUR, endTime: t0 - HOUR },
    });
    expect(range).toMatchObject({
      state: 'STOPPED',
      startTime: t0 - 3 * HOUR,
      endTime: t0 - HOUR,
      durationSeconds: 7200,
      billingStatus: 'BILLABLE',
      projectId: null,
    });
    const manual = await ctx.alice.ops.addNewManualTime({
      path: personal(),
      body: {
        hours: 1,
        minutes: 30,
        startTime: t0 - 5 * HOUR,
        billingStatus: 'NON_BILLABLE',
        notes: 'call',
      },
    });
    expect(manual).toMatchObject({
      state: 'STOPPED',
      startTime: t0 - 5 * HOUR,
      endTime: t0 - 5 * HOUR + 90 * MIN,
      durationSeconds: 5400,
      billingStatus: 'NON_BILLABLE',
      notes: 'call',
    });
    // Neither occupies the active slot.
    expect(await ctx.alice.ops.getActiveTimers()).toEqual([]);
    expect((await ctx.alice.ops.getTaskTimers({ path: personal() })).map((t) => t.trackId)).toEqual(
      [manual.trackId, range.trackId],
    );
    // Malformed ones are refused by the server (the client would refuse them before sending).
    const raw = await rawCaller(ctx.server, 'alice', 'acme');
    const bad: [string, unknown][] = [
      ['range', { startTime: t0, endTime: t0 }],
      ['range', { startTime: t0 }],
      ['manual', { hours: 0, minutes: 0, startTime: t0, billingStatus: 'BILLABLE' }],
      ['manual', { hours: 1, minutes: 60, startTime: t0, billingStatus: 'BILLABLE' }],
      ['manual', { hours: 1, minutes: 0, startTime: t0, billingStatus: 'SOMETIMES' }],
    ];
    for (const [kind, body] of bad)
      expect(
        (await raw('POST', `/v1/time-track/tasks/${world.personal}/${kind}`, body)).status,
      ).toBe(400);
    expect(await ctx.alice.ops.getTaskTimers({ path: personal() })).toHaveLength(2);
  });

  it('personal variants take personal tasks (and their subtasks) only; project variants a task of that project', async () => {
    const t0 = now();
    const range = { startTime: t0 - HOUR, endTime: t0 };
    const manual = {
      hours: 0,
      minutes: 15,
      startTime: t0 - HOUR,
      billingStatus: 'BILLABLE' as const,
    };
    // A personal subtask counts as personal.
    expect(
      (await ctx.alice.ops.addNewTimeRange({ path: { taskId: world.personalSub }, body: range }))
        .taskId,
    ).toBe(world.personalSub);
    const personalRefused = await Promise.all(
      [world.projectTask, world.projectSub, globex.personal, 999_999].flatMap((taskId) => [
        failure(ctx.alice.ops.startTimer({ path: { taskId }, body: {} })),
        failure(ctx.alice.ops.addNewTimeRange({ path: { taskId }, body: range })),
        failure(ctx.alice.ops.addNewManualTime({ path: { taskId }, body: manual })),
      ]),
    );
    expect(personalRefused.map((e) => e.status)).toEqual(Array(12).fill(404));

    const p = { projectId: world.projectId, taskId: world.projectTask };
    const started = await ctx.alice.ops.startProjectTaskTimer({ path: p, body: {} });
    expect(started).toMatchObject({
      projectId: world.projectId,
      taskId: world.projectTask,
      state: 'RUNNING',
    });
    await ctx.alice.ops.stopTimer({ path: { trackId: started.trackId }, body: {} });
    const sub = await ctx.alice.ops.addRangeTimerForProjectTask({
      path: { projectId: world.projectId, taskId: world.projectSub },
      body: range,
    });
    expect(sub).toMatchObject({
      projectId: world.projectId,
      taskId: world.projectSub,
      durationSeconds: 3600,
    });
    const man = await ctx.alice.ops.addNewManualTimeForTask({ path: p, body: manual });
    expect(man).toMatchObject({ projectId: world.projectId, durationSeconds: 900 });

    const wrong = [
      { projectId: world.projectId, taskId: world.personal },
      { projectId: world.projectId, taskId: otherProject.task },
      { projectId: otherProject.projectId, taskId: world.projectTask },
      { projectId: globex.projectId, taskId: globex.task },
      { projectId: 999_999, taskId: world.projectTask },
    ];
    const projectRefused = await Promise.all(
      wrong.flatMap((path) => [
        failure(ctx.alice.ops.startProjectTaskTimer({ path, body: {} })),
        failure(ctx.alice.ops.addRangeTimerForProjectTask({ path, body: range })),
        failure(ctx.alice.ops.addNewManualTimeForTask({ path, body: manual })),
      ]),
    );
    expect(projectRefused.map((e) => e.status)).toEqual(Array(15).fill(404));
    // Carol cannot reach Acme's tasks either.
    expect((await failure(ctx.carol.ops.startTimer({ path: personal(), body: {} }))).status).toBe(
      404,
    );
    expect((await failure(ctx.carol.ops.getTaskTimers({ path: personal() }))).status).toBe(404);
    expect(await ctx.alice.ops.getActiveTimers()).toEqual([]);
  });

  it('getTaskTimers lists the caller’s own timers on that task', async () => {
    const t0 = now();
    const a1 = await ctx.alice.ops.addNewTimeRange({
      path: personal(),
      body: { startTime: t0 - 2 * HOUR, endTime: t0 - HOUR },
    });
    await ctx.bob.ops.addNewTimeRange({
      path: personal(),
      body: { startTime: t0 - 2 * HOUR, endTime: t0 - HOUR },
    });
    await ctx.alice.ops.addNewTimeRange({
      path: { taskId: world.personalSub },
      body: { startTime: t0 - HOUR, endTime: t0 },
    });
    const a2 = await startPersonal();
    expect((await ctx.alice.ops.getTaskTimers({ path: personal() })).map((t) => t.trackId)).toEqual(
      [a1.trackId, a2.trackId],
    );
    expect((await ctx.bob.ops.getTaskTimers({ path: personal() })).map((t) => t.userId)).toEqual([
      ctx.server.users.bob,
    ]);
  });

  describe('timesheets', () => {
    /** Entries around the window [F, F + 10 h), F one day back. */
    const seedSheet = async () => {
      const F = now() - 24 * HOUR;
      const to = F + 10 * HOUR;
      const rangeOn = (c: ApiClient, taskId: number, start: number, end: number) =>
        c.ops.addNewTimeRange({ path: { taskId }, body: { startTime: start, endTime: end } });
      const p = (taskId: number) => ({ projectId: world.projectId, taskId });
      const e2 = await rangeOn(ctx.alice, world.personal, F - HOUR, F + 30 * MIN); // overlaps from
      const e6 = await rangeOn(ctx.alice, world.personal, F - HOUR, F + 11 * HOUR); // covers the window
      const e1 = await rangeOn(ctx.alice, world.personal, F + HOUR, F + 2 * HOUR); // inside
      const e3 = await rangeOn(ctx.alice, world.personal, F + 9.5 * HOUR, F + 11 * HOUR); // overlaps to
      await rangeOn(ctx.alice, world.personal, F - 2 * HOUR, F); // ends at from: out
      await rangeOn(ctx.alice, world.personal, to, to + HOUR); // starts at to: out
      const p1 = await ctx.alice.ops.addNewManualTimeForTask({
        path: p(world.projectTask),
        body: { hours: 1, minutes: 0, startTime: F + 3 * HOUR, billingStatus: 'NON_BILLABLE' },
      });
      const p2 = await ctx.bob.ops.addRangeTimerForProjectTask({
        path: p(world.projectTask),
        body: { startTime: F + 4 * HOUR, endTime: F + 6 * HOUR },
      });
      const p3 = await ctx.bob.ops.addRangeTimerForProjectTask({
        path: p(world.projectSub),
        body: { startTime: F + 5 * HOUR, endTime: F + 5.5 * HOUR },
      });
      const b1 = await rangeOn(ctx.bob, world.personal, F + HOUR, F + 2 * HOUR);
      // Another project's time is alice's (her sheet) but not this project's; another org's is neither.
      const o1 = await ctx.alice.ops.addRangeTimerForProjectTask({
        path: { projectId: otherProject.projectId, taskId: otherProject.task },
        body: { startTime: F + HOUR, endTime: F + 2 * HOUR },
      });
      await ctx.carol.ops.addRangeTimerForProjectTask({
        path: { projectId: globex.projectId, taskId: globex.task },
        body: { startTime: F + HOUR, endTime: F + 2 * HOUR },
      });
      return { from: F, to, e1, e2, e3, e6, p1, p2, p3, b1, o1 };
    };

    it('the user’s sheet: entries starting in or overlapping [from, to), whole durations summed', async () => {
      const s = await seedSheet();
      const sheet = await ctx.alice.ops.getTimesheet({ query: { from: s.from, to: s.to } });
      expect(sheet.from).toBe(s.from);
      expect(sheet.to).toBe(s.to);
      expect(sheet.entries.map((e) => e.trackId)).toEqual([
        s.e2.trackId,
        s.e6.trackId,
        s.e1.trackId,
        s.o1.trackId,
        s.p1.trackId,
        s.e3.trackId,
      ]);
      expect(sheet.totalSeconds).toBe(5400 + 12 * 3600 + 3600 + 3600 + 3600 + 5400);
      const bobs = await ctx.bob.ops.getTimesheet({ query: { from: s.from, to: s.to } });
      expect(bobs.entries.map((e) => e.trackId)).toEqual([
        s.b1.trackId,
        s.p2.trackId,
        s.p3.trackId,
      ]);
      expect(bobs.totalSeconds).toBe(3600 + 7200 + 1800);
      expect(
        (await ctx.aliceInGlobex.ops.getTimesheet({ query: { from: s.from, to: s.to } })).entries,
      ).toEqual([]);
    });

    it('an open timer spans until now', async () => {
      const s = await seedSheet();
      const running = await startPersonal();
      await advance(10 * MIN);
      const around = await ctx.alice.ops.getTimesheet({
        query: { from: now() - HOUR, to: now() + HOUR },
      });
      expect(around.entries.map((e) => [e.trackId, e.durationSeconds])).toEqual([
        [running.trackId, 600],
      ]);
      expect(around.totalSeconds).toBe(600);
      // Started before the window, still running into it.
      const later = await ctx.alice.ops.getTimesheet({
        query: { from: now() - MIN, to: now() + HOUR },
      });
      expect(later.entries.map((e) => e.trackId)).toEqual([running.trackId]);
      expect(
        (await ctx.alice.ops.getTimesheet({ query: { from: s.from, to: s.to } })).entries,
      ).toHaveLength(6);
    });

    it('the project sheet has every user’s entries on the project, and its summary adds up', async () => {
      const s = await seedSheet();
      const q = { from: s.from, to: s.to };
      const sheet = await ctx.bob.ops.getProjectTimesheet({
        path: { projectId: world.projectId },
        query: q,
      });
      expect(sheet.entries.map((e) => e.trackId)).toEqual([
        s.p1.trackId,
        s.p2.trackId,
        s.p3.trackId,
      ]);
      expect(sheet.totalSeconds).toBe(3600 + 7200 + 1800);
      const summary = await ctx.alice.ops.getProjectTimesheetSummary({
        path: { projectId: world.projectId },
        query: q,
      });
      expect(summary).toEqual({
        projectId: world.projectId,
        from: s.from,
        to: s.to,
        totalSeconds: 12_600,
        billableSeconds: 9000,
        nonBillableSeconds: 3600,
        byUser: [
          { userId: ctx.server.users.bob, seconds: 9000 },
          { userId: ctx.server.users.alice, seconds: 3600 },
        ],
        byTask: [
          { taskId: world.projectTask, seconds: 10_800 },
          { taskId: world.projectSub, seconds: 1800 },
        ],
      });
      // Outside the window: empty, zero.
      const empty = await ctx.alice.ops.getProjectTimesheetSummary({
        path: { projectId: world.projectId },
        query: { from: s.to + 2 * HOUR, to: s.to + 3 * HOUR },
      });
      expect(empty).toMatchObject({
        totalSeconds: 0,
        billableSeconds: 0,
        nonBillableSeconds: 0,
        byUser: [],
        byTask: [],
      });
    });

    it('refuses from ≥ to with 400 and another org’s project with 404', async () => {
      const t = now();
      const q = { from: t, to: t };
      const p = { projectId: world.projectId };
      const errors = await Promise.all([
        failure(ctx.alice.ops.getTimesheet({ query: q })),
        failure(ctx.alice.ops.getTimesheet({ query: { from: t, to: t - 1 } })),
        failure(ctx.alice.ops.getProjectTimesheet({ path: p, query: q })),
        failure(ctx.alice.ops.getProjectTimesheetSummary({ path: p, query: q })),
      ]);
      expect(errors.map((e) => e.status)).toEqual([400, 400, 400, 400]);
      const ok = { from: t - HOUR, to: t };
      const hidden = await Promise.all([
        failure(ctx.carol.ops.getProjectTimesheet({ path: p, query: ok })),
        failure(ctx.aliceInGlobex.ops.getProjectTimesheetSummary({ path: p, query: ok })),
        failure(
          ctx.alice.ops.getProjectTimesheet({ path: { projectId: globex.projectId }, query: ok }),
        ),
      ]);
      expect(hidden.map((e) => e.status)).toEqual([404, 404, 404]);
      const raw = await rawCaller(ctx.server, 'alice', 'acme');
      expect((await raw('GET', '/v1/time-track/timesheet?from=1')).status).toBe(400);
    });
  });
});
