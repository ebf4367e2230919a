// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { holdPatch, refreshAll, useQuery } from './query';

afterEach(cleanup);

/** A host whose `users.list` answers with the name it holds when asked, or later when held. */
const host = {
  name: 'Ada',
  calls: 0,
  held: null as null | { name: string; answer: () => void },
};
beforeAll(() => {
  window.worktray = {
    invoke: (method: string) => {
      host.calls++;
      if (method !== 'users.list')
        return Promise.resolve({ ok: false, error: { code: 'internal', message: method } });
      const value = { users: [{ userId: 1, firstName: host.name }] };
      if (!host.held) return Promise.resolve({ ok: true, value });
      return new Promise((resolve) => {
        if (host.held) host.held.answer = () => resolve({ ok: true, value });
      });
    },
    on: () => () => undefined,
  };
});

const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 50)));

function Users() {
  const q = useQuery('users.list', {});
  return <p>{q.data?.users.map((u) => u.firstName).join(', ')}</p>;
}

const rename = (name: string) => (method: string, data: unknown) =>
  method === 'users.list'
    ? {
        users: (data as { users: { userId: number }[] }).users.map((u) => ({
          ...u,
          firstName: name,
        })),
      }
    : data;

describe('an optimistic edit and a re-read that started before it', () => {
  it('keeps the edit on screen when the older answer lands, until the host has answered the edit', async () => {
    const view = render(<Users />);
    await settle();
    expect(view.container.textContent).toBe('Ada');

    // A re-read an earlier edit queued is on its way, with the state before the next edit.
    host.held = { name: 'Ada', answer: () => undefined };
    const calls = host.calls;
    refreshAll();
    await settle();
    expect(host.calls).toBe(calls + 1);

    // The user's edit paints at once...
    const release = await act(async () => holdPatch(rename('Grace')));
    expect(view.container.textContent).toBe('Grace');
    // ...and the older answer landing does not take it back.
    await act(async () => host.held?.answer());
    await settle();
    expect(view.container.textContent).toBe('Grace');

    // The host answered the edit: the next re-read is the truth.
    host.held = null;
    host.name = 'Grace';
    release();
    refreshAll();
    await settle();
    expect(view.container.textContent).toBe('Grace');
  });
});
