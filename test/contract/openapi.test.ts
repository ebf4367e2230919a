/**
 * The generated OpenAPI document: one operation per endpoint-table row, the envelope, error
 * and header conventions of the contract, and a clean lint by a third-party validator
 * (Redocly CLI with the repository's redocly.yaml).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type OpenApiDocument } from '../../scripts/openapi/build-document';
import { queryShape } from '../../scripts/openapi/parameters';
import {
  contentTypesByExtension,
  type EndpointDef,
  endpoints,
  pathParamNames,
  uploadRules,
} from '../../shared/api/index';

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'openapi-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Param = { $ref?: string; name?: string; in?: string; required?: boolean; schema?: unknown };
type Operation = {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
};

const rows = Object.entries(endpoints) as [string, EndpointDef][];
const doc: OpenApiDocument = buildOpenApiDocument();
const operationOf = (row: EndpointDef): Operation | undefined =>
  (doc.paths?.[row.path] as Record<string, Operation> | undefined)?.[row.method.toLowerCase()];

/** Parameters with `$ref`s to components resolved. */
const paramsOf = (op: Operation): Param[] =>
  (op.parameters ?? []).map((p) => {
    if (!p.$ref) return p;
    const name = p.$ref.replace('#/components/parameters/', '');
    const components = (doc.components?.parameters ?? {}) as Record<string, Param>;
    return components[name] ?? p;
  });

