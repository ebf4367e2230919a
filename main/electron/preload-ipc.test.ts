import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bridgeEventNames, bridgeMethodNames } from '../../shared/bridge';
import { method } from '../../shared/bridge/define';
import { registerBridge } from '../bridge/dispatcher';
import { localEndpoint } from '../bridge/endpoint';
import { createEventHub } from '../bridge/events';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './ipc-channels';
import { bindIpcCalls, forwardEvents, isTrustedFrame } from './ipc-transport';
import { createPreloadApi, type IpcRendererLike } from './preload-api';

/**
 * The preload and the IPC binding joined by an in-memory stand-in for Electron's IPC (the only
 * part that needs the binary), over a real dispatcher and event hub.
 */
const contract = {
  'notes.add': method(z.strictObject({ text: z.string().min(1) }), z.object({ count: z.number() })),
};
const events = { 'note.added': z.object({ id: z.number() }) };

const setup = (frame: { url: string; parent: unknown; detached?: boolean } | null, ours = true) => {
  const notes: string[] = [];
  const dispatcher = registerBridge(contract, {
    'notes.add': ({ text }) => {
      notes.push(text);
      return { count: notes.length };
    },
  });
  const hub = createEventHub(events);
  const endpoint = localEndpoint(dispatcher, hub);
  const handlers = new Map<string, (...args: unknown[]) => unknown>();
  const ipcMain = {
    handle: (channel: string, h: (...args: unknown[]) => unknown) => handlers.set(channel, h),
    removeHandler: (channel: string) => handlers.delete(channel),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  const sender = { id: 1 } as unknown as WebContents;
  const refused: string[] = [];
  const off = bindIpcCalls(ipcMain, endpoint, {
    isOurContents: () => ours,
    onRefused: (r) => refused.push(r),
  });
  const rendererListeners = new Set<(event: unknown, ...args: unknown[]) => void>();
  const ipc: IpcRendererLike = {
    invoke: async (channel, ...args) => {
      const h = handlers.get(channel);
      if (!h) throw new Error(`No handler registered for '${channel}'`);
      return h({ sender, senderFrame: frame } as unknown as IpcMainInvokeEvent, ...args);
    },
    on: (channel, l) => channel === EVENT_CHANNEL && rendererListeners.add(l),
    removeListener: (_c, l) => rendererListeners.delete(l),
  };
  let url = frame?.url ?? '';
  const contents = {
    isDestroyed: () => false,
    getURL: () => url,
    send: (channel: string, ...args: unknown[]) => {
      if (channel === EVENT_CHANNEL) for (const l of [...rendererListeners]) l({}, ...args);
    },
  };
  const stopEvents = forwardEvents([endpoint], () => contents);
  const api = createPreloadApi(ipc, Object.keys(contract), Object.keys(events));
  return {
    api,
    notes,
    hub,
    refused,
    off,
    handlers,
    stopEvents,
    navigate: (u: string) => (url = u),
    rendererListeners,
  };
};

const appFrame = { url: 'app://worktray/index.html', parent: null };

describe('the preload and the IPC binding', () => {
  it('carry a call to the dispatcher and its envelope back', async () => {
    const s = setup(appFrame);
    expect(await s.api.invoke('notes.add', { text: 'hi' })).toEqual({
      ok: true,
      value: { count: 1 },
    });
    expect(await s.api.invoke('notes.add', { text: '' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(s.notes).toEqual(['hi']);
  });

  it('refuse names outside the contract in the preload, before any IPC', async () => {
    const s = setup(appFrame);
    s.off();
    expect(await s.api.invoke('ipc.raw', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown-method' },
    });
    expect(() => s.api.on('note.deleted', () => {})).toThrow(/no bridge event/);
  });

  it('refuse calls from an iframe, another origin, a detached frame or another window', async () => {
    const cases = [
      setup({ url: 'app://worktray/index.html', parent: { url: 'app://worktray/' } }),
      setup({ url: 'https://evil.example/', parent: null }),
      setup({ url: 'app://other/index.html', parent: null }),
      setup({ url: 'file:///tmp/x.html', parent: null }),
      setup({ ...appFrame, detached: true }),
      setup(null),
      setup(appFrame, false),
    ];
    for (const s of cases) {
      expect(await s.api.invoke('notes.add', { text: 'x' })).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
      expect(s.notes).toEqual([]);
      expect(s.refused).toHaveLength(1);
    }
  });

  it('deliver events by name or all at once, until unsubscribed', () => {
    const s = setup(appFrame);
    const one: unknown[] = [];
    const all: unknown[] = [];
    const offOne = s.api.on('note.added', (p) => one.push(p));
    const offAll = s.api.on((e, p) => all.push([e, p]));
    s.hub.emit('note.added', { id: 1 });
    offOne();
    s.hub.emit('note.added', { id: 2 });
    offAll();
    s.hub.emit('note.added', { id: 3 });
    expect(one).toEqual([{ id: 1 }]);
    expect(all).toEqual([
      ['note.added', { id: 1 }],
      ['note.added', { id: 2 }],
    ]);
    expect(s.rendererListeners.size).toBe(0);
  });

  it('send no event to a window that left our origin', () => {
    const s = setup(appFrame);
    const seen: unknown[] = [];
    s.api.on((e) => seen.push(e));
    s.navigate('https://evil.example/');
    s.hub.emit('note.added', { id: 1 });
    expect(seen).toEqual([]);
    s.stopEvents();
  });

  it('expose exactly the contract names in the real preload', () => {
    expect(bridgeMethodNames).toContain('edits.apply');
    expect(bridgeEventNames).toContain('app.navigate');
    expect(isTrustedFrame({ url: 'app://worktray/#/task/1', parent: null })).toBe(true);
    expect([...setup(appFrame).handlers.keys()]).toEqual([INVOKE_CHANNEL]);
  });
});
