import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AwayController } from './away-controller';
import type { AwayChoice, AwayPrompt } from './away-edits';
import { memoryHost } from './memory-host.test-support';
import { TrayController } from './tray-controller';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const setup = async (answer: AwayChoice, answerAfterMs = 0) => {
  dir = mkdtempSync(path.join(tmpdir(), 'away-'));
  let clock = T0;
  let idle = 0;
  const host = memoryHost(() => clock, { 7: 'Quarterly report' });
  const noop = () => {};
  const tray = new TrayController({
    endpoint: host.endpoint,
    now: () => clock,
    tray: { setTitle: noop, setToolTip: noop, setMenu: noop },
    hooks: {
      openApp: noop,
      openTask: noop,
      openView: noop,
      checkForUpdates: noop,
      restartToUpdate: noop,
      quit: noop,
      showError: noop,
    },
  });
  const prompts: AwayPrompt[] = [];
  const away = new AwayController({
    endpoint: host.endpoint,
    timer: tray,
    dataDir: dir,
    idleMinutes: 5,
    now: () => clock,
    idleSeconds: () => idle,
    ask: async (p) => {
      prompts.push(p);
      clock += answerAfterMs;
      return answer;
    },
  });
  await host.endpoint.call('edits.apply', { kind: 'timer.start', taskId: 7 });
  await tray.start();
  return {
    host,
    tray,
    away,
    prompts,
    at: (ms: number, idleSeconds: number) => {
      clock = T0 + ms;
      idle = idleSeconds;
    },
  };
};

/** 30 minutes of work, 25 away, back at 0:55 with 10 s of input. */
const goAwayAndBack = async (s: Awaited<ReturnType<typeof setup>>) => {
  s.at(30 * MIN, 0);
  await s.away.pollIdle();
  s.at(36 * MIN, 6 * 60);
  await s.away.pollIdle();
  s.at(55 * MIN, 0);
  await s.away.pollIdle();
};

describe('AwayController: idle time of a running timer', () => {
  it('keep: the timer keeps the 25 minutes', async () => {
    const s = await setup('keep');
    await goAwayAndBack(s);
    expect(s.prompts.map((p) => p.message)).toEqual([
      'You were away from the computer for 0:25:00 while the timer ran',
    ]);
    expect(s.host.summary()).toEqual([[7, 'RUNNING', 55 * 60]]);
  });

  it('discard: the timer loses the 25 minutes and keeps counting', async () => {
    const s = await setup('discard');
    await goAwayAndBack(s);
    expect(s.host.summary()).toEqual([[7, 'RUNNING', 30 * 60]]);
    expect(s.host.applied.at(-1)).toEqual({
      kind: 'timer.update',
      trackId: 1,
      patch: { durationSeconds: 30 * 60 },
    });
  });

  it('split: 30 minutes on the timer, the 25 away minutes as an entry of their own', async () => {
    const s = await setup('split');
    await goAwayAndBack(s);
    expect(s.host.summary()).toEqual([
      [7, 'RUNNING', 30 * 60],
      [7, 'STOPPED', 25 * 60],
    ]);
  });

  it('an answer given later keeps the time worked since coming back', async () => {
    const s = await setup('discard', 10 * MIN);
    await goAwayAndBack(s);
    // Back at 0:55, answered at 1:05: 30 worked + 10 since back.
    expect(s.host.summary()).toEqual([[7, 'RUNNING', 40 * 60]]);
  });

  it('a sleep is asked about on resume, and a paused timer is never asked about', async () => {
    const s = await setup('discard');
    s.at(10 * MIN, 0);
    s.away.suspend();
    s.at(70 * MIN, 0);
    await s.away.resume();
    expect(s.prompts[0]?.message).toBe('The computer was asleep for 1:00:00 while the timer ran');
    expect(s.host.summary()).toEqual([[7, 'RUNNING', 10 * 60]]);

    await s.tray.perform({ kind: 'pause', trackId: 1 });
    s.away.suspend();
    s.at(200 * MIN, 0);
    await s.away.resume();
    expect(s.prompts).toHaveLength(1);
  });

  it('a shutdown is asked about at the next launch if the timer still runs', async () => {
    const s = await setup('split');
    s.at(20 * MIN, 0);
    s.away.shutdown();
    s.at(20 * MIN + 8 * 60 * MIN, 0);
    // The next launch, before its session resumed: nothing is known yet, nothing is asked.
    const next = new AwayController({
      endpoint: s.host.endpoint,
      timer: { state: { ...s.tray.state, signedIn: false, active: null }, refresh: s.tray.refresh },
      dataDir: dir,
      idleMinutes: 5,
      idleSeconds: () => 0,
      ask: async () => 'keep',
    });
    await next.atLaunch();
    await s.away.atLaunch();
    expect(s.prompts[0]?.message).toBe(
      'The computer was shut down for 8:00:00 while the timer ran',
    );
    expect(s.host.summary()).toEqual([
      [7, 'RUNNING', 20 * 60],
      [7, 'STOPPED', 8 * 60 * 60],
    ]);
    await s.away.atLaunch();
    expect(s.prompts).toHaveLength(1);
  });
});
