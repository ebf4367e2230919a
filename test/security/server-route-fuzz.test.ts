/**
 * Fuzz of every route's body (issue 15): random and malformed JSON, wrong types, huge
 * strings, unknown fields and near-valid objects built from each body schema's own keys,
 * against the real server over HTTP. Never a 500, the server stays up, and a refused
 * request (any 4xx) changes nothing: the whole database and the files dir are compared
 * before and after it.
 *
 * Replay: FUZZ_SEED=<seed printed below> [FUZZ_RUNS=n] npx vitest run <this file>
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type EndpointDef, endpoints } from '../../shared/api';
import { signInRaw, startTestServer, type TestServer } from '../support/server';

const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const numRuns = Number(process.env.FUZZ_RUNS ?? 1000);

let server: TestServer;
let token: string;
/** A real id for each path parameter name (a fuzzed path sometimes uses another number). */
const ids: Record<string, number> = {};

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-org-id': String(server.orgs.acme),
      ...(body === undefined || body instanceof FormData
        ? {}
        : { 'content-type': 'application/json' }),
    },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
const create = async (path: string, body: unknown, idField: string): Promise<number> => {
  const res = await call('POST', path, body);
  if (res.status >= 300) throw new Error(`fixture ${path}: ${res.status} ${await res.text()}`);
  const data = ((await res.json()) as { data: unknown }).data;
  const item = (Array.isArray(data) ? data[0] : data) as Record<string, number>;
  const value = item[idField];
  if (typeof value !== 'number') throw new Error(`fixture ${path}: no ${idField}`);
  return value;
};
const files = () => {
  const form = new FormData();
  form.append('files', new Blob(['fixture bytes']), 'fixture.txt');
  return form;
};

beforeAll(async () => {
  server = await startTestServer();
  token = (await signInRaw(server.url, 'alice@example.com')).accessToken;
  ids.spaceId = await create('/v1/spaces', { spaceName: 'Fuzz space' }, 'spaceId');
  const project = `/v1/spaces/${ids.spaceId}/projects`;
  ids.projectId = await create(project, { projectName: 'Fuzz project' }, 'projectId');
  const projectTasks = `${project}/${ids.projectId}/tasks`;
  ids.taskId = await create(projectTasks, { taskTitle: 'Fuzz task' }, 'taskId');
  ids.subtaskId = await create(
    `${projectTasks}/${ids.taskId}/subtasks`,
    { taskTitle: 'Fuzz subtask' },
    'taskId',
  );
  ids.parentTaskId = await create('/v1/tasks', { taskTitle: 'Fuzz personal' }, 'taskId');
  ids.checklistId = await create(
    `/v1/tasks/${ids.taskId}/checklists`,
    { name: 'Fuzz item' },
    'checklistId',
  );
  ids.attachmentId = await create(`/v1/tasks/${ids.taskId}/attachments`, files(), 'attachmentId');
  ids.trackId = await create(`/v1/time-track/${ids.parentTaskId}/start`, {}, 'trackId');
  ids.notificationId = 1;
  process.stdout.write(`route fuzz: FUZZ_SEED=${seed} FUZZ_RUNS=${numRuns}\n`);
});
afterAll(() => server.close());

/** Every table's rows and the files on disk, as one hash. */
const dump = (): string => {
  const db = server.deps.db;
  const hash = createHash('sha256');
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  for (const t of tables)
    hash.update(`${t}\n${JSON.stringify(db.prepare(`SELECT * FROM "${t}"`).raw().all())}\n`);
  hash.update(readdirSync(server.deps.filesDir).sort().join('\n'));
  return hash.digest('hex');
};

const rows = (Object.entries(endpoints) as [string, EndpointDef][]).filter(([, r]) => r.body);

/** Values a field may meet: right and wrong types, edges, huge and hostile strings. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'x',
    'To Do',
    'Done',
    'High',
    'BILLABLE',
    '2026-01-02T03:04:05Z',
    '2026-13-45T99:99:99Z',
    'x'.repeat(300),
    'y'.repeat(100_000),
    '\u0000',
    '../../etc/passwd',
    "'; DROP TABLE tasks; --",
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
    0,
    1,
    -1,
    2,
    100,
    101,
    1.5,
    2 ** 53,
    -(2 ** 53),
    1e308,
    Date.UTC(2026, 0, 2),
    true,
    false,
    null,
    [],
    {},
  ),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.array(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.string()), { maxLength: 5 }),
  fc.jsonValue({ maxDepth: 2 }),
);

const keysOf = (schema: unknown): string[] =>
  schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];

/** Plain values tried on every field; those a field's schema takes make near-valid bodies. */
const candidates: unknown[] = [
  'x',
  'Fuzz name',
  'To Do',
  'Done',
  'High',
  'BILLABLE',
  'NON_BILLABLE',
  '2026-01-02T03:04:05Z',
  0,
  1,
  50,
  100,
  Date.UTC(2026, 0, 2),
  Date.UTC(2026, 0, 2, 1),
  true,
  false,
  null,
  [],
  [1],
  ['tag'],
];

/**
 * Bodies that pass the schema field by field (when every field has a candidate), with one
 * field now and then swapped for a hostile value: these reach the handlers, not only zod.
 */
