// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionState } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { MissingTask } from './task-missing';

afterEach(cleanup);

const session = (bootstrapping: boolean): SessionState => ({
  signedIn: true,
  serverUrl: 'http://127.0.0.1:1',
  user: null,
  organizations: [{ orgId: 1, orgName: 'Acme' }],
  currentOrgId: 1,
  demo: false,
  bootstrapping,
});

/** The host behind the preload seam: its session now, which the store may not know yet. */
const host = { bootstrapping: false };
beforeAll(() => {
  window.worktray = {
    invoke: async (method: string) =>
      method === 'session.state'
        ? { ok: true, value: session(host.bootstrapping) }
        : { ok: false, error: { code: 'internal', message: method } },
    on: () => () => undefined,
  };
});

const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 20)));
const heading = () => document.querySelector('aside strong')?.textContent;

describe('MissingTask', () => {
  it('says the task is gone when no fresh bootstrap is under way', async () => {
    host.bootstrapping = false;
    useApp.setState({ session: session(false) });
    render(<MissingTask onClose={() => undefined} />);
    await settle();
    expect(heading()).toBe('This task is no longer here');
  });

  it('waits for the task while the host fills the replica again, before the store knows', async () => {
    // The emptied replica reached the view first; the store still holds the old session.
    host.bootstrapping = true;
    useApp.setState({ session: session(false) });
    render(<MissingTask onClose={() => undefined} />);
    expect(heading()).toBeUndefined();
    expect(document.querySelector('aside')?.getAttribute('aria-busy')).toBe('true');
    await settle();
    expect(heading()).toBe('Copying this task from the server again');
    act(() => useApp.setState({ session: session(true) }));
    expect(heading()).toBe('Copying this task from the server again');
    // The fill ends without it: then it is gone.
    host.bootstrapping = false;
    act(() => useApp.setState({ session: session(false) }));
    await settle();
    expect(heading()).toBe('This task is no longer here');
  });
});
