import { truncateSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClientError } from './errors';
import {
  authAnswer,
  fail,
  type Harness,
  harness,
  ok,
  type Recorded,
  rejection,
} from './test-support';
import { prepareMultipart } from './upload';

interface Part {
  headers: Record<string, string>;
  name: string | undefined;
  filename: string | undefined;
  body: Buffer;
}

/** A minimal multipart/form-data reader: enough to check our bytes part by part. */
const parseMultipart = (req: Recorded): Part[] => {
  const type = req.headers['content-type'] ?? '';
  const boundary = /boundary=(.+)$/.exec(type)?.[1];
  if (!boundary) throw new Error(`no boundary in ${type}`);
  const delim = Buffer.from(`--${boundary}`);
  const body = req.body;
  const parts: Part[] = [];
  let at = body.indexOf(delim);
  if (at !== 0) throw new Error('body must start with the boundary');
  for (;;) {
    at += delim.length;
    if (body.subarray(at, at + 2).toString() === '--') {
      if (body.subarray(at + 2).toString() !== '\r\n') throw new Error('bad epilogue');
      return parts;
    }
    if (body.subarray(at, at + 2).toString() !== '\r\n') throw new Error('bad delimiter line');
    at += 2;
    const headEnd = body.indexOf('\r\n\r\n', at);
    const head = body.subarray(at, headEnd).toString('utf8');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delim]), headEnd + 4);
    if (next < 0) throw new Error('unterminated part');
    const headers = Object.fromEntries(
      head.split('\r\n').map((l) => {
        const i = l.indexOf(':');
        return [l.slice(0, i).toLowerCase(), l.slice(i + 1).trim()];
      }),
    );
    const disp = headers['content-disposition'] ?? '';
    parts.push({
      headers,
      name: /\bname="([^"]*)"/.exec(disp)?.[1],
      filename: /filename="([^"]*)"/.exec(disp)?.[1],
      body: body.subarray(headEnd + 4, next),
    });
    at = next + 2;
  }
};

const attachmentsOf = (req: Recorded) =>
  parseMultipart(req).map((p, i) => ({
    attachmentId: i + 1,
    fileName: p.filename ?? '',
    size: p.body.length,
  }));

let h: Harness | undefined;
let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'worktray-upload-'));
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  await rm(dir, { recursive: true, force: true });
});

const bytes = (n: number, seed = 1) => {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
};

