/**
 * Item 8 of issue 15: the server's answers never echo a secret, never name a server path,
 * serve attachment bytes so that no browser sniffs or renders them, and refuse names the
 * contract does not allow (over 200 characters) instead of storing them.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInRaw, startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let token: string;
let taskId: number;
beforeAll(async () => {
  server = await startTestServer();
  token = (await signInRaw(server.url, 'alice@example.com')).accessToken;
  const res = await fetch(`${server.url}/v1/tasks`, {
    method: 'POST',
    headers: headers({ 'content-type': 'application/json' }),
    body: JSON.stringify({ taskTitle: 'holder' }),
  });
  taskId = ((await res.json()) as { data: { taskId: number } }).data.taskId;
});
afterAll(() => server.close());

function headers(extra: Record<string, string> = {}) {
  return { authorization: `Bearer ${token}`, 'x-org-id': String(server.orgs.acme), ...extra };
}

const json = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A multipart body written by hand: the file name goes out byte for byte. */
const upload = (fileName: string, content = 'hello') => {
  const boundary = '----wt-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return fetch(`${server.url}/v1/tasks/${taskId}/attachments`, {
    method: 'POST',
    headers: headers({ 'content-type': `multipart/form-data; boundary=${boundary}` }),
    body,
  });
};

const attachmentRows = () =>
  (server.deps.db.prepare('SELECT COUNT(*) AS n FROM attachments').get() as { n: number }).n;

describe('secrets in field errors', () => {
  it('never echoes a rejected password', async () => {
    const password = 'p'.repeat(1_001);
    const res = await json('/v1/auth/token', { email: 'alice@example.com', password });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain('password');
    expect(text).not.toContain(password);
  });

  it('never echoes a rejected refresh token, nor a wrongly typed secret', async () => {
    const refreshToken = 'short-secret';
    const res = await json('/v1/auth/refresh', { refreshToken });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain(refreshToken);
    const typed = await json('/v1/auth/token', { email: 'a@b.c', password: 12345678901 });
    expect(typed.status).toBe(400);
    expect(await typed.text()).not.toContain('12345678901');
  });
});

describe('upload errors', () => {
  it.each([
    ['a NUL in the name', 'evil\0name.txt'],
    ['a 300-character extension', `file.${'x'.repeat(300)}`],
    ['a control character', 'bell\x07.txt'],
  ])('answer a plain 400 for %s, naming no server path', async (_label, name) => {
    const before = attachmentRows();
    const res = await upload(name);
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).not.toContain(server.deps.filesDir);
    expect(text).not.toMatch(/ENAMETOOLONG|ERR_INVALID_ARG|\/tmp\//);
    expect(attachmentRows()).toBe(before);
  });

  it('refuses a name over 200 characters with 400 and the contract error shape; stores nothing', async () => {
    const before = attachmentRows();
    const res = await upload(`${'a'.repeat(197)}.txt`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { success: boolean; errors: { field: string }[] };
    expect(body).toMatchObject({ success: false, code: 400, status: 'BAD_REQUEST' });
    expect(body.errors[0]?.field).toBe('files');
    expect(attachmentRows()).toBe(before);
    // Nothing of the refused file stays on disk either.
    expect(readdirSync(server.deps.filesDir).length).toBe(before);
  });

  it('still stores a name of exactly 200 characters', async () => {
    const res = await upload(`${'b'.repeat(196)}.txt`);
    expect(res.status).toBe(200);
  });
});

describe('every answer', () => {
  it('says nosniff, errors and JSON included', async () => {
    const res = await json('/v1/auth/token', { email: 'x' });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const missing = await fetch(`${server.url}/nowhere`);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('attachment content', () => {
  it('is sent with nosniff, as a download with a safe file name', async () => {
    const name = 'report; q1 “final” é.txt';
    const res = await upload(name, '<html><script>alert(1)</script>');
    expect(res.status).toBe(200);
    const [att] = ((await res.json()) as { data: { attachmentId: number }[] }).data;
    const content = await fetch(
      `${server.url}/v1/tasks/${taskId}/attachments/${att?.attachmentId}/content`,
      { headers: headers() },
    );
    expect(content.status).toBe(200);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    const disposition = content.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment;/);
    // The quoted ASCII fallback carries no quote, semicolon or control character of the name.
    const quoted = /filename="([^"]*)"/.exec(disposition)?.[1];
    expect(quoted).toBeDefined();
    expect(quoted).toMatch(/^[\x20-\x7e]*$/);
    expect(quoted).not.toMatch(/[";\\]/);
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
    expect(content.headers.get('content-type')).toMatch(/^text\/plain/);
  });
});
