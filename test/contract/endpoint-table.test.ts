/**
 * The endpoint table against the documents beside the repository: every operation of the
 * spec's part 4 has a row with the same method and path, every operation the spec names
 * without a path has a row at the contract's path, and no row claims a source it lacks.
 * The spec and the contract are parsed, not copied, so a change to either is caught here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { queryShape } from '../../scripts/openapi/parameters';
import { type EndpointDef, endpoints, tags } from '../../shared/api/index';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const spec = readFileSync(path.resolve(repoRoot, '../shared/spec/work-management-api.md'), 'utf8');
const contract = readFileSync(path.resolve(repoRoot, '../shared/api-contract.md'), 'utf8');

const rows = Object.entries(endpoints) as [string, EndpointDef][];
type Method = EndpointDef['method'];
const METHOD = /^(GET|POST|PUT|DELETE)\b/;

/** `## N. Title` or `### Title` section bodies, by heading text. */
const sections = (md: string, level: '##' | '###'): Map<string, string> => {
  const out = new Map<string, string>();
  const parts = md.split(new RegExp(`^${level} `, 'm')).slice(1);
  const end = new RegExp(`^#{1,${level.length}} `, 'm');
  for (const part of parts) {
    const nl = part.indexOf('\n');
    out.set(part.slice(0, nl).trim(), part.slice(nl + 1).split(end)[0] ?? '');
  }
  return out;
};

/** The body rows of the markdown tables in `text`: header cells → cells. */
const tables = (text: string): Record<string, string>[] => {
  const out: Record<string, string>[] = [];
  let header: string[] | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      header = undefined;
      continue;
    }
    const cells = line.slice(1, line.trimEnd().endsWith('|') ? -1 : undefined).split('|');
    const trimmed = cells.map((c) => c.trim());
    if (!header) header = trimmed;
    else if (!trimmed.every((c) => /^:?-+:?$/.test(c)))
      out.push(Object.fromEntries(header.map((h, i) => [h, trimmed[i] ?? ''])));
  }
  return out;
};

/**
 * Expands an elided path (`.../tasks/{taskId}`, `…/timesheet/summary`) against the previous
 * full path: the suffix continues that path from its last segment named like the suffix's first.
 */
const expand = (p: string, previous: string | undefined): string => {
  const m = /^(?:\.\.\.|…)(\/.*)$/.exec(p);
  if (!m?.[1]) return p;
  if (!previous) throw new Error(`cannot expand ${p}: no previous path`);
  const suffix = m[1];
  const first = suffix.split('/')[1] ?? '';
  const at = previous.lastIndexOf(`/${first}`);
  return `${at >= 0 ? previous.slice(0, at) : previous}${suffix}`;
};

/** Path parameter names differ between the documents ({id} vs {notificationId}). */
const shape = (p: string) => p.replace(/\{\w+\}/g, '{}');
const rowAt = (method: string, p: string, exact: boolean) =>
  rows.find(([, r]) => r.method === method && (exact ? r.path === p : shape(r.path) === shape(p)));

interface SpecOp {
  section: string;
  /** The operation id, or undefined for the spec's unnamed rows ("rename", "list (task, …)"). */
  id?: string;
  label: string;
  method: Method;
  path: string;
  body: string;
}

