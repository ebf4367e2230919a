import { describe, expect, it } from 'vitest';
import { digestNotifications, type NotificationItem } from './digest';

const n = (id: number, type: string, more: Partial<NotificationItem> = {}): NotificationItem => ({
  notificationId: id,
  type,
  title: `${type.toUpperCase() === 'MENTION' ? 'Ann mentioned you' : 'Bo assigned you a task'} #${id}`,
  body: `Task ${id}`,
  taskId: 100 + id,
  read: false,
  ...more,
});

describe('digestNotifications', () => {
  it('nothing worth a notice: null', () => {
    expect(digestNotifications([])).toBeNull();
    expect(
      digestNotifications([n(1, 'COMMENT'), n(2, 'DUE'), n(3, 'MENTION', { read: true })]),
    ).toBeNull();
  });

  it('one mention: its own title and body; a click opens its task', () => {
    expect(digestNotifications([n(4, 'COMMENT'), n(5, 'mention')])).toEqual({
      title: 'Ann mentioned you #5',
      body: 'Task 5',
      taskId: 105,
      notificationIds: [5],
    });
  });

  it('many: one notice counting them, the newest three listed, the newest task opened', () => {
    const notice = digestNotifications([
      n(1, 'ASSIGNED'),
      n(9, 'MENTION'),
      n(3, 'MENTION', { body: null }),
      n(7, 'ASSIGNED'),
      n(8, 'STATUS'),
      n(5, 'ASSIGNED'),
    ]);
    expect(notice).toEqual({
      title: '2 new mentions and 3 new assignments',
      body: [
        'Ann mentioned you #9: Task 9',
        'Bo assigned you a task #7: Task 7',
        'Bo assigned you a task #5: Task 5',
        'and 2 more',
      ].join('\n'),
      taskId: 109,
      notificationIds: [9, 7, 5, 3, 1],
    });
  });

  it('counts in the singular, and opens the newest notice that names a task', () => {
    const notice = digestNotifications([n(2, 'ASSIGNED', { taskId: null }), n(1, 'MENTION')]);
    expect(notice?.title).toBe('1 new mention and 1 new assignment');
    expect(notice?.taskId).toBe(101);
    expect(notice?.body.split('\n')).toHaveLength(2);
    expect(digestNotifications([n(2, 'ASSIGNED'), n(3, 'ASSIGNED')])?.title).toBe(
      '2 new assignments',
    );
  });

  it('announces the kinds the user chose, counted by kind in words', () => {
    const items = [n(1, 'DUE'), n(2, 'COMMENT'), n(3, 'MENTION'), n(4, 'DUE'), n(5, 'STATUS')];
    expect(digestNotifications(items, ['DUE', 'COMMENT'])).toMatchObject({
      title: '1 new comment and 2 due date reminders',
      notificationIds: [4, 2, 1],
    });
    expect(digestNotifications(items, ['MENTION', 'DUE', 'STATUS'])?.title).toBe(
      '1 new mention, 2 due date reminders and 1 status change',
    );
    expect(digestNotifications(items, [])).toBeNull();
  });

  it('cuts very long lines', () => {
    const notice = digestNotifications([n(1, 'MENTION', { title: 'x'.repeat(500) })]);
    expect(notice?.title).toHaveLength(120);
    expect(notice?.title.endsWith('…')).toBe(true);
  });
});
