import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SECRET_HEADER } from '../../main/web/server';
import { bridgeContract } from '../../shared/bridge';
import { type BridgeFixture, eventually, startBridgeFixture } from '../bridge/support';

// Issue 15, the bridge fuzz: every bridge method's input, random and malformed, through browser
// mode's real HTTP bridge against the reference server (signed in to the demo, pushes paused so
// queued edits stay put). Never a 500, never a crash, and an input that is refused changes
// nothing: the replica's outbox, its data and its staged files are as they were.
// Replay a run with BRIDGE_FUZZ_SEED=<seed> (printed below); BRIDGE_FUZZ_RUNS sets its size.

const seed = Number(process.env.BRIDGE_FUZZ_SEED ?? Date.now() % 2 ** 31);
const runs = Number(process.env.BRIDGE_FUZZ_RUNS ?? 12);

type Contract = Record<string, { input: z.ZodType }>;
const contract = bridgeContract as unknown as Contract;
const methods = Object.keys(contract).sort();

/** Calls whose accepted input would end or move the session, or start work in the background. */
const notWhenAccepted = new Set([
  'session.signIn',
  'session.signOut',
  'session.startDemo',
  'session.switchOrg',
  'sync.now',
  'sync.resume',
  'sync.retry',
  'sync.cancelBootstrap',
]);

const trickyStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '../../../../etc/passwd',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  '%00',
  '<script>alert(1)</script>',
  "'; DROP TABLE tasks; --",
  'x'.repeat(5_000),
  '\ud800',
  '🙂'.repeat(100),
  '__proto__',
  'constructor',
  'http://169.254.169.254/',
  'NaN',
  '-1',
  '1e309',
  '2026-02-30T25:61:61Z',
);
const trickyNumbers = fc.constantFrom(
  0,
  -1,
  1,
  -0,
  0.5,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_VALUE,
  1e-300,
);
const junk: fc.Arbitrary<unknown> = fc.oneof(
  trickyStrings,
  trickyNumbers,
  fc.constantFrom(null, true, false, [], {}, [[[]]], { __proto__: { admin: true } }),
  fc.jsonValue({ maxDepth: 2 }),
);

const defOf = (s: z.ZodType) =>
  (s as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;

/**
 * Values near what a schema takes: its own keys, enum values and literals, ids of things that
 * exist, so that inputs get past the first checks and into the host's code. `mutate` also mixes
 * in junk for any value, and drops or adds keys; without it the value is well formed (it may
 * still name something that does not exist, or break a rule the schema cannot see).
 */
const near = (schema: z.ZodType, mutate: boolean, depth = 0): fc.Arbitrary<unknown> => {
  if (depth > 5) return junk;
  const def = defOf(schema);
  const inner = (s: unknown) => near(s as z.ZodType, mutate, depth + 1);
  const or = (good: fc.Arbitrary<unknown>) =>
    mutate ? fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: junk, weight: 1 }) : good;
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const keys = Object.keys(shape);
      const required = keys.filter(
        (k) => !['optional', 'default'].includes(defOf(shape[k] as z.ZodType).type),
      );
      const record = fc.record(Object.fromEntries(keys.map((k) => [k, inner(shape[k])])), {
        requiredKeys: required,
      });
      if (!mutate) return record;
      return fc
        .tuple(
          record,
          fc.option(fc.tuple(fc.string({ maxLength: 8 }), junk), { freq: 6 }),
          fc.option(fc.constantFrom(...(keys.length ? keys : ['x'])), { freq: 6 }),
        )
        .map(([value, extra, drop]) => {
          const out: Record<string, unknown> = { ...value };
          if (drop !== null) delete out[drop];
          if (extra !== null) out[extra[0]] = extra[1];
          return out;
        });
    }
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map(inner));
    case 'enum':
      return or(fc.constantFrom(...Object.values(def.entries as Record<string, unknown>)));
    case 'literal':
      return or(fc.constantFrom(...(def.values as unknown[])));
    case 'array':
      return or(fc.array(inner(def.element), { maxLength: 3 }));
    case 'record':
      return or(fc.dictionary(fc.string({ maxLength: 6 }), inner(def.valueType), { maxKeys: 3 }));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.type === 'nullable' || mutate
        ? fc.oneof({ arbitrary: inner(def.innerType), weight: 4 }, fc.constant(null))
        : inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'lazy':
      return inner((def.getter as () => z.ZodType)());
    case 'string':
      return or(fc.oneof(fc.string({ maxLength: 40 }), trickyStrings));
    case 'number':
    case 'int':
      // Mostly ids the demo data has; negative ones name local (unsent) entities.
      return or(fc.oneof(fc.integer({ min: -3, max: 40 }), fc.integer(), trickyNumbers));
    case 'boolean':
      return or(fc.boolean());
    default:
      return junk;
  }
};

const inputOf = new Map(
  methods.map((m) => {
    const schema = contract[m]?.input as z.ZodType;
    return [m, fc.oneof(near(schema, false), near(schema, true), junk)];
  }),
);

