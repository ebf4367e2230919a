import { useState } from 'react';
import type { NotificationRow } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { applyEdit } from '../../data/edits';
import { useQuery } from '../../data/query';
import { ago } from '../../lib/dates';
import { Button } from '../../ui/button';

const typeLabels: Record<string, string> = {
  MENTION: 'Mention',
  ASSIGNED: 'Assigned',
  COMMENT: 'Comment',
  DUE: 'Due',
  STATUS: 'Status',
};

/** Notifications and mentions, newest first; opening one marks it read. */
export function Inbox() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const q = useQuery('notifications.list', { unreadOnly, limit: 200 });
  const items = q.data?.items ?? [];
  const open = (n: NotificationRow) => {
    if (!n.read) void applyEdit({ kind: 'notification.read', notificationId: n.notificationId });
    if (n.taskId) useApp.getState().openTask(n.taskId);
  };
  return (
    <div className="main">
      <div className="toolbar">
        <h1>Inbox</h1>
        <div className="segmented" role="radiogroup" aria-label="Show">
          <label className={!unreadOnly ? 'is-on' : ''}>
            <input
              type="radio"
              className="sr-only"
              name="inbox-show"
              checked={!unreadOnly}
              onChange={() => setUnreadOnly(false)}
            />
            All
          </label>
          <label className={unreadOnly ? 'is-on' : ''}>
            <input
              type="radio"
              className="sr-only"
              name="inbox-show"
              checked={unreadOnly}
              onChange={() => setUnreadOnly(true)}
            />
            Unread
          </label>
        </div>
        <Button
          size="sm"
          disabled={!items.some((n) => !n.read)}
          onClick={() => {
            for (const n of items)
              if (!n.read)
                void applyEdit({ kind: 'notification.read', notificationId: n.notificationId });
          }}
        >
          Mark all read
        </Button>
      </div>
      <div className="content">
        {q.loading && !q.data ? null : items.length === 0 ? (
          <div className="empty">
            <strong>{unreadOnly ? 'All caught up' : 'No notifications'}</strong>
            <span>Mentions, assignments and status changes show up here.</span>
          </div>
        ) : (
          <ul className="inbox" aria-label="Notifications">
            {items.map((n) => (
              <li
                key={n.notificationId}
                className={`inbox-item${n.read ? '' : ' is-unread'}`}
                data-notification-id={n.notificationId}
              >
                <span className="unread-dot" aria-hidden="true" />
                <div className="grow">
                  <div className="row">
                    <span className="pill">{typeLabels[n.type] ?? n.type}</span>
                    <strong className="ellipsis">{n.title}</strong>
                    <span className="muted">{ago(Date.parse(n.createdTime))}</span>
                  </div>
                  {n.body ? <p className="muted ellipsis">{n.body}</p> : null}
                </div>
                {n.taskId ? (
                  <Button size="sm" variant="ghost" onClick={() => open(n)}>
                    Open task
                  </Button>
                ) : null}
                {!n.read ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() =>
                      void applyEdit({
                        kind: 'notification.read',
                        notificationId: n.notificationId,
                      })
                    }
                  >
                    Mark read
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
