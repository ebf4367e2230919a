import { describe, expect, it } from 'vitest';
import { PullSchedule } from './pull-schedule';

describe('PullSchedule', () => {
  it('is due an interval after the last pull that worked', () => {
    const s = new PullSchedule(30_000);
    s.succeeded(1_000);
    expect(s.dueAt).toBe(31_000);
    expect(s.retryAfterFailure).toBeNull();
  });

  it('a new interval counts from the last good pull; a pending retry keeps its time', () => {
    const s = new PullSchedule(30_000, { baseMs: 40, capMs: 1_000 }, () => 1);
    s.succeeded(1_000);
    s.setInterval(600_000);
    expect(s.dueAt).toBe(601_000);
    s.setInterval(10_000);
    expect(s.dueAt).toBe(11_000);
    s.failed(2_000);
    const retry = s.retryAfterFailure;
    s.setInterval(3_600_000);
    expect(s.dueAt).toBe(retry);
  });

  it('backs off after failures, doubling, and forgets them after a pull that works', () => {
    const s = new PullSchedule(30_000, { baseMs: 40, capMs: 1_000 }, () => 1);
    s.succeeded(0);
    s.failed(100);
    expect(s.dueAt).toBe(140);
    s.failed(200);
    expect(s.dueAt).toBe(280);
    s.failed(300);
    expect(s.retryAfterFailure).toBe(460);
    s.succeeded(500);
    expect(s.retryAfterFailure).toBeNull();
    expect(s.dueAt).toBe(30_500);
  });

  it('caps the backoff and keeps jitter in the upper half of each step', () => {
    const low = new PullSchedule(30_000, { baseMs: 40, capMs: 100 }, () => 0);
    for (let i = 0; i < 10; i++) low.failed(0);
    expect(low.dueAt).toBe(50);
  });
});
