import { describe, expect, it } from 'vitest';
import type { NotificationRow } from '../../shared/bridge';
import { memoryHost } from '../tray/memory-host.test-support';
import type { NativeNotice } from './digest';
import { startNotifier } from './notifier';

const note = (id: number, type: string, taskId: number | null): NotificationRow => ({
  notificationId: id,
  type,
  title: `${type} ${id}`,
  body: `body ${id}`,
  taskId,
  read: false,
  createdTime: '2026-11-22T09:00:00Z',
  sync: 'synced',
});

const settle = () => new Promise((r) => setTimeout(r, 10));

const setup = () => {
  const host = memoryHost(() => 0, {});
  const shown: { notice: NativeNotice; click: () => void }[] = [];
  const opened: string[] = [];
  const errors: string[] = [];
  const stop = startNotifier({
    endpoint: host.endpoint,
    show: (notice, click) => shown.push({ notice, click }),
    openTask: (id) => opened.push(`task ${id}`),
    openApp: () => opened.push('app'),
    onError: (m) => errors.push(m),
  });
  return { host, shown, opened, errors, stop };
};

describe('startNotifier', () => {
  it('raises one notice for the mentions and assignments of a pull; a click opens and marks read', async () => {
    const s = setup();
    s.host.notifications.push(
      note(1, 'COMMENT', 5),
      note(2, 'MENTION', 5),
      note(3, 'ASSIGNED', 6),
      note(4, 'MENTION', 7),
    );
    s.host.hub.emit('notifications.arrived', { notificationIds: [1, 2, 3] });
    await settle();
    expect(s.shown.map((x) => x.notice)).toEqual([
      {
        title: '1 new mention and 1 new assignment',
        body: 'ASSIGNED 3: body 3\nMENTION 2: body 2',
        taskId: 6,
        notificationIds: [3, 2],
      },
    ]);
    s.shown[0]?.click();
    await settle();
    expect(s.opened).toEqual(['task 6']);
    expect(s.host.applied).toEqual([
      { kind: 'notification.read', notificationId: 3 },
      { kind: 'notification.read', notificationId: 2 },
    ]);
    expect(s.host.notifications.filter((n) => n.read).map((n) => n.notificationId)).toEqual([2, 3]);
    expect(s.errors).toEqual([]);
  });

  it('announces the kinds the user chose instead of mentions and assignments', async () => {
    const s = setup();
    s.host.setNotifyKinds(['DUE']);
    s.host.notifications.push(note(1, 'MENTION', 5), note(2, 'DUE', 6));
    s.host.hub.emit('notifications.arrived', { notificationIds: [1, 2] });
    await settle();
    expect(s.shown.map((x) => x.notice.notificationIds)).toEqual([[2]]);
    s.stop();
  });

  it('stays quiet for other kinds, read ones, or when the user turned notices off', async () => {
    const s = setup();
    s.host.notifications.push(note(1, 'DUE', 5), { ...note(2, 'MENTION', 5), read: true });
    s.host.hub.emit('notifications.arrived', { notificationIds: [1, 2] });
    s.host.notifications.push(note(3, 'MENTION', 5));
    s.host.setNativeNotifications(false);
    s.host.hub.emit('notifications.arrived', { notificationIds: [3] });
    await settle();
    expect(s.shown).toEqual([]);
    s.stop();
    s.host.setNativeNotifications(true);
    s.host.hub.emit('notifications.arrived', { notificationIds: [3] });
    await settle();
    expect(s.shown).toEqual([]);
  });

  it('a notice without a task opens the app', async () => {
    const s = setup();
    s.host.notifications.push(note(9, 'ASSIGNED', null));
    s.host.hub.emit('notifications.arrived', { notificationIds: [9] });
    await settle();
    s.shown[0]?.click();
    expect(s.opened).toEqual(['app']);
  });
});
