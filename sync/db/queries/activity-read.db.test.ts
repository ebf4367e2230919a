import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Notification,
  notification,
  type TimerRecord,
  timerRecord,
} from '../../../shared/api';
import {
  activeTimer,
  listNotifications,
  readTimer,
  timersOfTask,
  unreadCount,
  unreadNotifications,
} from './activity-read';
import { replaceActiveTimers, replaceNotifications, writeTimer } from './activity-write';
import { iso, NOW, openTestReplica, type TestReplica } from './read.fixture';

let t: TestReplica;
beforeAll(() => {
  t = openTestReplica();
});
afterAll(() => t.close());

const MIN = 60_000;
const timer = (trackId: number, state: TimerRecord['state'], extra: Partial<TimerRecord> = {}) =>
  timerRecord.parse({
    trackId,
    taskId: 1,
    projectId: 100,
    userId: 1,
    state,
    startTime: NOW - 90 * MIN,
    endTime: state === 'STOPPED' ? NOW - 30 * MIN : null,
    durationSeconds: 1800,
    billingStatus: 'NON_BILLABLE',
    notes: 'pairing',
    createdTime: NOW - 90 * MIN,
    modifiedTime: NOW - 31 * MIN,
    ...extra,
  });

describe('timers', () => {
  it('a stopped or paused timer reads back as sent, whatever the clock', () => {
    const stopped = timer(1, 'STOPPED', { meter: { kind: 'x' } } as Partial<TimerRecord>);
    const paused = timer(2, 'PAUSED', { startTime: NOW - 20 * MIN });
    writeTimer(t.replica.db, stopped, NOW - 10 * MIN);
    writeTimer(t.replica.db, paused, NOW - 10 * MIN);
    expect(readTimer(t.replica.db, 1, NOW + 3 * 3_600_000)).toEqual(stopped);
    expect(readTimer(t.replica.db, 2, NOW + 3 * 3_600_000)).toEqual(paused);
  });

  it('a running timer grows by the whole seconds since the copy was taken', () => {
    const running = timer(3, 'RUNNING', { startTime: NOW - 5 * MIN, taskId: 2 });
    writeTimer(t.replica.db, running, NOW);
    expect(readTimer(t.replica.db, 3, NOW)).toEqual(running);
    expect(readTimer(t.replica.db, 3, NOW + 61_999)?.durationSeconds).toBe(1800 + 61);
    // A clock that went back never shrinks it.
    expect(readTimer(t.replica.db, 3, NOW - 5_000)?.durationSeconds).toBe(1800);
  });

  it('timers of a task, oldest first; the active timer of a user', () => {
    expect(timersOfTask(t.replica.db, 1, NOW).map((x) => x.trackId)).toEqual([1, 2]);
    expect(activeTimer(t.replica.db, 1, NOW)?.trackId).toBe(3);
    expect(activeTimer(t.replica.db, 1, NOW + 10_000)?.durationSeconds).toBe(1810);
    expect(activeTimer(t.replica.db, 2, NOW)).toBeNull();
    // The server's active list says the running one stopped elsewhere.
    replaceActiveTimers(t.replica.db, [], NOW);
    expect(activeTimer(t.replica.db, 1, NOW)).toBeNull();
    expect(readTimer(t.replica.db, 1, NOW)?.state).toBe('STOPPED');
  });
});

describe('notifications', () => {
  const n = (id: number, minutesAgo: number, read: boolean, extra: object = {}): Notification =>
    notification.parse({
      notificationId: id,
      type: id % 2 ? 'MENTION' : 'NEW_KIND',
      title: `n${id}`,
      body: id === 1 ? null : `body ${id}`,
      taskId: id === 2 ? 5 : null,
      projectId: null,
      read,
      createdTime: iso(NOW - minutesAgo * MIN),
      ...extra,
    });
  const all = [
    n(1, 30, false, { actor: { userId: 2 } }),
    n(2, 10, false),
    n(3, 10, false),
    n(4, 5, true),
    n(5, 60, false),
  ];

  it('read back as sent; unread ones newest first, id breaking ties; a count', () => {
    replaceNotifications(t.replica.db, all);
    expect(unreadNotifications(t.replica.db)).toEqual([all[2], all[1], all[0], all[4]]);
    expect(unreadNotifications(t.replica.db, { limit: 2 }).map((x) => x.notificationId)).toEqual([
      3, 2,
    ]);
    expect(unreadCount(t.replica.db)).toBe(4);
  });

  it('the whole list pages like the server', () => {
    const p = listNotifications(t.replica.db, { page: 1, size: 2 });
    expect(p.content.map((x) => x.notificationId)).toEqual([2, 1]);
    expect(p).toMatchObject({ totalElements: 5, totalPages: 3, number: 1 });
    expect(
      listNotifications(t.replica.db, { page: 0, size: 10, unreadOnly: true }).totalElements,
    ).toBe(4);
  });
});
