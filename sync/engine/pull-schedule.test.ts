import { describe, expect, it } from 'vitest';
import { PullSchedule } from './pull-schedule';

describe('PullSchedule', () => {
  it('is due an interval after the last pull that worked', () => {
    const s = new PullSchedule(30_000);
    s.succeeded(1_000);
    expect(s.dueAt(1_000)).toBe(31_000);
    expect(s.retryAfterFailure(1_000)).toBeNull();
  });

  it('a new interval counts from the last good pull; a pending retry keeps its time', () => {
    const s = new PullSchedule(30_000, { baseMs: 40, capMs: 1_000 }, () => 1);
    s.succeeded(1_000);
    s.setInterval(600_000);
    expect(s.dueAt(1_000)).toBe(601_000);
    s.setInterval(10_000);
    expect(s.dueAt(1_000)).toBe(11_000);
    s.failed(2_000);
    const retry = s.retryAfterFailure(2_000);
    s.setInterval(3_600_000);
    expect(s.dueAt(2_000)).toBe(retry);
  });

  it('backs off after failures, doubling, and forgets them after a pull that works', () => {
    const s = new PullSchedule(30_000, { baseMs: 40, capMs: 1_000 }, () => 1);
    s.succeeded(0);
    s.failed(100);
    expect(s.dueAt(100)).toBe(140);
    s.failed(200);
    expect(s.dueAt(200)).toBe(280);
    s.failed(300);
    expect(s.retryAfterFailure(300)).toBe(460);
    s.succeeded(500);
    expect(s.retryAfterFailure(500)).toBeNull();
    expect(s.dueAt(500)).toBe(30_500);
  });

  it('caps the backoff and keeps jitter in the upper half of each step', () => {
    const low = new PullSchedule(30_000, { baseMs: 40, capMs: 100 }, () => 0);
    for (let i = 0; i < 10; i++) low.failed(0);
    expect(low.dueAt(0)).toBe(50);
  });

  it('is due at once when the clock went back since the last outcome, not a step later', () => {
    const s = new PullSchedule(30_000, { baseMs: 40, capMs: 1_000 }, () => 1);
    s.succeeded(1_000_000);
    // Corrected five minutes back: the interval is not the interval and the step.
    expect(s.dueAt(700_000)).toBe(700_000);
    s.failed(1_000_000);
    expect(s.retryAfterFailure(700_000)).toBe(700_000);
    expect(s.dueAt(700_000)).toBe(700_000);
    // Forward of it, the times are as they were.
    expect(s.retryAfterFailure(1_000_010)).toBe(1_000_040);
  });
});
