import { describe, expect, it } from 'vitest';
import { IdleWatch } from './idle-watch';

const S = 1_000;
const MIN = 60 * S;
const T = Date.UTC(2026, 10, 22, 9, 0, 0);

describe('IdleWatch', () => {
  it('asks once the user is back after 5 idle minutes, from their last input', () => {
    const w = new IdleWatch({ idleMinutes: 5 });
    expect(w.poll(T, 0, true)).toBeNull();
    expect(w.poll(T + 4 * MIN, 4 * 60, true)).toBeNull();
    expect(w.poll(T + 6 * MIN, 6 * 60, true)).toBeNull();
    expect(w.poll(T + 20 * MIN, 20 * 60, true)).toBeNull();
    // Input 10 s before this poll: away from T to T + 21:50.
    expect(w.poll(T + 22 * MIN, 10, true)).toEqual({
      reason: 'idle',
      from: T,
      to: T + 22 * MIN - 10 * S,
    });
    expect(w.poll(T + 23 * MIN, 5, true)).toBeNull();
  });

  it('does not ask below the threshold or without a running timer', () => {
    const w = new IdleWatch({ idleMinutes: 5 });
    expect(w.poll(T + 4 * MIN, 4 * 60, true)).toBeNull();
    expect(w.poll(T + 5 * MIN, 1, true)).toBeNull();
    expect(w.poll(T + 20 * MIN, 15 * 60, false)).toBeNull();
    expect(w.poll(T + 21 * MIN, 1, false)).toBeNull();
    // Timer stopped while away (from another device): the absence is forgotten.
    expect(w.poll(T + 30 * MIN, 10 * 60, true)).toBeNull();
    expect(w.poll(T + 31 * MIN, 10 * 60, false)).toBeNull();
    expect(w.poll(T + 32 * MIN, 1, true)).toBeNull();
  });

  it('follows a changed threshold', () => {
    const w = new IdleWatch({ idleMinutes: 5 });
    w.setIdleMinutes(15);
    expect(w.poll(T + 10 * MIN, 10 * 60, true)).toBeNull();
    expect(w.poll(T + 11 * MIN, 2, true)).toBeNull();
  });

  it('a sleep asks on resume, from the suspend', () => {
    const w = new IdleWatch({ idleMinutes: 5 });
    w.tick(T, true);
    w.suspend(T + 1 * MIN);
    expect(w.resume(T + 61 * MIN, true)).toEqual({
      reason: 'sleep',
      from: T + 1 * MIN,
      to: T + 61 * MIN,
    });
    expect(w.tick(T + 61 * MIN + S, true)).toBeNull();
  });

  it('a sleep after the user had already left counts from when they left', () => {
    const w = new IdleWatch({ idleMinutes: 5 });
    w.poll(T + 10 * MIN, 8 * 60, true);
    w.suspend(T + 30 * MIN);
    expect(w.resume(T + 90 * MIN, true)).toEqual({
      reason: 'sleep',
      from: T + 2 * MIN,
      to: T + 90 * MIN,
    });
  });

  it('a short nap or no running timer asks nothing', () => {
    const w = new IdleWatch({ idleMinutes: 5 });
    w.suspend(T);
    expect(w.resume(T + 30 * S, true)).toBeNull();
    w.suspend(T + MIN);
    expect(w.resume(T + 60 * MIN, false)).toBeNull();
  });

  it('a shutdown recorded by suspend is named as such', () => {
    const w = new IdleWatch({ idleMinutes: 5 });
    w.suspend(T, 'shutdown');
    expect(w.resume(T + 10 * MIN, true)).toMatchObject({ reason: 'shutdown', from: T });
  });

  it('a clock jump between ticks is a sleep whose events were missed', () => {
    const w = new IdleWatch({ idleMinutes: 5 });
    for (let i = 0; i < 5; i++) expect(w.tick(T + i * S, true)).toBeNull();
    expect(w.tick(T + 4 * S + 45 * MIN, true)).toEqual({
      reason: 'sleep',
      from: T + 4 * S,
      to: T + 4 * S + 45 * MIN,
    });
    // A suspend that came without its resume: the jump closes it.
    w.suspend(T + 50 * MIN);
    expect(w.tick(T + 80 * MIN, true)).toEqual({
      reason: 'sleep',
      from: T + 50 * MIN,
      to: T + 80 * MIN,
    });
    expect(w.resume(T + 80 * MIN + S, true)).toBeNull();
    // Ticks with no timer running never ask.
    w.tick(T + 90 * MIN, false);
    expect(w.tick(T + 200 * MIN, false)).toBeNull();
  });

  it('does not ask again about a sleep the system then reports as idle time', () => {
    const w = new IdleWatch({ idleMinutes: 5 });
    w.suspend(T);
    expect(w.resume(T + 60 * MIN, true)).toMatchObject({ reason: 'sleep', to: T + 60 * MIN });
    // The OS counts the sleep as idle: 61 minutes idle a minute after waking.
    expect(w.poll(T + 61 * MIN, 61 * 60, true)).toBeNull();
    expect(w.poll(T + 62 * MIN, 2, true)).toBeNull();
    // A real absence after the wake is still noticed.
    expect(w.poll(T + 70 * MIN, 8 * 60, true)).toBeNull();
    expect(w.poll(T + 80 * MIN, 1, true)).toEqual({
      reason: 'idle',
      from: T + 62 * MIN,
      to: T + 80 * MIN - 1_000,
    });
  });
});
