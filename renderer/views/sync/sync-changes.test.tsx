// @vitest-environment happy-dom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserRef } from '../../../shared/api/common';
import { type SyncChange, type SyncChanges, syncChange, syncStatus } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { useToasts } from '../../ui/toast';
import {
  type ChangeActions,
  SyncChanges as LiveChanges,
  SyncChangesSection,
  useSyncChangesToast,
} from './sync-changes';

afterEach(cleanup);

const now = Date.UTC(2026, 10, 22, 8);

const change = (over: Partial<SyncChange> = {}): SyncChange =>
  syncChange.parse({
    changeId: 1,
    kind: 'overwritten',
    entity: 'task:12',
    entityKind: 'task',
    entityId: 12,
    taskId: 12,
    name: 'Fix the login page',
    field: 'taskTitle',
    fieldLabel: 'Title',
    mine: 'Mine, offline',
    theirs: 'Theirs, later',
    by: { userId: 8, name: 'Alex Morgan' },
    at: now - 180_000,
    message: 'Changed by someone else after your edit: their value was kept.',
    createdAt: now - 60_000,
    settled: false,
    canRestore: true,
    ...over,
  });

const recorder = () => {
  const calls: string[] = [];
  const actions: ChangeActions = {
    keepTheirs: (id) => calls.push(`keep ${id}`),
    restoreMine: (id) => calls.push(`restore ${id}`),
    openTask: (id) => calls.push(`open ${id}`),
  };
  return { calls, actions };
};

const people = new Map<number, UserRef>([
  [1, { userId: 1, firstName: 'Demo', lastName: 'User' }],
  [8, { userId: 8, firstName: 'Alex', lastName: 'Morgan' }],
]);

const rows = () =>
  within(screen.getByRole('list', { name: 'Changes from sync' })).getAllByRole('listitem');

