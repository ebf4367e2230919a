// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { type SyncStatus, syncStatus } from '../../../shared/bridge';
import { type SyncActions, SyncPanelView } from './sync-panel';

afterEach(cleanup);

const now = Date.UTC(2026, 10, 22, 8);
const base: SyncStatus = syncStatus.parse({
  online: true,
  activity: 'idle',
  paused: false,
  needsSignIn: false,
  pending: 0,
  pendingByKind: {},
  failed: [],
  nextRetryAt: null,
  lastSyncAt: now - 120_000,
  lastError: null,
  bootstrap: null,
  notices: [],
  changesUnseen: 0,
});

const recorder = () => {
  const calls: string[] = [];
  const actions: SyncActions = {
    retry: (id) => calls.push(`retry ${id}`),
    discard: (id) => calls.push(`discard ${id}`),
    resolve: (id, choice) => calls.push(`resolve ${id} ${choice}`),
    syncNow: () => calls.push('syncNow'),
    pause: () => calls.push('pause'),
    resume: () => calls.push('resume'),
    dismissNotice: (id) => calls.push(`dismiss ${id}`),
  };
  return { calls, actions };
};

describe('SyncPanelView', () => {
  it('says all is sent when online with nothing pending', () => {
    render(<SyncPanelView status={base} actions={recorder().actions} now={now} />);
    expect(screen.getByTestId('sync-state').textContent).toBe('Online');
    expect(screen.getByTestId('pending-count').textContent).toBe('Everything is sent');
    expect(screen.getByText(/Last synced 2m ago/)).toBeTruthy();
    expect(screen.getByText('No failed edits.')).toBeTruthy();
  });

  it('shows offline with pending edits by kind and the last error', () => {
    const status = {
      ...base,
      online: false,
      pending: 5,
      // The host counts by edit kind, as the outbox names them.
      pendingByKind: { 'task.update': 3, 'checklist.create': 2 },
      lastError: 'network error',
    };
    render(<SyncPanelView status={status} actions={recorder().actions} now={now} />);
    expect(screen.getByTestId('sync-state').textContent).toBe('Offline');
    expect(screen.getByTestId('pending-count').textContent).toBe('5 edits');
    const kinds = screen.getByRole('list', { name: 'Pending edits by kind' });
    expect(within(kinds).getByText('Task changes').nextSibling?.textContent).toBe('3');
    expect(within(kinds).getByText('New checklist items').nextSibling?.textContent).toBe('2');
    expect(kinds.textContent).not.toMatch(/\.(update|create)/i);
    expect(screen.getByText(/network error\. Your edits are kept/)).toBeTruthy();
  });

  it('shows what to check about an edit already sent, until the user has read it', async () => {
    const { calls, actions } = recorder();
    const status = syncStatus.parse({
      ...base,
      notices: [
        {
          noticeId: 3,
          entity: 'task:-4',
          message:
            'Task “Buy milk” was sent again after its answer was lost. There may now be two.',
          createdAt: now - 60_000,
        },
      ],
    });
    render(<SyncPanelView status={status} actions={actions} now={now} />);
    const list = screen.getByRole('list', { name: 'Sent, but check' });
    expect(within(list).getByText(/Buy milk.*There may now be two/)).toBeTruthy();
    await userEvent.click(within(list).getByRole('button', { name: 'Got it' }));
    expect(calls).toEqual(['dismiss 3']);
  });

  it('shows a failed edit with the server message; retry and discard', async () => {
    const { calls, actions } = recorder();
    const status = syncStatus.parse({
      ...base,
      failed: [
        {
          mutationId: 41,
          kind: 'task',
          entity: 'task:12',
          state: 'failed',
          error: {
            kind: 'http',
            failure: 'permanent',
            status: 400,
            message: 'unknown status; one of To Do, Done',
            fieldErrors: [{ field: 'status', message: 'unknown status' }],
          },
          attempts: 1,
          updatedAt: now - 5_000,
        },
        {
          mutationId: 42,
          kind: 'checklist',
          entity: 'checklist:-3',
          state: 'conflict',
          error: null,
          attempts: 1,
          updatedAt: now,
        },
      ],
    });
    const user = userEvent.setup();
    render(<SyncPanelView status={status} actions={actions} now={now} />);
    const list = screen.getByRole('list', { name: 'Failed edits' });
    const [failed, conflict] = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.classList.contains('failed-item'));
    expect(failed?.textContent).toContain('unknown status; one of To Do, Done');
    expect(failed?.textContent).toContain('HTTP 400');
    expect(failed?.textContent).toContain('task #12');
    expect(conflict?.textContent).toContain('new checklist (not yet on the server)');
    await user.click(within(failed as HTMLElement).getByRole('button', { name: 'Retry' }));
    await user.click(within(failed as HTMLElement).getByRole('button', { name: 'Discard' }));
    await user.click(within(conflict as HTMLElement).getByRole('button', { name: 'Recreate it' }));
    await user.click(
      within(conflict as HTMLElement).getByRole('button', { name: 'Discard my change' }),
    );
    expect(calls).toEqual(['retry 41', 'discard 41', 'resolve 42 recreate', 'resolve 42 discard']);
  });

  it('pauses, resumes and syncs now', async () => {
    const { calls, actions } = recorder();
    const user = userEvent.setup();
    const view = render(<SyncPanelView status={base} actions={actions} now={now} />);
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    await user.click(screen.getByRole('button', { name: 'Pause sync' }));
    view.rerender(<SyncPanelView status={{ ...base, paused: true }} actions={actions} now={now} />);
    expect(screen.getByTestId('sync-state').textContent).toBe('Paused');
    expect((screen.getByRole('button', { name: 'Sync now' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.click(screen.getByRole('button', { name: 'Resume sync' }));
    expect(calls).toEqual(['syncNow', 'pause', 'resume']);
  });

  it('asks to sign in again when the session expired', () => {
    render(
      <SyncPanelView
        status={{ ...base, needsSignIn: true }}
        actions={recorder().actions}
        now={now}
      />,
    );
    expect(screen.getByTestId('sync-state').textContent).toBe('Sign in again');
  });
});