/** Every operation of the tables of spec part 4, with full paths. */
const specOperations = (): SpecOp[] => {
  const part4 = [...sections(spec, '##')].find(([h]) => h.startsWith('4.'))?.[1];
  if (!part4) throw new Error('spec part 4 not found');
  const ops: SpecOp[] = [];
  for (const [section, text] of sections(`### x\n${part4}`, '###')) {
    // "Paths are relative to /v1/tasks/{taskId}." or per parent: "Task: /v1/tasks/{taskId}."
    const base = /Paths are relative to (\/v1\/\S+?)\.(?:\s|$)/.exec(text)?.[1];
    const parents = new Map(
      [...text.matchAll(/(\w+): (\/v1\/\S+?)\.(?=\s|$)/g)].map((m) => [
        (m[1] as string).toLowerCase(),
        m[2] as string,
      ]),
    );
    let previous: string | undefined;
    for (const row of tables(text)) {
      const label = row.Operation;
      const cell = row['Method and path'];
      if (label === undefined || cell === undefined) continue;
      const method = METHOD.exec(cell)?.[1] as Method | undefined;
      if (!method) throw new Error(`${section}: no method in "${cell}"`);
      const rest = cell.slice(method.length).trim();
      const raw = rest === '(same path)' ? previous : rest.split(/\s/)[0];
      if (!raw) throw new Error(`${section}: no path in "${cell}"`);
      const id = /^[A-Za-z_]\w*$/.test(label) ? label : undefined;
      const body = row.Body ?? '';
      const targets = /\(([^)]*)\)/
        .exec(label)?.[1]
        ?.split(',')
        .map((s) => s.trim());
      if (raw.startsWith('/v1/') || raw.startsWith('...')) {
        const full = expand(raw, previous);
        ops.push({ section, id, label, method, path: full, body });
        previous = full;
      } else if (targets && parents.size > 0) {
        for (const t of targets) {
          const parent = parents.get(t);
          if (!parent) throw new Error(`${section}: unknown parent ${t} in "${label}"`);
          ops.push({ section, label: `${label}: ${t}`, method, path: parent + raw, body });
        }
      } else if (base) {
        ops.push({ section, id, label, method, path: base + raw, body });
      } else {
        throw new Error(`${section}: relative path "${raw}" without a base`);
      }
    }
  }
  return ops;
};

