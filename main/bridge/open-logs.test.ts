import { describe, expect, it } from 'vitest';
import type { BridgeResponse } from '../../shared/bridge/define';
import type { BridgeEndpoint } from './endpoint';
import { withMainSide } from './main-side';
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

describe('withMainSide', () => {
  it('finishes a method of its table with the worker’s answer and the call’s input', async () => {
    const seen: unknown[] = [];
    const endpoint = withMainSide(host({ ok: true, value: { path: '/data' } }), {
      'app.openDataFolder': async (value, input) => {
        seen.push([value, input]);
        return { ok: true, value: 'finished' };
      },
    });
    expect(await endpoint.call('app.openDataFolder', { x: 1 })).toEqual({
      ok: true,
      value: 'finished',
    });
    expect(seen).toEqual([[{ path: '/data' }, { x: 1 }]]);
  });

  it('passes refusals and every other method through untouched', async () => {
    const refusal: BridgeResponse = { ok: false, error: { code: 'not-found', message: 'gone' } };
    const never = async (): Promise<BridgeResponse> => {
      throw new Error('not called');
    };
    expect(
      await withMainSide(host(refusal), { 'attachments.open': never }).call('attachments.open', {}),
    ).toBe(refusal);
    const answer: BridgeResponse = { ok: true, value: 42 };
    const other = withMainSide(host(answer), { 'attachments.open': never });
    expect(await other.call('tasks.list', {})).toBe(answer);
    // A name that is an Object.prototype key is no entry of the table either.
    expect(await other.call('toString', {})).toBe(answer);
  });
});
