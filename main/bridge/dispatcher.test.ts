import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BridgeError, method } from '../../shared/bridge/define';
import { registerBridge } from './dispatcher';
import { createEventHub } from './events';

const contract = {
  'notes.add': method(
    z.strictObject({ text: z.string().min(1), times: z.number().int().default(1) }),
    z.object({ count: z.number().int() }),
  ),
  'notes.broken': method(z.strictObject({}), z.object({ count: z.number().int() })),
  'notes.fail': method(z.strictObject({ why: z.enum(['bridge', 'domain', 'bug']) }), z.null()),
};

class DomainError extends Error {}

const make = () => {
  const notes: string[] = [];
  const internal: string[] = [];
  const dispatcher = registerBridge(
    contract,
    {
      'notes.add': ({ text, times }) => {
        for (let i = 0; i < times; i++) notes.push(text);
        return { count: notes.length };
      },
      'notes.broken': () => ({ count: 'many' }) as unknown as { count: number },
      'notes.fail': async ({ why }) => {
        if (why === 'bridge') throw new BridgeError({ code: 'not-found', message: 'no such note' });
        if (why === 'domain') throw new DomainError('server said no');
        throw new TypeError('x is undefined');
      },
    },
    {
      mapError: (e) => (e instanceof DomainError ? { code: 'rejected', message: e.message } : null),
      onInternalError: (m) => internal.push(m),
    },
  );
  return { dispatcher, notes, internal };
};

describe('registerBridge', () => {
  it('parses input with defaults, calls the implementation and parses its answer', async () => {
    const { dispatcher, notes } = make();
    expect(await dispatcher.call('notes.add', { text: 'a' })).toEqual({
      ok: true,
      value: { count: 1 },
    });
    expect(await dispatcher.call('notes.add', { text: 'b', times: 2 })).toEqual({
      ok: true,
      value: { count: 3 },
    });
    expect(notes).toEqual(['a', 'b', 'b']);
  });

  it('refuses invalid input with field errors, before the implementation runs', async () => {
    const { dispatcher, notes } = make();
    const answer = await dispatcher.call('notes.add', { text: '', times: 1.5, extra: true });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('invalid-input');
    expect(answer.error.message).toMatch(/^invalid input for notes\.add: /);
    expect(answer.error.fieldErrors?.map((e) => e.field).sort()).toEqual(['', 'text', 'times']);
    expect(await dispatcher.call('notes.add', 'text')).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(notes).toEqual([]);
  });

  it('answers unknown methods, including inherited property names, with unknown-method', async () => {
    const { dispatcher } = make();
    for (const name of ['notes.remove', 'toString', '__proto__'])
      expect(await dispatcher.call(name, {})).toMatchObject({
        ok: false,
        error: { code: 'unknown-method' },
      });
  });

  it('turns thrown errors into serializable bridge errors', async () => {
    const { dispatcher, internal } = make();
    const errorOf = async (why: string) => {
      const r = await dispatcher.call('notes.fail', { why });
      return r.ok ? null : JSON.parse(JSON.stringify(r.error));
    };
    expect(await errorOf('bridge')).toEqual({ code: 'not-found', message: 'no such note' });
    expect(await errorOf('domain')).toEqual({ code: 'rejected', message: 'server said no' });
    expect(await errorOf('bug')).toEqual({
      code: 'internal',
      message: 'notes.fail failed: x is undefined',
    });
    expect(internal).toEqual(['notes.fail']);
  });

  it('refuses an answer its output schema does not accept', async () => {
    const { dispatcher, internal } = make();
    expect(await dispatcher.call('notes.broken', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid-output', fieldErrors: [{ field: 'count' }] },
    });
    expect(internal).toEqual(['notes.broken']);
  });

  it('refuses a contract with a method left unimplemented', () => {
    expect(() =>
      registerBridge(contract, {} as unknown as Parameters<typeof registerBridge>[1]),
    ).toThrow(/no implementation for notes\.add/);
  });
});

describe('createEventHub', () => {
  const events = { 'note.added': z.object({ id: z.number().int() }) };

  it('delivers parsed payloads to every subscriber until it unsubscribes', () => {
    const hub = createEventHub(events);
    const seen: unknown[] = [];
    const off = hub.subscribe((event, payload) => seen.push([event, payload]));
    hub.emit('note.added', { id: 1 });
    off();
    hub.emit('note.added', { id: 2 });
    expect(seen).toEqual([['note.added', { id: 1 }]]);
  });

  it('throws on an invalid payload or an unknown event, delivering nothing', () => {
    const hub = createEventHub(events);
    const seen: unknown[] = [];
    hub.subscribe((event) => seen.push(event));
    expect(() => hub.emit('note.added', { id: 'x' } as unknown as { id: number })).toThrow(
      /invalid payload for event note\.added: id: /,
    );
    expect(() => (hub.emit as (e: string, p: unknown) => void)('note.gone', {})).toThrow(
      /no bridge event named note\.gone/,
    );
    expect(seen).toEqual([]);
  });
});
