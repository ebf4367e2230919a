/**
 * A refused upload leaves no file behind (issue 15's fuzz found it): an upload cut short
 * fails while its file is still being opened, and the clean-up ran before the open finished,
 * so an empty file could appear after it. A race: many cut uploads at once make it show.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInRaw, startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let headers: Record<string, string>;
let taskId: number;
beforeAll(async () => {
  server = await startTestServer();
  const { accessToken } = await signInRaw(server.url, 'alice@example.com');
  headers = { authorization: `Bearer ${accessToken}`, 'x-org-id': String(server.orgs.acme) };
  const res = await fetch(`${server.url}/v1/tasks`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ taskTitle: 'holder' }),
  });
  taskId = ((await res.json()) as { data: { taskId: number } }).data.taskId;
});
afterAll(() => server.close());

it('an upload cut short leaves no file in the files dir', { timeout: 60_000 }, async () => {
  const before = readdirSync(server.deps.filesDir);
  const cut = (i: number) =>
    Buffer.concat([
      Buffer.from(
        '--cut\r\nContent-Disposition: form-data; name="files"; filename="f.txt"\r\n\r\n',
      ),
      Buffer.from('abc'.repeat(i)),
      // No closing boundary: the upload ends in the middle of its file.
    ]);
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 150; i++) {
        const res = await fetch(`${server.url}/v1/tasks/${taskId}/attachments`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'multipart/form-data; boundary=cut' },
          body: cut(i),
        });
        await res.text();
        expect(res.status).toBe(400);
      }
    }),
  );
  expect(readdirSync(server.deps.filesDir)).toEqual(before);
});
