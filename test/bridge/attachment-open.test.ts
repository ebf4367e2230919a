import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEndpoint } from '../../main/bridge/endpoint';
import { hostOpensAttachments, safeFileName } from '../../main/electron/attachment-opener';
import type { AttachmentFile } from '../../shared/bridge';
import { tempDir } from '../sync/support';
import { type BridgeFixture, eventually, startBridgeFixture } from './support';

// Opening an attachment in Electron: the page cannot open a path, so the main process copies the
// file under its own name and hands it to the system (`shell.openPath`, recorded here). One
// still uploading opens from its staged copy in the outbox. Real engine and reference server.

describe('attachments.open, opened by the host', () => {
  let f: BridgeFixture;
  const opened: string[] = [];
  let answerOfOs = '';
  const dir = tempDir('wt-opened-');
  let open: (attachmentId: number) => ReturnType<ReturnType<typeof hostOpensAttachments>['call']>;
  let taskId = 0;

  beforeAll(async () => {
    f = await startBridgeFixture();
    await f.call('session.startDemo', {});
    await f.call('sync.now', {});
    const endpoint = hostOpensAttachments(localEndpoint(f.services.dispatcher, f.services.hub), {
      openPath: async (path) => {
        opened.push(path);
        return answerOfOs;
      },
      dir,
    });
    open = (attachmentId) => endpoint.call('attachments.open', { attachmentId });
    const { items } = await f.call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    taskId = items[0]?.taskId ?? 0;
  }, 60_000);
  afterAll(async () => {
    await f.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const value = (r: Awaited<ReturnType<typeof open>>) => {
    if (!r.ok) throw new Error(r.error.message);
    return r.value as AttachmentFile;
  };

  it('an upload still queued opens from its outbox copy, by name; once uploaded, from the server', {
    timeout: 60_000,
  }, async () => {
    await f.call('sync.pause', {});
    const made = await f.call('edits.apply', {
      kind: 'attachment.upload',
      taskId,
      files: [
        { name: 'first.txt', dataBase64: Buffer.from('one').toString('base64') },
        { name: '../../Notes: "week" 1.md', dataBase64: Buffer.from('# two').toString('base64') },
      ],
    });
    const [firstId, secondId] = made.ids ?? [];
    expect(secondId).toBeLessThan(0);

    // Without the host's opener (browser mode, or a caller that opens it itself): the staged copy.
    const plain = await f.call('attachments.open', { attachmentId: secondId ?? 0 });
    expect(plain).toMatchObject({ source: 'outbox', openedByHost: false, url: null, size: 5 });
    expect(plain.path.startsWith(join(f.dataDir, 'replicas', 'outbox-files'))).toBe(true);
    expect(readFileSync(plain.path, 'utf8')).toBe('# two');

    const second = value(await open(secondId ?? 0));
    expect(second).toMatchObject({
      source: 'outbox',
      openedByHost: true,
      fileName: made.ids && '../../Notes: "week" 1.md',
    });
    expect(opened.at(-1)).toBe(second.path);
    // Its own name (made safe) in its own folder under the opener's dir, the bytes copied.
    expect(dirname(second.path)).toBe(join(dir, String(secondId)));
    expect(basename(second.path)).toBe('.._.._Notes_ _week_ 1.md');
    expect(readFileSync(second.path, 'utf8')).toBe('# two');
    expect(value(await open(firstId ?? 0)).fileName).toBe('first.txt');

    await f.call('sync.resume', {});
    await eventually(async () => {
      await f.call('sync.now', {});
      return (await f.call('sync.status', {}))?.pending === 0 || undefined;
    }, 30_000);
    // The view may still hold the local id: it names the uploaded attachment now (the engine
    // maps an upload's first local id to the server's).
    const uploaded = value(await open(firstId ?? 0));
    expect(uploaded).toMatchObject({
      source: 'network',
      openedByHost: true,
      fileName: 'first.txt',
    });
    expect(dirname(uploaded.path)).toBe(join(dir, String(firstId)));
    expect(readFileSync(uploaded.path, 'utf8')).toBe('one');
  });

  it("the system's refusal is said, and unknown ids stay not-found", async () => {
    const row = f.services.session
      .require()
      .engine.replica.db.prepare(
        'SELECT attachment_id FROM attachments WHERE attachment_id > 0 LIMIT 1',
      )
      .get() as { attachment_id: number };
    answerOfOs = 'no application is registered for this file type';
    const refused = await open(row.attachment_id);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'rejected', message: expect.stringContaining('no application is registered') },
    });
    answerOfOs = '';
    expect(await open(987_654)).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await open(-987_654)).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const count = opened.length;
    // Other methods pass through untouched.
    expect(
      await hostOpensAttachments(localEndpoint(f.services.dispatcher, f.services.hub), {
        openPath: async () => 'never',
        dir,
      }).call('settings.get', {}),
    ).toMatchObject({ ok: true });
    expect(opened).toHaveLength(count);
    expect(existsSync(join(dir, '987654'))).toBe(false);
  });
});

describe('safeFileName', () => {
  it('keeps a plain name, replaces separators, reserved and control characters, never empty', () => {
    expect(safeFileName('report 2026.pdf')).toBe('report 2026.pdf');
    expect(safeFileName('a/b\\c:d*e?.txt')).toBe('a_b_c_d_e_.txt');
    expect(safeFileName('bell\u0007\ttab.txt')).toBe('bell__tab.txt');
    expect(safeFileName('trailing. . ')).toBe('trailing');
    expect(safeFileName('..')).toBe('attachment');
    expect(safeFileName('')).toBe('attachment');
    expect(safeFileName('x'.repeat(300))).toHaveLength(200);
  });
});
