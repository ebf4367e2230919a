import { describe, expect, it } from 'vitest';
import type { BridgeResponse } from '../../shared/bridge/define';
import type { BridgeEndpoint } from './endpoint';
import { hostOpensFolders } from './open-logs';

const host = (answer: BridgeResponse): BridgeEndpoint => ({
  call: async () => answer,
  subscribe: () => () => {},
});

describe('hostOpensFolders', () => {
  it('opens the folder the host names and answers opened', async () => {
    const opened: string[] = [];
    const endpoint = hostOpensFolders(
      host({ ok: true, value: { path: '/data/logs', opened: false } }),
      async (p) => {
        opened.push(p);
        return '';
      },
    );
    expect(await endpoint.call('app.openLogsFolder', {})).toEqual({
      ok: true,
      value: { path: '/data/logs', opened: true },
    });
    expect(opened).toEqual(['/data/logs']);
  });

  it('opens the data folder the same way', async () => {
    const opened: string[] = [];
    const endpoint = hostOpensFolders(
      host({ ok: true, value: { path: '/data', opened: false } }),
      async (p) => {
        opened.push(p);
        return '';
      },
    );
    expect(await endpoint.call('app.openDataFolder', {})).toEqual({
      ok: true,
      value: { path: '/data', opened: true },
    });
    expect(opened).toEqual(['/data']);
  });

  it('a failed open keeps opened false; other methods pass through untouched', async () => {
    const endpoint = hostOpensFolders(
      host({ ok: true, value: { path: '/data/logs', opened: false } }),
      async () => 'no file manager',
    );
    expect(await endpoint.call('app.openLogsFolder', {})).toEqual({
      ok: true,
      value: { path: '/data/logs', opened: false },
    });
    const other = hostOpensFolders(host({ ok: true, value: 42 }), async () => {
      throw new Error('not called');
    });
    expect(await other.call('tasks.list', {})).toEqual({ ok: true, value: 42 });
  });
});
