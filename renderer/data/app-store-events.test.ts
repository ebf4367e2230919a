// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, useApp } from './app-store';

/**
 * The host events that move the window (the tray, the app menu, deep links), through the real
 * bridge client behind the preload seam: what reaches the store, and what the contract stops.
 */
const listeners: ((event: string, payload: unknown) => void)[] = [];
const push = (event: string, payload: unknown) => {
  for (const l of listeners) l(event, payload);
};
let disconnect = () => {};

beforeAll(() => {
  window.worktray = {
    // The store's first reads fail: only the events matter here.
    invoke: async () => ({ ok: false, error: { code: 'internal', message: 'not here' } }),
    on: (listener) => {
      // The page subscribes to every event (renderer/bridge/transports.ts).
      if (typeof listener !== 'function') throw new Error('the page never asks for one event');
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  };
  disconnect = connect();
});
afterAll(() => disconnect());

describe('the store following the host', () => {
  it('app.openView goes to the view it names: Settings, Sync', () => {
    useApp.setState({ route: { view: 'project', projectId: 7, mode: 'board' } });
    push('app.openView', { view: 'settings' });
    expect(useApp.getState().route).toEqual({ view: 'settings' });
    push('app.openView', { view: 'sync' });
    expect(useApp.getState().route).toEqual({ view: 'sync' });
  });

  it('a view the contract does not name changes nothing', () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    useApp.setState({ route: { view: 'my' } });
    push('app.openView', { view: 'admin' });
    push('app.openView', {});
    expect(useApp.getState().route).toEqual({ view: 'my' });
    expect(said.mock.calls.map((c) => c[0])).toEqual([
      'bridge event app.openView: payload refused',
      'bridge event app.openView: payload refused',
    ]);
    said.mockRestore();
  });

  it('app.navigate opens the task beside the current view', () => {
    useApp.setState({ route: { view: 'inbox' }, openTaskId: null });
    push('app.navigate', { taskId: 42 });
    expect(useApp.getState()).toMatchObject({ route: { view: 'inbox' }, openTaskId: 42 });
  });
});