describe('SyncChangesSection', () => {
  it('says what the list is when nothing changed', () => {
    render(<SyncChangesSection changes={[]} actions={recorder().actions} now={now} />);
    expect(screen.getByRole('heading', { name: 'Changes from sync' })).toBeTruthy();
    expect(
      screen.getByText(
        "Nothing changed your work while syncing. When someone else's change wins over yours, it shows here.",
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Changes from sync' })).toBeNull();
  });

  it('names the task, the field, both values, who and when; each action says which change', async () => {
    const { calls, actions } = recorder();
    const user = userEvent.setup();
    render(
      <SyncChangesSection
        changes={[change({ changeId: 7 }), change({ changeId: 3, name: 'Older one', taskId: 4 })]}
        actions={actions}
        users={people}
        now={now}
      />,
    );
    const [first, second] = rows();
    const row = first as HTMLElement;
    // Newest first, as the bridge answers.
    expect(row.textContent).toContain('Fix the login page');
    expect(second?.textContent).toContain('Older one');
    expect(row.textContent).toContain('· Title');
    expect(row.textContent).toContain('Yours:Mine, offline');
    expect(row.textContent).toContain('Theirs:Theirs, later');
    expect(row.textContent).toContain('by Alex Morgan, 3m ago');
    expect(row.textContent).toContain('their value was kept');
    expect(screen.getByTestId('changes-count').textContent).toBe('2 to review');
    // The wire's words never show: no field keys, entity keys or ids.
    expect(row.textContent).not.toMatch(/taskTitle|task:|#12|\b12\b/);

    await user.click(within(row).getByRole('button', { name: 'Fix the login page' }));
    await user.click(within(row).getByRole('button', { name: 'Keep theirs' }));
    await user.click(within(row).getByRole('button', { name: 'Restore mine' }));
    await user.click(within(row).getByRole('button', { name: 'Open' }));
    expect(calls).toEqual(['open 12', 'keep 7', 'restore 7', 'open 12']);
  });

  it('says values the way people read them: empty, Yes/No, days, names, long text clipped', () => {
    const long = `${'A very long description of the work. '.repeat(8)}The end.`;
    render(
      <SyncChangesSection
        changes={[
          change({ changeId: 5, field: 'dueDate', fieldLabel: 'Due date', mine: null }),
          change({
            changeId: 4,
            field: 'dueDate',
            fieldLabel: 'Due date',
            mine: '2026-03-04T12:00:00.000Z',
          }),
          change({
            changeId: 3,
            field: 'completed',
            fieldLabel: 'Done',
            mine: true,
            theirs: false,
          }),
          change({ changeId: 2, field: 'owners', fieldLabel: 'Owners', mine: [1, 8], theirs: [8] }),
          change({ changeId: 1, field: 'description', fieldLabel: 'Description', mine: long }),
        ]}
        actions={recorder().actions}
        users={people}
        now={now}
      />,
    );
    const [empty, day, done, owners, text] = rows().map((r) => r as HTMLElement);
    expect(empty?.textContent).toContain('Yours:empty');
    expect(day?.textContent).toMatch(/Yours:Mar 4/);
    expect(day?.textContent).not.toContain('2026-03-04');
    expect(done?.textContent).toContain('Yours:Yes');
    expect(done?.textContent).toContain('Theirs:No');
    expect(owners?.textContent).toContain('Yours:Demo User, Alex Morgan');
    expect(owners?.textContent).toContain('Theirs:Alex Morgan');
    const yours = within(text as HTMLElement).getByText(/^A very long/);
    expect(yours.textContent?.endsWith('…')).toBe(true);
    expect((yours.textContent ?? '').length).toBeLessThanOrEqual(80);
    expect(yours.getAttribute('title')).toBe(long.replace(/\s+/g, ' ').trim());
  });

  it('disables Restore mine with the reason, and shows settled rows as settled', () => {
    render(
      <SyncChangesSection
        changes={[
          change({
            changeId: 2,
            kind: 'deleted',
            field: null,
            fieldLabel: null,
            canRestore: false,
          }),
          change({ changeId: 1, settled: true, canRestore: false }),
        ]}
        actions={recorder().actions}
        now={now}
      />,
    );
    const [deleted, settled] = rows().map((r) => r as HTMLElement);
    const restore = within(deleted as HTMLElement).getByRole('button', { name: 'Restore mine' });
    expect((restore as HTMLButtonElement).disabled).toBe(true);
    expect(restore.getAttribute('aria-describedby')).toBeTruthy();
    const reason = document.getElementById(restore.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('Its last state was not kept, so it cannot be made again.');
    // A deleted task is not opened (its id names nothing now), and no values are shown.
    expect(within(deleted as HTMLElement).queryByRole('button', { name: 'Open' })).toBeNull();
    expect(deleted?.textContent).not.toContain('Yours:');

    expect(settled?.classList.contains('is-settled')).toBe(true);
    expect(within(settled as HTMLElement).getByText('Settled')).toBeTruthy();
    expect(within(settled as HTMLElement).queryByRole('button', { name: 'Keep theirs' })).toBe(
      null,
    );
    expect(within(settled as HTMLElement).queryByRole('button', { name: 'Restore mine' })).toBe(
      null,
    );
    expect(screen.getByTestId('changes-count').textContent).toBe('1 to review');
  });

  it('a create found on the server is only noted: Got it, nothing to keep or restore', async () => {
    const { calls, actions } = recorder();
    render(
      <SyncChangesSection
        changes={[
          change({
            changeId: 6,
            kind: 'adopted',
            field: null,
            fieldLabel: null,
            mine: null,
            theirs: null,
            by: null,
            // No writer's time: when it was noted.
            at: null,
            canRestore: false,
            message: 'The connection dropped while this was sent; it was made once.',
          }),
        ]}
        actions={actions}
        now={now}
      />,
    );
    const [row] = rows();
    expect(row?.textContent).toContain('made once');
    expect(row?.textContent).toContain('1m ago');
    expect(within(row as HTMLElement).queryByRole('button', { name: 'Keep theirs' })).toBeNull();
    expect(within(row as HTMLElement).queryByRole('button', { name: 'Restore mine' })).toBeNull();
    await userEvent.click(within(row as HTMLElement).getByRole('button', { name: 'Got it' }));
    expect(calls).toEqual(['keep 6']);
  });
});

/** A host behind the preload seam, holding one change, recording what the window asks. */
const host = {
  calls: [] as string[],
  list: { changes: [change({ changeId: 9 })], unseen: 1 } as SyncChanges,
  listeners: [] as ((event: string, payload: unknown) => void)[],
  emit(event: string, payload: unknown) {
    for (const l of host.listeners) l(event, payload);
  },
};

beforeAll(() => {
  window.worktray = {
    invoke: async (method: string, input: unknown) => {
      host.calls.push(`${method} ${JSON.stringify(input ?? {})}`);
      switch (method) {
        case 'users.list':
          return { ok: true, value: { users: [...people.values()] } };
        case 'sync.changes':
          return { ok: true, value: host.list };
        case 'sync.changesSeen':
          host.list = { ...host.list, unseen: 0 };
          return { ok: true, value: host.list };
        case 'sync.resolveChange':
          host.list = {
            ...host.list,
            changes: host.list.changes.map((c) => ({ ...c, settled: true, canRestore: false })),
          };
          return { ok: true, value: host.list };
        default:
          return { ok: false, error: { code: 'internal', message: method } };
      }
    },
    on: (listener) => {
      // The page subscribes to every event (renderer/bridge/transports.ts).
      if (typeof listener !== 'function') throw new Error('the page never asks for one event');
      host.listeners.push(listener);
      return () => host.listeners.splice(host.listeners.indexOf(listener), 1);
    },
  };
});

const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 50)));

const status = syncStatus.parse({
  online: true,
  activity: 'idle',
  paused: false,
  needsSignIn: false,
  pending: 0,
  pendingByKind: {},
  failed: [],
  nextRetryAt: null,
  lastSyncAt: now,
  lastError: null,
  bootstrap: null,
  notices: [],
  changesUnseen: 1,
});

function Toasts() {
  useSyncChangesToast();
  return null;
}

describe('the list in the Sync view, over the bridge', () => {
  it('marks the list seen on opening (the badge goes); an action answers the new list', async () => {
    useApp.setState({ sync: status, route: { view: 'sync' } });
    render(<LiveChanges />);
    await settle();
    expect(host.calls).toContain('sync.changesSeen {}');
    expect(useApp.getState().sync?.changesUnseen).toBe(0);
    const [row] = rows();
    expect(row?.textContent).toContain('Fix the login page');
    await userEvent.click(within(row as HTMLElement).getByRole('button', { name: 'Keep theirs' }));
    await settle();
    expect(host.calls).toContain('sync.resolveChange {"changeId":9,"choice":"keepTheirs"}');
    expect(within(rows()[0] as HTMLElement).getByText('Settled')).toBeTruthy();
    // The pressed button is gone: focus is on its row, not lost to the page.
    expect(document.activeElement).toBe(rows()[0]);
  });

  it('says when a sync changed the user’s edits elsewhere; Review opens the Sync view', async () => {
    useApp.setState({ route: { view: 'my' } });
    useToasts.getState().clear();
    render(<Toasts />);
    host.emit('sync.changesGrew', { unseen: 1, latestChangeId: 10 });
    host.emit('sync.changesGrew', { unseen: 2, latestChangeId: 11 });
    const toasts = useToasts.getState().toasts;
    // One toast, with the latest count.
    expect(toasts.map((t) => t.message)).toEqual(['Sync changed 2 of your edits']);
    expect(toasts[0]?.action?.label).toBe('Review');
    toasts[0]?.action?.run();
    expect(useApp.getState().route).toEqual({ view: 'sync' });
    // On the Sync view the list shows it: no toast.
    useToasts.getState().clear();
    host.emit('sync.changesGrew', { unseen: 1, latestChangeId: 12 });
    expect(useToasts.getState().toasts).toEqual([]);
  });
});
