import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEndpoint } from '../../main/bridge/endpoint';
import { safeFileName } from '../../main/electron/attachment-names';
import { hostOpensAttachments } from '../../main/electron/attachment-opener';
import type { AttachmentFile } from '../../shared/bridge';
import { tempDir } from '../sync/support';
import { type BridgeFixture, eventually, startBridgeFixture } from './support';

// Opening an attachment in Electron: the page cannot open a path, so the main process copies the
// file under its own name, in the folder of the replica it came from, and hands it to the system
// (`shell.openPath`, recorded here). One still uploading opens from its staged copy in the
// outbox. Real engine and reference server.

describe('attachments.open, opened by the host', () => {
  let f: BridgeFixture;
  const opened: string[] = [];
  const shown: string[] = [];
  const marked: string[] = [];
  let answerOfOs = '';
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
      showItemInFolder: (path) => shown.push(path),
      markDownloaded: async (path) => {
        marked.push(path);
      },
      replicasDir: join(f.dataDir, 'replicas'),
    });
    open = (attachmentId) => endpoint.call('attachments.open', { attachmentId });
    const { items } = await f.call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    taskId = items[0]?.taskId ?? 0;
  }, 60_000);
  afterAll(async () => {
    await f.close();
  });
  /** The current org's replica folder, and where the host puts an attachment's copy. */
  const replicaFolder = () => f.services.session.require().filesDir;
  const openedDir = (id: number) => join(replicaFolder(), 'opened', String(id));

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
    expect(plain.path.startsWith(join(replicaFolder(), 'outbox-files'))).toBe(true);
    expect(readFileSync(plain.path, 'utf8')).toBe('# two');

    const second = value(await open(secondId ?? 0));
    expect(second).toMatchObject({
      source: 'outbox',
      openedByHost: true,
      fileName: made.ids && '../../Notes: "week" 1.md',
    });
    expect(opened.at(-1)).toBe(second.path);
    expect(marked.at(-1)).toBe(second.path);
    expect(shown).toEqual([]);
    // Its own name (made safe) in its own folder under the replica's, the bytes copied.
    expect(dirname(second.path)).toBe(openedDir(secondId ?? 0));
    expect(basename(second.path)).toBe('_.._Notes_ _week_ 1.md');
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
    expect(dirname(uploaded.path)).toBe(openedDir(firstId ?? 0));
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
        showItemInFolder: () => {},
        markDownloaded: async () => {},
        replicasDir: join(f.dataDir, 'replicas'),
      }).call('settings.get', {}),
    ).toMatchObject({ ok: true });
    expect(opened).toHaveLength(count);
    expect(existsSync(openedDir(987_654))).toBe(false);
  });

  it("another org's attachment is copied into that org's replica folder", async () => {
    const org1 = replicaFolder();
    await f.call('session.switchOrg', { orgId: 2 });
    await f.call('sync.now', {});
    try {
      const row = f.services.session
        .require()
        .engine.replica.db.prepare(
          'SELECT attachment_id FROM attachments WHERE attachment_id > 0 LIMIT 1',
        )
        .get() as { attachment_id: number };
      const copy = value(await open(row.attachment_id));
      expect(replicaFolder()).not.toBe(org1);
      expect(dirname(copy.path)).toBe(openedDir(row.attachment_id));
      expect(existsSync(join(org1, 'opened', String(row.attachment_id)))).toBe(false);
    } finally {
      await f.call('session.switchOrg', { orgId: 1 });
    }
  });

  it('a path outside every replica folder is refused, nothing copied or shown', async () => {
    const stray = join(tempDir('wt-stray-'), 'elsewhere.txt');
    writeFileSync(stray, 'not a replica file');
    const inner = localEndpoint(f.services.dispatcher, f.services.hub);
    const count = opened.length;
    const answer = await hostOpensAttachments(
      {
        subscribe: (listener) => inner.subscribe(listener),
        call: async () => ({
          ok: true,
          value: {
            url: null,
            fileName: 'elsewhere.txt',
            path: stray,
            contentType: null,
            size: 18,
            source: 'cache',
            openedByHost: false,
          },
        }),
      },
      {
        openPath: async (p) => {
          opened.push(p);
          return '';
        },
        showItemInFolder: (p) => shown.push(p),
        markDownloaded: async () => {},
        replicasDir: join(f.dataDir, 'replicas'),
      },
    ).call('attachments.open', { attachmentId: 5 });
    expect(answer).toMatchObject({ ok: false, error: { code: 'rejected' } });
    expect(opened).toHaveLength(count);
    expect(shown).toEqual([]);
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
    expect(safeFileName('x'.repeat(300))).toHaveLength(120);
    expect(safeFileName(`${'x'.repeat(300)}.pdf`)).toBe(`${'x'.repeat(120)}.pdf`);
  });
});