const redoclyCli = (): string => {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('@redocly/cli/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin =
    typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin.redocly ?? Object.values(pkg.bin)[0]);
  return path.resolve(path.dirname(pkgPath), bin as string);
};

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with bearer security and named component schemas', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    const schemas = Object.keys(doc.components?.schemas ?? {});
    for (const name of [
      'Task',
      'Project',
      'Space',
      'ChecklistItem',
      'Attachment',
      'AttachmentWithState',
      'TimerRecord',
      'Notification',
      'Comment',
      'ApiError',
      'FieldError',
      'AuthTokens',
    ]) {
      expect(schemas, name).toContain(name);
    }
    expect(doc.info.description).toContain('Idempotency-Key');
  });

  it('declares a nullable reference as the reference or null, so that null validates', () => {
    // zod-to-openapi 9 writes `.nullable()` of a named schema as allOf [$ref, {type: [object,
    // null]}], which no null satisfies (null must match both); the document says anyOf.
    const overrides: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const allOf = (node as { allOf?: { type?: unknown }[] }).allOf;
      if (allOf?.some((s) => Array.isArray(s.type) && s.type.includes('null'))) overrides.push(at);
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    walk(doc, '');
    expect(overrides).toEqual([]);
    const schemas = doc.components?.schemas as Record<
      string,
      { properties: Record<string, unknown> }
    >;
    const nullableUser = {
      anyOf: [{ $ref: '#/components/schemas/UserRef' }, { type: 'null' }],
    };
    expect(schemas.Project?.properties.deletedBy).toEqual(nullableUser);
    expect(schemas.Task?.properties.createdBy).toEqual(nullableUser);
    const members = schemas.SpaceMember?.properties;
    expect(members?.invitedBy).toEqual(nullableUser);
  });

  it('has one operation per endpoint-table row, with its id, method, path and tag', () => {
    let count = 0;
    for (const item of Object.values(doc.paths ?? {})) {
      count += Object.keys(item).filter((k) =>
        ['get', 'post', 'put', 'delete', 'patch'].includes(k),
      ).length;
    }
    expect(count).toBe(rows.length);
    for (const [id, row] of rows) {
      const op = operationOf(row);
      expect(op, `${id}: ${row.method} ${row.path}`).toBeDefined();
      expect(op?.operationId).toBe(id);
      expect(op?.tags).toEqual([row.tag]);
    }
  });

  it('declares integer path parameters, X-Org-Id and Idempotency-Key where they apply', () => {
    for (const [id, row] of rows) {
      const params = paramsOf(operationOf(row) as Operation);
      for (const name of pathParamNames(row.path)) {
        const p = params.find((x) => x.in === 'path' && x.name === name);
        expect(p, `${id} path ${name}`).toMatchObject({
          required: true,
          schema: { type: 'integer' },
        });
      }
      const org = params.find((x) => x.in === 'header' && x.name === 'X-Org-Id');
      if (row.auth === 'none') expect(org, id).toBeUndefined();
      else expect(org, id).toMatchObject({ required: true, schema: { type: 'integer' } });
      const idem = params.find((x) => x.in === 'header' && x.name === 'Idempotency-Key');
      if (row.method === 'POST') expect(idem, id).toMatchObject({ required: false });
      else expect(idem, id).toBeUndefined();
      if (row.auth === 'none') expect(operationOf(row)?.security, id).toEqual([]);
    }
  });

  it('documents every query parameter of a row, with a typed schema', () => {
    for (const [id, row] of rows) {
      if (!row.query) continue;
      const shape = queryShape(row.query) ?? {};
      const params = paramsOf(operationOf(row) as Operation).filter((p) => p.in === 'query');
      expect(Object.keys(shape).length, id).toBeGreaterThan(0);
      expect(params.map((p) => p.name).sort(), id).toEqual(Object.keys(shape).sort());
      for (const p of params) {
        const typed = p.schema !== undefined ? JSON.stringify(p.schema) : 'content';
        expect(typed, `${id} ${p.name}`).not.toBe('{}');
      }
    }
  });

  it('wraps data in the success envelope; 204 and binary answers as the row says', () => {
    for (const [id, row] of rows) {
      const { responses, requestBody } = operationOf(row) as Operation;
      if (row.status === 204) {
        expect(responses['204'], id).toBeDefined();
        expect(responses['204']?.content, id).toBeUndefined();
        expect(responses['200'], id).toBeUndefined();
      } else if (row.produces === 'binary') {
        // The server answers a file with its attachment's contentType: one of the plan's.
        const types = new Set(uploadRules.allowedExtensions.map((e) => contentTypesByExtension[e]));
        expect(Object.keys(responses['200']?.content ?? {}).sort(), id).toEqual([...types].sort());
      } else {
        const schema = responses['200']?.content?.['application/json']?.schema as {
          $ref?: string;
          properties?: Record<string, unknown>;
        };
        if (row.data) expect(Object.keys(schema?.properties ?? {}), id).toContain('data');
        else expect(schema?.$ref, id).toBe('#/components/schemas/EmptyEnvelope');
      }
      if (row.body === 'multipart') {
        const schema = requestBody?.content['multipart/form-data']?.schema as
          | { properties?: Record<string, unknown> }
          | undefined;
        expect(schema?.properties?.files, id).toMatchObject({
          type: 'array',
          items: { format: 'binary' },
        });
      } else if (row.body) {
        expect(Object.keys(requestBody?.content ?? {}), id).toEqual(['application/json']);
      } else {
        expect(requestBody, id).toBeUndefined();
      }
    }
  });

  it('answers ApiError for the statuses that apply, and only those', () => {
    const timerMoves = [
      'startTimer',
      'startProjectTaskTimer',
      'pauseTimer',
      'resumeTimer',
      'stopTimer',
    ];
    for (const [id, row] of rows) {
      const { responses } = operationOf(row) as Operation;
      const has = (code: number | string) => responses[String(code)] !== undefined;
      // The contract's "5xx": 500, a fault's 503, a proxy's 502 or 504.
      for (const code of [400, 429, '5XX']) expect(has(code), `${id} ${code}`).toBe(true);
      expect(has(500), id).toBe(false);
      expect(has(401), id).toBe(true);
      expect(has(403), id).toBe(row.auth !== 'none');
      expect(has(404), id).toBe(pathParamNames(row.path).length > 0);
      // A timer move the state forbids; on a POST, an Idempotency-Key reused for another request.
      const idempotent = row.method === 'POST' && row.auth !== 'none';
      expect(has(409), id).toBe(timerMoves.includes(id) || idempotent);
      // Any body may be over the server's limit; only a file can be of a refused type.
      expect(has(413), id).toBe(row.body !== undefined);
      expect(has(415), id).toBe(row.body === 'multipart');
    }
    const responses = doc.components?.responses as Record<
      string,
      { content: unknown; headers?: unknown }
    >;
    expect(responses.NotFound?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/ApiError' } },
    });
    expect(responses.TooManyRequests?.headers).toHaveProperty('Retry-After');
  });

  it('is written by `npm run openapi` to the path given', async () => {
    const out = path.join(tmp, 'cli.json');
    await run(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'scripts/openapi.ts'), out],
      {
        cwd: repoRoot,
      },
    );
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(JSON.stringify(doc)));
  }, 60_000);

  it('lints with zero errors (Redocly CLI, redocly.yaml)', async () => {
    const file = path.join(tmp, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const args = [redoclyCli(), 'lint', file, '--config', path.join(repoRoot, 'redocly.yaml')];
    const { stdout } = await run(process.execPath, [...args, '--format=json'], {
      cwd: tmp,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((e: { stdout?: string; stderr?: string }) => {
      // A lint with errors exits non-zero; its JSON report is still on stdout.
      if (e.stdout?.includes('"totals"')) return { stdout: e.stdout };
      throw new Error(`redocly failed: ${e.stderr ?? e}`);
    });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: {
        ruleId: string;
        severity: string;
        message: string;
        location: { pointer: string }[];
      }[];
    };
    const errors = report.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 120_000);
});