describe('bridge fuzz', () => {
  let f: BridgeFixture;
  let filesDir = '';
  beforeAll(async () => {
    console.log(`bridge fuzz seed ${seed}, ${runs} runs a method (BRIDGE_FUZZ_SEED to replay)`);
    f = await startBridgeFixture();
    await f.call('session.startDemo', {});
    await f.call('sync.now', {});
    await f.call('sync.pause', {});
    filesDir = f.services.session.require().filesDir;
    // The first sync's tail (a pull finishing) must not pass for a refused call's doing.
    let last = '';
    await eventually(async () => {
      await new Promise((r) => setTimeout(r, 300));
      const now = snapshot().join();
      const still = now === last;
      last = now;
      return still;
    }, 20_000);
  }, 60_000);
  afterAll(async () => {
    console.log('bridge fuzz answers by status', Object.fromEntries(statuses));
    await f.close();
  });

  const db = () => f.services.session.require().engine.replica.db;
  /** What a refused input must leave as it was: the outbox, the synced data, staged files. */
  const tables = [
    'outbox',
    'outbox_files',
    'outbox_refs',
    'outbox_notices',
    'local_ids',
    'tasks',
    'task_owners',
    'task_tags',
    'checklist_items',
    'custom_field_values',
    'projects',
    'spaces',
    'comments',
    'attachments',
    'timers',
    'notifications',
    'users',
  ];
  const snapshot = () => {
    const parts = tables.map((t) => {
      const hash = createHash('sha256');
      for (const row of db().prepare(`SELECT * FROM ${t}`).raw().iterate())
        hash.update(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
      return `${t}:${hash.digest('hex').slice(0, 12)}`;
    });
    let staged: string[] = [];
    try {
      staged = readdirSync(join(filesDir, 'outbox-files')).sort();
    } catch {}
    return [...parts, `staged:${staged.join(',')}`];
  };

  const send = async (path: string, body: string, type = 'application/json') => {
    const res = await fetch(`${f.web.origin}/bridge/${path}`, {
      method: 'POST',
      headers: { 'content-type': type, origin: f.web.origin, [SECRET_HEADER]: f.web.secret },
      body,
    });
    return { status: res.status, text: await res.text() };
  };

  /** One call: never a 500; a refusal (any non-200) leaves the replica as it was. */
  /** Whether the host would take this body for this method (as its dispatcher parses it). */
  const wouldAccept = (method: string, body: string) => {
    try {
      const wire: unknown = body.trim() === '' ? {} : JSON.parse(body);
      return contract[method]?.input.safeParse(wire ?? {}).success ?? false;
    } catch {
      return false;
    }
  };

  /** How the host answered, by status: printed, so a run that reached no code shows. */
  const statuses = new Map<number, number>();

  /** The latest calls, for the failure message (what came before a failure matters). */
  const recent: string[] = [];
  const check = async (path: string, body: string, type?: string) => {
    const before = snapshot();
    const { status, text } = await send(path, body, type);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    recent.push(`${status} ${path} ${body.slice(0, 200)} → ${text.slice(0, 200)}`);
    if (recent.length > 8) recent.shift();
    if (!f.services.session.current) throw new Error(`signed out by:\n${recent.join('\n')}`);
    expect(status, `${path} ${body.slice(0, 300)} → ${text.slice(0, 300)}`).toBeLessThan(500);
    expect(() => JSON.parse(text), text.slice(0, 200)).not.toThrow();
    if (status !== 200) expect(snapshot(), recent.join('\n')).toEqual(before);
  };

  it('every method, random and malformed inputs: no 500, refusals change nothing', {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...methods).chain((m) => fc.tuple(fc.constant(m), inputOf.get(m) ?? junk)),
        async ([method, input]) => {
          const body = JSON.stringify(input) ?? 'null';
          if (notWhenAccepted.has(method) && wouldAccept(method, body)) return;
          await check(method, body);
        },
      ),
      { seed, numRuns: runs * methods.length, endOnFailure: true },
    );
    // Still signed in and answering.
    expect((await f.call('session.state', {})).signedIn).toBe(true);
  });

  it('malformed requests: bodies that are not JSON, odd method names and types', {
    timeout: 60_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...methods),
          fc.string({ maxLength: 30 }).map(encodeURIComponent),
          fc.constantFrom('%', '%E0%A4%A', '..%2f..%2fetc', 'attachments/1', 'events', '__proto__'),
        ),
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.constantFrom(
            '{',
            '[',
            '"',
            '{"a":',
            '\u0000',
            '[]'.repeat(10_000),
            `${'['.repeat(5_000)}`,
          ),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
        ),
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', ''),
        async (path, body, type) => {
          let name = path;
          try {
            name = decodeURIComponent(path);
          } catch {}
          if (
            notWhenAccepted.has(name) &&
            type.startsWith('application/json') &&
            wouldAccept(name, body)
          )
            return;
          await check(path, body, type);
        },
      ),
      { seed, numRuns: 150, endOnFailure: true },
    );
    expect((await f.call('session.state', {})).signedIn).toBe(true);
  });
});
