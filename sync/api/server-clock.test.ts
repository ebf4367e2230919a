import { describe, expect, it } from 'vitest';
import { answerTime, type LocalStep, ServerClock } from './server-clock';

describe('ServerClock', () => {
  it('narrows the offset to the samples that agree', () => {
    const c = new ServerClock();
    expect(c.estimate()).toBeNull();
    expect(c.toServer(1_000)).toBe(1_000);
    // The server runs 600 s ahead; round trips of 40 ms and 10 ms, stamped at different points.
    c.observe({ sentAt: 1_000, receivedAt: 1_040, serverTime: 601_030, precisionMs: 1 });
    expect(c.estimate()?.errorMs).toBeCloseTo(21, 5);
    c.observe({ sentAt: 2_000, receivedAt: 2_010, serverTime: 602_002, precisionMs: 1 });
    const e = c.estimate();
    expect(e?.errorMs).toBeLessThanOrEqual(6);
    expect(Math.abs((e?.offsetMs ?? 0) - 600_000)).toBeLessThanOrEqual(6);
    expect(Math.abs(c.toServer(10_000) - 610_000)).toBeLessThanOrEqual(6);
  });

  it('forgets the older samples when a clock jumps', () => {
    const c = new ServerClock();
    c.observe({ sentAt: 1_000, receivedAt: 1_004, serverTime: 1_002, precisionMs: 1 });
    // This machine's clock was set back by a minute: the samples no longer agree.
    c.observe({ sentAt: 2_000, receivedAt: 2_004, serverTime: 62_002, precisionMs: 1 });
    expect(c.estimate()?.offsetMs).toBeCloseTo(60_000, -1);
    expect(c.estimate()?.errorMs).toBeLessThanOrEqual(3);
  });

  it('keeps an old sample, widened by its age, against a wide one that spans a sleep', () => {
    const c = new ServerClock(null);
    c.observe({ sentAt: 1_000, receivedAt: 1_004, serverTime: 601_002, precisionMs: 1 });
    // Sent before a 13-minute sleep, answered after it: alone, it would put the offset anywhere
    // in 13 minutes.
    c.observe({ sentAt: 2_000, receivedAt: 782_000, serverTime: 1_381_999, precisionMs: 1 });
    expect(Math.abs((c.estimate()?.offsetMs ?? 0) - 600_000)).toBeLessThan(200);
    expect(c.estimate()?.errorMs).toBeLessThan(200);
  });

  it('widens an estimate carried over from an earlier run by its age', () => {
    const c = new ServerClock();
    c.seed({ offsetMs: 500, errorMs: 2, at: 0 }, 86_400_000);
    expect(c.estimate()?.errorMs).toBeCloseTo(2 + 8_640, 0);
    // An answer narrows it.
    c.observe({
      sentAt: 86_400_000,
      receivedAt: 86_400_002,
      serverTime: 86_400_501,
      precisionMs: 1,
    });
    expect(c.estimate()?.errorMs).toBeLessThanOrEqual(3);
  });

  it('keeps a carried-over estimate that a coarse first answer agrees with', () => {
    const c = new ServerClock();
    c.seed({ offsetMs: 220_543, errorMs: 3, at: 1_000 }, 1_000);
    // An HTTP Date, to the second: alone it would say 220,543 ± ~1,000.
    c.observe({ sentAt: 1_100, receivedAt: 1_110, serverTime: 221_000, precisionMs: 1_000 });
    expect(c.estimate()?.offsetMs).toBeCloseTo(220_543, -1);
    // Its 3 ms, widened by 100 ppm of its 110 ms of age.
    expect(c.estimate()?.errorMs).toBeLessThanOrEqual(3.02);
  });

  it('reads an ISO timestamp to its precision, else the HTTP Date', () => {
    expect(answerTime('2026-11-26T10:00:00.123Z', undefined)).toEqual({
      serverTime: Date.parse('2026-11-26T10:00:00.123Z'),
      precisionMs: 1,
    });
    expect(answerTime('2026-11-26T10:00:00+00:00', undefined)?.precisionMs).toBe(1_000);
    expect(answerTime('2026-11-26T10:00:00.1Z', undefined)?.precisionMs).toBe(100);
    expect(answerTime('not a time', 'Thu, 26 Nov 2026 10:00:00 GMT')).toEqual({
      serverTime: Date.parse('2026-11-26T10:00:00Z'),
      precisionMs: 1_000,
    });
    expect(answerTime(undefined, undefined)).toBeNull();
  });

  describe('a jump of this machine’s clock', () => {
    /** A clock 600 s behind the server's, its monotonic clock moved by hand. */
    const jumping = () => {
      const at = { mono: 0 };
      const c = new ServerClock(() => at.mono);
      const steps: LocalStep[] = [];
      c.onStep((s) => steps.push(s));
      c.noteLocal(1_000);
      c.observe({ sentAt: 1_000, receivedAt: 1_004, serverTime: 601_002, precisionMs: 1 });
      return { c, at, steps };
    };

    it('back is a step, told at once: the offset moves with it', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      c.noteLocal(1_104 - 300_000);
      expect(steps).toEqual([{ jumps: [{ before: 1_004, ms: -300_000, windowFrom: null }] }]);
      expect(c.toServer(1_104 - 300_000)).toBeCloseTo(601_104, -1);
    });

    it('forward is taken for a sleep until an answer tells it apart', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      c.noteLocal(1_104 + 120_000);
      expect(c.unsureJumps()).toEqual([1_004]);
      expect(steps).toEqual([]);
      // The server's clock went on with it: a sleep.
      c.observe({
        sentAt: 121_100,
        receivedAt: 121_104,
        serverTime: 721_102,
        precisionMs: 1,
      });
      expect(steps).toEqual([
        { jumps: [{ before: 1_004, ms: 0, windowFrom: 1_004 + 600_000 + 60_000 }] },
      ]);
      expect(c.unsureJumps()).toEqual([]);
    });

    it('forward, the server’s clock as it was: a step, its times stamped meanwhile told', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      c.noteLocal(1_104 + 120_000);
      c.observe({ sentAt: 121_100, receivedAt: 121_104, serverTime: 601_102, precisionMs: 1 });
      expect(steps).toEqual([
        { jumps: [{ before: 1_004, ms: 120_000, windowFrom: 1_004 + 600_000 + 60_000 }] },
      ]);
      expect(c.toServer(121_104)).toBeCloseTo(601_104, -1);
    });

    it('two forward jumps before an answer: the one the offset moved by is the step', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      c.noteLocal(1_104 + 60_000);
      at.mono = 200;
      c.noteLocal(1_204 + 60_000 + 180_000);
      expect(c.unsureJumps()).toEqual([1_004, 61_104]);
      // The server's clock went on by the second only: the first was a step, the second a sleep.
      c.observe({
        sentAt: 241_204,
        receivedAt: 241_206,
        serverTime: 601_205 + 180_000,
        precisionMs: 1,
      });
      expect(steps.map((s) => s.jumps.map((j) => j.ms))).toEqual([[60_000, 0]]);
    });

    it('forward, the offset moved by part of it: a sleep and a step with no reading between', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      // Slept a minute, and the clock was set 2 s forward on waking, before any reading.
      c.noteLocal(1_104 + 62_000);
      c.observe({
        sentAt: 63_104,
        receivedAt: 63_106,
        serverTime: 601_105 + 60_000,
        precisionMs: 1,
      });
      expect(steps.map((s) => s.jumps.map((j) => j.ms))).toEqual([[2_000]]);
    });

    it('forward, the offset moved up: a sleep with a step back hidden in it', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      // Slept a minute, and the clock was set 2 s back on waking, before any reading.
      c.noteLocal(1_104 + 58_000);
      c.observe({
        sentAt: 59_104,
        receivedAt: 59_106,
        serverTime: 601_105 + 60_000,
        precisionMs: 1,
      });
      expect(steps.map((s) => s.jumps.map((j) => j.ms))).toEqual([[-2_000]]);
    });

    it('back, the offset moved by more: a step back with a sleep hidden in it', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      // Set 300 s back, then slept a minute, with no reading between (no engine of this
      // replica open): 240 s back in all, taken as a step at once.
      c.noteLocal(1_104 - 300_000 + 60_000);
      expect(steps.map((s) => s.jumps.map((j) => j.ms))).toEqual([[-240_000]]);
      expect(c.unsureJumps()).toEqual([1_004 - 240_000]);
      // The server's clock went on by the minute: 60 s more of the step, the minute a sleep.
      c.observe({
        sentAt: 1_200 - 240_000,
        receivedAt: 1_202 - 240_000,
        serverTime: 601_201 + 60_000,
        precisionMs: 1,
      });
      expect(steps[1]).toEqual({
        jumps: [{ before: 1_004 - 240_000, ms: -60_000, windowFrom: 1_004 + 600_000 }],
      });
      // A time kept from before the jump converts to the server's time it was.
      expect(c.toServer(1_004 - 300_000)).toBeCloseTo(601_004, -1);
      expect(c.unsureJumps()).toEqual([]);
    });

    it('back, the offset moved by as much: a plain step, nothing more told', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      c.noteLocal(1_104 - 300_000);
      c.observe({
        sentAt: 1_200 - 300_000,
        receivedAt: 1_202 - 300_000,
        serverTime: 601_201,
        precisionMs: 1,
      });
      expect(steps.slice(1).flatMap((s) => s.jumps.filter((j) => j.ms !== 0))).toEqual([]);
      expect(c.unsureJumps()).toEqual([]);
    });

    // Seed 555926610: a timer started after a 2 s step and an answer stamped to the second
    // (an HTTP Date) began 733 ms early on the server: that answer alone made the estimate.
    it('forward, an answer too coarse to tell it that disagrees: set aside till a precise one', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      c.noteLocal(1_104 + 2_000);
      // The server's clock as it was (a step): 601_115 at the answer, stamped 601_000.
      c.observe({ sentAt: 3_110, receivedAt: 3_120, serverTime: 601_000, precisionMs: 1000 });
      expect(steps).toEqual([]);
      expect(c.unsureJumps()).toEqual([1_004]);
      // Still taken for a sleep: a time stamped now is moved when the step is told.
      expect(c.toServer(3_120)).toBeCloseTo(603_120, -1);
      c.observe({ sentAt: 3_200, receivedAt: 3_202, serverTime: 601_201, precisionMs: 1 });
      expect(steps).toEqual([
        { jumps: [{ before: 1_004, ms: 2_000, windowFrom: 1_004 + 600_000 + 1_000 }] },
      ]);
      expect(c.toServer(3_202)).toBeCloseTo(601_202, -1);
    });

    it('forward, part sleep and part step: a coarse answer does not measure the step', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      // Slept a minute, and the clock was set 2 s forward on waking, before any reading.
      c.noteLocal(1_104 + 62_000);
      // An HTTP Date, to the second: the step it would measure is 2_106 ± 1_000.
      c.observe({ sentAt: 63_104, receivedAt: 63_106, serverTime: 661_000, precisionMs: 1000 });
      expect(steps).toEqual([]);
      expect(c.unsureJumps()).toEqual([1_004]);
      expect(c.estimate()?.offsetMs).toBeCloseTo(600_001, -1);
      c.observe({ sentAt: 63_200, receivedAt: 63_202, serverTime: 661_201, precisionMs: 1 });
      expect(steps.map((s) => s.jumps.map((j) => j.ms))).toEqual([[2_000]]);
      expect(c.toServer(63_202)).toBeCloseTo(661_202, -1);
    });

    it('forward, only coarse answers: the eighth set aside in a row, the next is taken', () => {
      const { c, at, steps } = jumping();
      at.mono = 100;
      c.noteLocal(1_104 + 62_000);
      // A server that stamps only to the second: 598_000 ahead now, each answer 1 s apart.
      const coarse = (sent: number) => {
        at.mono = 100 + sent - 63_104;
        c.observe({
          sentAt: sent,
          receivedAt: sent + 2,
          serverTime: sent + 597_896,
          precisionMs: 1000,
        });
      };
      for (let i = 0; i < 8; i++) coarse(63_104 + i * 1_000);
      expect(steps).toEqual([]);
      expect(c.unsureJumps()).toEqual([1_004]);
      coarse(71_104);
      expect(c.unsureJumps()).toEqual([]);
      expect(steps).toHaveLength(1);
      expect(Math.abs((c.estimate()?.offsetMs ?? 0) - 598_000)).toBeLessThanOrEqual(1_000);
    });

    it('forward, a coarse answer that agrees is taken: the precise samples hold', () => {
      const { c, at } = jumping();
      at.mono = 100;
      c.noteLocal(1_104 + 2_000);
      // A sleep: the server's clock went on, 603_115 at the answer, stamped 603_000.
      c.observe({ sentAt: 3_110, receivedAt: 3_120, serverTime: 603_000, precisionMs: 1000 });
      expect(c.unsureJumps()).toEqual([1_004]);
      expect(c.toServer(3_120)).toBeCloseTo(603_120, -1);
      expect(c.estimate()?.errorMs).toBeLessThan(10);
    });
  });
});