/** `METHOD path` pairs the contract fixes: its table of operations without paths and its prose. */
const contractOperations = (): { method: Method; path: string; where: string }[] => {
  const out: { method: Method; path: string; where: string }[] = [];
  const table = [...sections(contract, '##')].find(([h]) => h.startsWith('Operations the spec'));
  if (!table) throw new Error('contract table "Operations the spec names without paths" not found');
  for (const row of tables(table[1])) {
    const cell = row['method and path'] ?? '';
    let methods: Method[] = [];
    let afterPath = false;
    let previous: string | undefined;
    // "GET, POST `p`", "GET `a` (…), DELETE `b`", "GET `a`, `b`, `…/c`"
    for (const m of cell.matchAll(/\b(GET|POST|PUT|DELETE)\b|`([^`]+)`/g)) {
      if (m[1]) {
        methods = afterPath ? [m[1] as Method] : [...methods, m[1] as Method];
        afterPath = false;
      } else if (m[2]?.startsWith('/') || m[2]?.startsWith('…') || m[2]?.startsWith('...')) {
        const full = expand(m[2], previous);
        for (const method of methods) out.push({ method, path: full, where: row.operation ?? '' });
        previous = full;
        afterPath = true;
      }
    }
  }
  for (const m of contract.matchAll(/`(GET|POST|PUT|DELETE) (\/v1\/[^`\s]+)`/g)) {
    out.push({ method: m[1] as Method, path: m[2] as string, where: 'prose' });
  }
  return out;
};

/** The spec's attachment parents, for the contract's `GET …/attachments/{attachmentId}/content`. */
const attachmentParents = (): string[] => {
  const text = [...sections(spec, '###')].find(([h]) => h === 'Attachments')?.[1] ?? '';
  return [...text.matchAll(/\w+: (\/v1\/\S+?)\.(?=\s|$)/g)].map((m) => m[1] as string);
};

/**
 * The spec's "exist, but their paths and payloads are not shown" list, mapped to the
 * contract's answer. Only this glue between two wordings is written by hand; a new item in
 * the spec's list, or a contract path that moved, fails the test.
 */
const gapAnswers: Record<string, string[]> = {
  'get active timers for a user': ['GET /v1/time-track/active'],
  'get timers for a user in a task': ['GET /v1/time-track/tasks/{taskId}'],
  'global timesheet report': ['GET /v1/time-track/timesheet'],
  'project timesheet': ['GET /v1/time-track/projects/{projectId}/timesheet'],
  'project timesheet summary': ['GET /v1/time-track/projects/{projectId}/timesheet/summary'],
  'get comments for a task': ['GET /v1/tasks/{taskId}/comments'],
  'project subtasks list and create': [
    'GET /v1/spaces/{spaceId}/projects/{projectId}/tasks/{taskId}/subtasks',
    'POST /v1/spaces/{spaceId}/projects/{projectId}/tasks/{taskId}/subtasks',
  ],
  'project attachments list and upload': [
    'GET /v1/spaces/{spaceId}/projects/{projectId}/attachments',
    'POST /v1/spaces/{spaceId}/projects/{projectId}/attachments',
  ],
  'notification delete and list': ['DELETE /v1/notifications/{id}', 'GET /v1/notifications'],
  'bulk list tasks': ['GET /v1/bulk/tasks'],
  'bulk list projects': ['GET /v1/bulk/projects'],
};

const specGaps = (): string[] => {
  const m =
    /The following operations exist, but their paths and payloads are not shown: ([^\n]+)/.exec(
      spec,
    );
  if (!m?.[1]) throw new Error('spec gap list not found');
  return m[1]
    .replace(/\.\s*$/, '')
    .split(';')
    .map((s) => s.trim());
};

describe('endpoint table vs spec part 4', () => {
  const ops = specOperations();

  it('parses the spec’s tables', () => {
    // Sanity bounds, so a parser that silently finds nothing cannot pass.
    expect(ops.length).toBeGreaterThanOrEqual(55);
    const ids = ops.flatMap((o) => (o.id ? [o.id] : []));
    for (const id of [
      'getAll',
      'createTask',
      'getAll_2',
      'getAllTasksInProject_1',
      'updateSubtask',
    ]) {
      expect(ids).toContain(id);
    }
    expect(ids).toContain('getAllCheckListsForTask');
    expect(ids).toContain('markNotificationAsRead');
    expect(ids).toContain('startProjectTaskTimer');
  });

  it('has a row for every named operation, with the same method and path', () => {
    const problems: string[] = [];
    for (const op of ops.filter((o) => o.id)) {
      const row = endpoints[op.id as keyof typeof endpoints] as EndpointDef | undefined;
      if (!row) problems.push(`${op.id}: no row (${op.method} ${op.path})`);
      else if (row.method !== op.method || row.path !== op.path)
        problems.push(
          `${op.id}: row is ${row.method} ${row.path}, spec says ${op.method} ${op.path}`,
        );
      else if (row.source !== 'spec') problems.push(`${op.id}: source should be 'spec'`);
    }
    expect(problems).toEqual([]);
  });

  it('has a row for every unnamed operation (create project task, list, upload, rename, …)', () => {
    const problems: string[] = [];
    for (const op of ops.filter((o) => !o.id)) {
      const hit = rowAt(op.method, op.path, true);
      if (!hit) problems.push(`${op.section} "${op.label}": no row for ${op.method} ${op.path}`);
      else if (hit[1].source !== 'spec') problems.push(`${hit[0]}: source should be 'spec'`);
    }
    expect(problems).toEqual([]);
  });

  it('every row with source spec is an operation of the spec', () => {
    const known = new Set(ops.map((o) => `${o.method} ${o.path}`));
    const extra = rows
      .filter(([, r]) => r.source === 'spec' && !known.has(`${r.method} ${r.path}`))
      .map(([id, r]) => `${id}: ${r.method} ${r.path}`);
    expect(extra).toEqual([]);
  });

  it('list rows take the paging and filter parameters the spec names', () => {
    const params = (label: string) =>
      [...sections(spec, '###')].find(([h]) => h.startsWith(label))?.[1] ?? '';
    const names = (text: string) =>
      text
        .replace(/\([^)]*\)/g, '')
        .replace(/\bplus\b/g, '')
        .split(/[;,]/)
        .map((s) => s.trim().replace(/\.$/, ''))
        .filter((s) => /^[a-z]\w*$/.test(s));
    const paging = tables(params('Paging and sorting')).map((r) => r['Query parameter'] ?? '');
    const taskFilters = names(
      tables(params('Task list filters'))
        .map((r) => r.Parameter)
        .join(','),
    );
    const projectFilters = names(params('Project list filters'));
    expect(paging).toEqual(['page', 'size', 'sort']);
    expect(taskFilters).toContain('customFields');
    expect(projectFilters).toContain('isPublic');
    const problems: string[] = [];
    for (const op of ops.filter((o) => o.id && /\b(filters|paging)\b/.test(o.body))) {
      const row = endpoints[op.id as keyof typeof endpoints] as EndpointDef | undefined;
      const keys = Object.keys((row?.query && queryShape(row.query)) ?? {});
      const want = [
        ...(/\bpaging\b/.test(op.body) ? paging : []),
        ...(/\bproject filters\b/.test(op.body)
          ? projectFilters
          : /\bfilters\b/.test(op.body)
            ? taskFilters
            : []),
      ];
      const missing = want.filter((n) => !keys.includes(n));
      if (missing.length) problems.push(`${op.id}: query lacks ${missing.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('endpoint table vs the contract', () => {
  const fixed = contractOperations();

  it('has a contract row for every operation the spec names without a path', () => {
    const problems: string[] = [];
    const gaps = specGaps();
    expect(gaps.length).toBeGreaterThanOrEqual(11);
    for (const gap of gaps) {
      const answers = gapAnswers[gap];
      if (!answers) {
        problems.push(`spec gap "${gap}" is not mapped to the contract`);
        continue;
      }
      for (const answer of answers) {
        const [method = '', p = ''] = answer.split(' ');
        if (!fixed.some((f) => f.method === method && shape(f.path) === shape(p)))
          problems.push(`"${gap}": the contract no longer fixes ${answer}`);
        const hit = rowAt(method, p, false);
        if (!hit) problems.push(`"${gap}": no row for ${answer}`);
        else if (hit[1].source !== 'contract')
          problems.push(`${hit[0]}: source should be 'contract'`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has a row for every path the contract fixes, including both auth operations', () => {
    const auth = fixed.filter((f) => f.path.startsWith('/v1/auth/'));
    expect(auth.map((a) => `${a.method} ${a.path}`).sort()).toEqual([
      'POST /v1/auth/refresh',
      'POST /v1/auth/token',
    ]);
    const problems: string[] = [];
    for (const f of fixed) {
      const hit = rowAt(f.method, f.path, false);
      if (!hit) problems.push(`${f.where}: no row for ${f.method} ${f.path}`);
    }
    for (const a of auth) {
      const row = rowAt(a.method, a.path, true)?.[1];
      expect(row?.auth, a.path).toBe('none');
      expect(row?.source, a.path).toBe('contract');
    }
    expect(problems).toEqual([]);
  });

  it('every row with source contract is fixed by the contract', () => {
    const parents = attachmentParents();
    expect(parents).toHaveLength(3);
    // "`downloadUrl` is `GET …/attachments/{attachmentId}/content`", for each attachment parent.
    const content = /`GET …\/attachments\/\{attachmentId\}\/content`/.test(contract)
      ? parents.map((p) => ({ method: 'GET', path: `${p}/attachments/{attachmentId}/content` }))
      : [];
    const known = new Set([...fixed, ...content].map((f) => `${f.method} ${shape(f.path)}`));
    const extra = rows
      .filter(([, r]) => r.source === 'contract' && !known.has(`${r.method} ${shape(r.path)}`))
      .map(([id, r]) => `${id}: ${r.method} ${r.path}`);
    expect(extra).toEqual([]);
  });
});

describe('endpoint table files', () => {
  it('has one file per tag of the spec, each holding that tag’s rows, composed in the index', async () => {
    const dir = path.resolve(repoRoot, 'shared/api/endpoints');
    const files = readdirSync(dir).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !/^(index|define|shared)\.ts$/.test(f),
    );
    const tagOfFile = new Map<string, string[]>();
    const composed = new Set<string>();
    for (const file of files) {
      const module = (await import(path.join(dir, file))) as Record<string, unknown>;
      for (const value of Object.values(module)) {
        if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
        const rowsOf = Object.entries(value as Record<string, Partial<EndpointDef>>).filter(
          ([, r]) => typeof r?.tag === 'string' && typeof r.path === 'string',
        );
        if (rowsOf.length === 0) continue;
        tagOfFile.set(file, [...new Set(rowsOf.map(([, r]) => r.tag as string))]);
        for (const [id] of rowsOf) composed.add(id);
      }
    }
    expect(
      [...tagOfFile.values()].every((t) => t.length === 1),
      JSON.stringify([...tagOfFile]),
    ).toBe(true);
    expect([...tagOfFile.values()].flat().sort()).toEqual([...tags].sort());
    expect([...composed].sort()).toEqual(Object.keys(endpoints).sort());
  });
});