describe('multipart upload', () => {
  it('sends every file under the field "files", byte for byte', async () => {
    h = await harness((req, res) => ok(res, attachmentsOf(req)));
    const onDisk = join(dir, 'report.pdf');
    const diskBytes = bytes(300_000, 7);
    await writeFile(onDisk, diskBytes);
    const memory = bytes(70_000, 3);
    const out = await h.client.ops.uploadTaskAttachments({
      path: { taskId: 4 },
      files: [
        { name: 'notes.txt', data: new TextEncoder().encode('hello\r\n--not a boundary') },
        { name: 'photo.png', data: memory, contentType: 'image/x-custom' },
        { name: 'report.pdf', data: onDisk },
        { name: 'we"ird\nname.csv', data: new TextEncoder().encode('a,b') },
      ],
    });
    const req = h.server.requests[0]!;
    expect(req.path).toBe('/v1/tasks/4/attachments');
    expect(req.method).toBe('POST');
    expect(req.headers['x-org-id']).toBe('1');
    expect(Number(req.headers['content-length'])).toBe(req.body.length);
    const parts = parseMultipart(req);
    expect(parts.map((p) => p.name)).toEqual(['files', 'files', 'files', 'files']);
    expect(parts.map((p) => p.filename)).toEqual([
      'notes.txt',
      'photo.png',
      'report.pdf',
      'we%22ird%0Aname.csv',
    ]);
    expect(parts.map((p) => p.headers['content-type'])).toEqual([
      'text/plain',
      'image/x-custom',
      'application/pdf',
      'text/csv',
    ]);
    expect(parts[0]?.body.toString()).toBe('hello\r\n--not a boundary');
    expect(Buffer.compare(parts[1]!.body, Buffer.from(memory))).toBe(0);
    expect(Buffer.compare(parts[2]!.body, Buffer.from(diskBytes))).toBe(0);
    expect(out.map((a) => a.size)).toEqual([23, 70_000, 300_000, 3]);
  });

  it('reports progress monotonically up to the total', async () => {
    h = await harness((req, res) => ok(res, attachmentsOf(req)));
    const seen: [number, number][] = [];
    await h.client.ops.uploadProjectAttachments({
      path: { spaceId: 1, projectId: 2 },
      files: [
        { name: 'a.zip', data: bytes(1_000_000) },
        { name: 'b.json', data: new TextEncoder().encode('{}') },
      ],
      onProgress: (sent, total) => seen.push([sent, total]),
    });
    const total = h.server.requests[0]!.body.length;
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every(([, t]) => t === total)).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThan(seen[i - 1]![0]);
    expect(seen.at(-1)?.[0]).toBe(total);
  });

  it('progress stays monotonic when a 401 makes the body go out again', async () => {
    let uploads = 0;
    h = await harness((req, res) => {
      if (req.path === '/v1/auth/refresh') return ok(res, authAnswer(2));
      uploads++;
      if (req.headers.authorization !== 'Bearer access-2')
        return fail(res, 401, 'UNAUTHORIZED', 'expired');
      return ok(res, attachmentsOf(req));
    });
    const seen: number[] = [];
    const out = await h.client.ops.uploadSubtaskAttachments({
      path: { taskId: 1, subtaskId: 2 },
      files: [{ name: 'a.txt', data: bytes(200_000) }],
      onProgress: (sent) => seen.push(sent),
    });
    expect(uploads).toBe(2);
    expect(out[0]?.size).toBe(200_000);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
    expect(h.server.requests[2]?.path).toBe('/v1/tasks/1/subtasks/2/attachments');
  });

  const refusals: [string, () => { name: string; data: Uint8Array | string }[], string][] = [
    [
      '11 files',
      () => Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: bytes(3) })),
      'too-many',
    ],
    ['an empty file', () => [{ name: 'empty.txt', data: new Uint8Array(0) }], 'empty'],
    ['an .exe', () => [{ name: 'setup.exe', data: bytes(10) }], 'exe'],
    ['no files', () => [], 'none'],
    ['a missing path', () => [{ name: 'gone.txt', data: '/nonexistent/gone.txt' }], 'gone'],
  ];
  for (const [name, files] of refusals) {
    it(`refuses ${name} before sending anything`, async () => {
      h = await harness((req, res) => ok(res, attachmentsOf(req)));
      const e = await rejection(
        h.client.ops.uploadTaskAttachments({ path: { taskId: 1 }, files: files() }),
      );
      expect(e).toBeInstanceOf(ApiClientError);
      expect((e as ApiClientError).kind).toBe('validation');
      expect((e as ApiClientError).fieldErrors.length).toBeGreaterThan(0);
      expect(h.server.requests).toHaveLength(0);
    });
  }

  it('lists every violation', async () => {
    h = await harness((req, res) => ok(res, attachmentsOf(req)));
    const e = (await rejection(
      h.client.ops.uploadTaskAttachments({
        path: { taskId: 1 },
        files: [
          { name: 'a.exe', data: bytes(1) },
          { name: 'b.txt', data: new Uint8Array(0) },
        ],
      }),
    )) as ApiClientError;
    expect(e.fieldErrors.map((f) => f.field)).toEqual(['a.exe', 'b.txt']);
    expect(e.message).toContain('a.exe');
    expect(e.message).toContain('b.txt is empty');
  });

  it('maps a 413 from the server to validation with its message', async () => {
    h = await harness((_req, res) =>
      fail(res, 413, 'PAYLOAD_TOO_LARGE', 'file too large for the plan'),
    );
    const e = (await rejection(
      h.client.ops.uploadTaskAttachments({
        path: { taskId: 1 },
        files: [{ name: 'a.txt', data: bytes(10) }],
      }),
    )) as ApiClientError;
    expect(e).toMatchObject({ kind: 'validation', status: 413 });
    expect(e.message).toBe('file too large for the plan');
  });

  it('fails (without a corrupt body) when a file shrinks while uploading', async () => {
    const path = join(dir, 'shrinks.txt');
    await writeFile(path, bytes(100_000));
    const body = await prepareMultipart('uploadTaskAttachments', [{ name: 'x.txt', data: path }]);
    await writeFile(path, bytes(10));
    const read = async () => {
      for await (const _ of body.stream()) {
        // drain
      }
    };
    const e = await rejection(read());
    expect((e as ApiClientError).kind).toBe('validation');
  });

  it('a file that shrinks mid-upload fails the call as validation, not a corrupt upload', async () => {
    h = await harness((req, res) => ok(res, attachmentsOf(req)));
    const path = join(dir, 'shrinks.txt');
    await writeFile(path, bytes(200_000));
    let truncated = false;
    const e = await rejection(
      h.client.ops.uploadTaskAttachments({
        path: { taskId: 1 },
        files: [{ name: 'x.txt', data: path }],
        onProgress: () => {
          // The first report comes after the part header, before the file is opened.
          if (!truncated) truncateSync(path, 10);
          truncated = true;
        },
      }),
    );
    expect(e).toBeInstanceOf(ApiClientError);
    expect((e as ApiClientError).kind).toBe('validation');
    expect((e as ApiClientError).message).toContain('changed while it was being uploaded');
  });

  it('accepts plan rules other than the reference plan', async () => {
    const body = await prepareMultipart(
      'uploadTaskAttachments',
      [{ name: 'a.exe', data: bytes(5) }],
      {
        maxFiles: 1,
        maxFileBytes: 10,
        allowedExtensions: ['exe'],
      },
    );
    expect(body.contentLength).toBeGreaterThan(5);
  });
});
