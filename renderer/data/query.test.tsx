// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clearCache, holdReads, refreshAll, useQuery } from './query';

afterEach(cleanup);

/** A host behind the preload seam: answers `users.list` with whatever the test holds now. */
const host = {
  users: [{ userId: 1, firstName: 'Ada' }] as { userId: number; firstName: string }[],
  calls: 0,
  /** Whether `session.get` fails, as a host read can (a busy replica, a dropped request). */
  unreadFails: true,
};
beforeAll(() => {
  window.worktray = {
    invoke: async (method: string) => {
      host.calls++;
      if (method === 'notifications.unreadCount' && !host.unreadFails)
        return { ok: true, value: { count: 3 } };
      if (method !== 'users.list')
        return { ok: false, error: { code: 'internal', message: method } };
      return { ok: true, value: { users: host.users.map((u) => ({ ...u })) } };
    },
    on: () => () => undefined,
  };
});

const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 50)));

let renders = 0;
function Users() {
  const q = useQuery('users.list', {});
  renders++;
  return (
    <ul>
      {q.data?.users.map((u) => (
        <li key={u.userId}>{u.firstName}</li>
      ))}
    </ul>
  );
}

describe('useQuery re-reads', () => {
  it('wait for the next frame to paint, come once however many changes, and render only what changed', async () => {
    const view = render(<Users />);
    await settle();
    expect(view.container.textContent).toBe('Ada');
    const rendered = renders;
    const before = host.calls;

    // Five change events in a burst: nothing is read in the frame that shows the edit.
    for (let i = 0; i < 5; i++) refreshAll();
    expect(host.calls).toBe(before);
    await frame();
    expect(host.calls).toBe(before);
    await settle();
    expect(host.calls).toBe(before + 1);
    // The same answer again: nothing renders.
    expect(renders).toBe(rendered);

    host.users = [{ userId: 1, firstName: 'Grace' }];
    refreshAll();
    await settle();
    expect(view.container.textContent).toBe('Grace');
    expect(renders).toBe(rendered + 1);
  });
});

describe('signing out', () => {
  it('holds the re-reads a change asked for just before: none reach a host signed out', async () => {
    render(<Users />);
    await settle();
    const before = host.calls;
    // A pull's change arrives, its re-read waits for an idle moment; the user signs out.
    refreshAll();
    holdReads();
    await settle();
    expect(host.calls).toBe(before);
    refreshAll();
    await settle();
    expect(host.calls).toBe(before);
    // Signed in again: the cache is cleared to be read, and changes are read again.
    clearCache();
    await settle();
    const after = host.calls;
    expect(after).toBeGreaterThan(before);
    refreshAll();
    await settle();
    expect(host.calls).toBe(after + 1);
  });
});

function Unread() {
  const q = useQuery('notifications.unreadCount', {});
  return <p>{q.error ? 'failed' : q.data ? 'read' : 'loading'}</p>;
}

describe('a view shown again', () => {
  it('reads again what failed the time before, not only what it holds', async () => {
    const first = render(<Unread />);
    await settle();
    expect(first.container.textContent).toBe('failed');
    first.unmount();
    // The host answers again; the user comes back to the view within the minute it is kept.
    host.unreadFails = false;
    const again = render(<Unread />);
    await settle();
    expect(again.container.textContent).toBe('read');
  });
});
