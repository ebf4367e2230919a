import { describe, expect, it } from 'vitest';
import { answerTime, ServerClock } from './server-clock';

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
    expect(c.estimate()?.errorMs).toBeLessThanOrEqual(3);
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
});
