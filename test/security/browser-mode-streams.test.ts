import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEndpoint } from '../../main/bridge/endpoint';
import { SECRET_HEADER, startWebBridge, type WebBridge } from '../../main/web/server';
import { tempDir } from '../sync/support';

// Issue 15 item 3: a file that vanishes or fails while it is streamed (a UI file, an
// attachment's content) must cost that one answer, never the process. Before the fix the read
// stream had no 'error' handler: the first failed read threw out of the event loop.

/** Reading it fails with EIO after a successful open: a read error with headers already sent. */
const FAILING_FILE = '/proc/self/mem';

describe('browser mode: a file that fails while streamed', () => {
  let web: WebBridge;
  let dir: string;
  /** What the stand-in host answers `attachments.open` with: a path the binding streams. */
  let attachmentPath = '';
  beforeAll(async () => {
    dir = tempDir('wt-streams-');
    mkdirSync(join(dir, 'dist', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(dir, 'dist', 'assets', 'big.js'), Buffer.alloc(16 * 1024 * 1024, 97));
    symlinkSync(FAILING_FILE, join(dir, 'dist', 'assets', 'broken.js'));
    web = await startWebBridge({
      endpoint: localEndpoint(
        {
          methods: ['attachments.open'],
          call: async () => ({
            ok: true,
            value: { path: attachmentPath, fileName: 'a.txt', contentType: 'text/plain' },
          }),
        },
        { subscribe: () => () => {} },
      ),
      staticDir: join(dir, 'dist'),
    });
  });
  afterAll(async () => {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stillServes = async () => {
    const page = await fetch(`${web.origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>app</title>');
  };

  /**
   * A request's fate: its error status, or 'cut' when the connection was dropped (before or
   * during the body), or 'complete'. A cut body is what a client should see once headers went.
   */
  const fate = (res: Promise<Response>): Promise<number | 'cut' | 'complete'> =>
    res.then(
      async (r) => {
        if (r.status !== 200) return r.status;
        try {
          await r.arrayBuffer();
          return 'complete';
        } catch {
          return 'cut';
        }
      },
      () => 'cut' as const,
    );
  const failedOrCut = (f: number | 'cut' | 'complete') =>
    f === 'cut' || (typeof f === 'number' && f >= 400);

  it('a UI file whose read fails: the answer is cut, the server goes on', async () => {
    // Headers may have gone before the read failed; then the only honest answer is a cut one.
    expect(failedOrCut(await fate(fetch(`${web.origin}/assets/broken.js`)))).toBe(true);
    await stillServes();
  });

  it('a UI file truncated mid-stream: the answer is cut, the server goes on', async () => {
    const file = join(dir, 'dist', 'assets', 'big.js');
    const res = await fetch(`${web.origin}/assets/big.js`);
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    await reader?.read();
    truncateSync(file, 0);
    let outcome = 'complete';
    try {
      for (;;) if ((await reader?.read())?.done !== false) break;
    } catch {
      outcome = 'cut';
    }
    expect(outcome).toBe('cut');
    await stillServes();
  });

  const attachment = () =>
    fetch(`${web.origin}/bridge/attachments/7`, { headers: { [SECRET_HEADER]: web.secret } });

  it('attachment content that vanished before it was opened: 404, the server goes on', async () => {
    attachmentPath = join(dir, 'gone.bin');
    const res = await attachment();
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'not-found' } });
    await stillServes();
  });

  it('attachment content whose read fails mid-stream: the answer is cut, the server goes on', async () => {
    attachmentPath = FAILING_FILE;
    expect(failedOrCut(await fate(attachment()))).toBe(true);
    await stillServes();
  });
});
