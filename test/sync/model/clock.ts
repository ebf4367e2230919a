/**
 * The child's clock moving mid-case, while edits are queued (issue 23): an NTP step (this
 * machine's clock corrected, either way, seconds to minutes: the server's clock does not move)
 * and a sleep (the laptop suspended: the world's time, the server's clock with it, went on
 * while this process was frozen, and the wall clock shows it all at once on waking).
 *
 * A sleep cannot take real time here, so it is played as both clocks moving forward by its
 * length at once: to the engine, as on a real waking, its wall clock jumped and the server's
 * clock is as far ahead as before. A step moves the child's clock alone.
 */
import fc from 'fast-check';
import type { CaseRun } from './case-run';
import { setClockOffsetAt } from './server-side';

export type ClockAction = { a: 'clock.step'; ms: number } | { a: 'clock.sleep'; ms: number };

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** A step of 2 s to 5 min, forward or back. */
export const clockStepArb: fc.Arbitrary<ClockAction> = fc
  .tuple(fc.integer({ min: 2 * SECOND, max: 5 * MINUTE }), fc.boolean())
  .map(([ms, back]) => ({ a: 'clock.step', ms: back ? -ms : ms }));

/** A sleep of 1 to 20 minutes. */
export const clockSleepArb: fc.Arbitrary<ClockAction> = fc
  .integer({ min: MINUTE, max: 20 * MINUTE })
  .map((ms) => ({ a: 'clock.sleep', ms }));

/**
 * How far ahead a move's moment is set: the child has its new offset (told over IPC) before
 * it, even on a loaded machine.
 */
const LEAD_MS = 150;

/**
 * Plays a step or a sleep: the live child's clock moved, and the server's with it for a sleep,
 * at one real instant that both clocks read for themselves: one of the two moving first would
 * show the engine an answer from a server that slept while its machine did not (or the
 * reverse), which no real sleep does.
 */
export const playClock = async (run: CaseRun, act: ClockAction): Promise<void> => {
  const atReal = Date.now() + LEAD_MS;
  run.clocks.client += act.ms;
  if (act.a === 'clock.sleep') {
    run.clocks.server += act.ms;
    setClockOffsetAt(run.ms, run.clocks.server, atReal);
    run.model.setServerOffset(run.clocks.server);
  }
  await run.child().request({ cmd: 'clock', offsetMs: run.clocks.client, atReal });
  const late = Date.now() - atReal;
  // A timer may fire a millisecond before Date.now() reads its time: the next action would
  // find the child's clock not moved yet (seed 555926610).
  while (Date.now() < atReal) await sleep(Math.max(1, atReal - Date.now()));
  run.log.push(
    `  clocks now: server ${run.clocks.server} ms, child ${run.clocks.client} ms${late > 0 ? ` (told the child ${late} ms late)` : ''}`,
  );
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