const nearValid = (schema: unknown): fc.Arbitrary<Record<string, unknown>> | null => {
  if (!(schema instanceof z.ZodObject)) return null;
  const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => {
    const good = candidates.filter((v) => field.safeParse(v).success);
    const optional = field.safeParse(undefined).success;
    const options = [...good, ...(optional ? [undefined] : [])];
    return [key, options.length > 0 ? fc.constantFrom(...options) : fieldValue] as const;
  });
  if (fields.length === 0) return null;
  return fc
    .tuple(
      fc.record(Object.fromEntries(fields)),
      fc.option(fc.tuple(fc.constantFrom(...fields.map(([k]) => k)), fieldValue), {
        freq: 2,
      }),
    )
    .map(([body, swap]) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(body)) if (v !== undefined) out[k] = v;
      if (swap) out[swap[0]] = swap[1];
      return out;
    });
};

type Payload =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string }
  | { kind: 'multipart'; bytes: Uint8Array };

const payloadFor = (row: EndpointDef): fc.Arbitrary<Payload> => {
  const keys = keysOf(row.body);
  const shaped = fc
    .tuple(
      fc.subarray(keys),
      fc.dictionary(
        fc.constantFrom(...keys, 'unknownField', '__proto__', 'constructor'),
        fieldValue,
        {
          maxKeys: 6,
        },
      ),
    )
    .map(([present, values]) => {
      const out: Record<string, unknown> = {};
      for (const k of present) out[k] = values[k] ?? 'x';
      for (const [k, v] of Object.entries(values))
        Object.defineProperty(out, k, { value: v, enumerable: true });
      return out;
    });
  const near = nearValid(row.body);
  return fc.oneof(
    { weight: 4, arbitrary: shaped.map((value): Payload => ({ kind: 'json', value })) },
    {
      weight: near ? 4 : 0,
      arbitrary: (near ?? fc.constant({})).map((value): Payload => ({ kind: 'json', value })),
    },
    { weight: 2, arbitrary: fc.jsonValue().map((value): Payload => ({ kind: 'json', value })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.oneof(
            fc.string(),
            fc.constantFrom('{', '{"a":', '[1,2', 'null', '"x"', '{}}', '\u0000'),
          ),
          fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
        )
        .map(([text, contentType]): Payload => ({ kind: 'raw', text, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc.constant<Payload>({
        kind: 'raw',
        text: JSON.stringify({ huge: 'z'.repeat(1_100_000) }),
        contentType: 'application/json',
      }),
    },
    {
      weight: row.body === 'multipart' ? 3 : 1,
      arbitrary: fc
        .uint8Array({ maxLength: 400 })
        .map((bytes): Payload => ({ kind: 'multipart', bytes })),
    },
  );
};

const pathFor = (row: EndpointDef): fc.Arbitrary<string> => {
  const names = [...row.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
  return fc
    .tuple(
      ...names.map((n) =>
        fc.oneof(
          { weight: 6, arbitrary: fc.constant(String(ids[n] ?? 1)) },
          { weight: 1, arbitrary: fc.integer({ min: -2, max: 10_000 }).map(String) },
          { weight: 1, arbitrary: fc.constantFrom('abc', '1.5', '9'.repeat(30), '%00') },
        ),
      ),
    )
    .map((values) => {
      let i = 0;
      return row.path.replace(/\{\w+\}/g, () => values[i++] ?? '1');
    });
};

const oversize = (p: Payload) => p.kind === 'raw' && p.text.length > 1024 * 1024;

const send = async (row: EndpointDef, path: string, p: Payload): Promise<Response> => {
  const headers: Record<string, string> =
    row.auth === 'none'
      ? {}
      : { authorization: `Bearer ${token}`, 'x-org-id': String(server.orgs.acme) };
  let body: BodyInit;
  if (p.kind === 'json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(p.value) ?? 'null';
  } else if (p.kind === 'raw') {
    headers['content-type'] = p.contentType;
    body = p.text;
  } else {
    headers['content-type'] = 'multipart/form-data; boundary=fuzz';
    body = Buffer.concat([
      Buffer.from(
        '--fuzz\r\nContent-Disposition: form-data; name="files"; filename="f.txt"\r\n\r\n',
      ),
      p.bytes,
    ]);
  }
  return fetch(`${server.url}${path}`, { method: row.method, headers, body });
};

describe('route body fuzz', () => {
  it('never answers 500, never crashes, and a refused request writes nothing', {
    timeout: 120_000,
  }, async () => {
    const statuses = new Map<number, number>();
    // Only the operation id goes into the counterexample (a row holds whole zod schemas).
    const byId = new Map(rows);
    const rowOf = (id: string): EndpointDef => {
      const row = byId.get(id);
      if (!row) throw new Error(`no row ${id}`);
      return row;
    };
    const arbitrary = fc
      .constantFrom(...byId.keys())
      .chain((id) => fc.tuple(fc.constant(id), pathFor(rowOf(id)), payloadFor(rowOf(id))));
    await fc.assert(
      fc.asyncProperty(arbitrary, async ([id, path, payload]) => {
        const row = rowOf(id);
        const before = dump();
        let res: Response;
        let text: string;
        try {
          res = await send(row, path, payload);
          text = await res.text();
        } catch (error) {
          const code = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
          // A body over the limit may be cut off mid-send: the server closes the connection
          // rather than read it all. That is a refusal too; it must have written nothing.
          if (oversize(payload) && /EPIPE|ECONNRESET|UND_ERR_SOCKET/.test(code)) {
            expect(dump(), `${id} ${path} cut off, wrote`).toBe(before);
            return;
          }
          throw new Error(`${id} ${path} (${payload.kind}): no answer: ${code}`);
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${id} ${path}: ${text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status >= 400) expect(dump(), `${id} ${path} ${res.status} wrote`).toBe(before);
      }),
      { seed, numRuns, endOnFailure: true },
    );
    // Still up, and still answering properly.
    expect((await call('GET', '/v1/spaces')).status).toBe(200);
    process.stdout.write(
      `route fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`,
    );
  });
});