describe('a jump while no process of this machine watched its clock', () => {
  /** A replica's next engine in another process: the estimate and the last reading it kept. */
  const reopened = (keptOffset: number) => {
    const at = { mono: 5 };
    const c = new ServerClock(() => at.mono);
    const steps: LocalStep[] = [];
    c.onStep((s) => steps.push(s));
    c.seed({ offsetMs: keptOffset, errorMs: 2, at: 1_000 }, 2_000);
    c.resumeWatch({ reading: { local: 1_000, mono: 123_456 }, unsure: null }, false);
    c.noteLocal(2_000);
    return { c, steps };
  };

  it('is told by the first precise answer: the offset moved by the step', () => {
    // Kept 600 s behind the server; the clock was set back 179 s while the app was closed.
    const { c, steps } = reopened(600_000);
    expect(c.unsureJumps()).toEqual([1_000]);
    c.observe({ sentAt: 2_000, receivedAt: 2_002, serverTime: 781_001, precisionMs: 1 });
    expect(steps).toEqual([
      { jumps: [{ before: 1_000, ms: -179_000, windowFrom: 1_000 + 600_000 }] },
    ]);
    // A time kept from before converts to the server's time it did.
    expect(c.toServer(1_000 - 179_000)).toBeCloseTo(601_000, -1);
  });

  it('forward too: a step forward while closed is taken out', () => {
    const { c, steps } = reopened(600_000);
    c.observe({ sentAt: 2_000, receivedAt: 2_002, serverTime: 542_001, precisionMs: 1 });
    expect(steps.map((s) => s.jumps.map((j) => j.ms))).toEqual([[60_000]]);
  });

  it('no step: the offset as kept, within its error and the drift of its age', () => {
    const { c, steps } = reopened(600_000);
    c.observe({ sentAt: 2_000, receivedAt: 2_002, serverTime: 602_001, precisionMs: 1 });
    expect(steps.flatMap((s) => s.jumps.filter((j) => j.ms !== 0))).toEqual([]);
    expect(c.unsureJumps()).toEqual([]);
  });

  it('in the same process, the kept reading is watched instead (no server needed)', () => {
    const c = new ServerClock(() => 200);
    c.seed({ offsetMs: 600_000, errorMs: 2, at: 1_000 }, 2_000);
    c.resumeWatch({ reading: { local: 1_000, mono: 100 }, unsure: null }, true);
    expect(c.unsureJumps()).toEqual([]);
  });
});
