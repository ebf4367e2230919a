import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEndpoint } from '../../main/bridge/endpoint';
import { APP_ENTRY_URL } from '../../main/electron/app-protocol';
import { INVOKE_CHANNEL } from '../../main/electron/ipc-channels';
import { bindIpcCalls } from '../../main/electron/ipc-transport';
import { SECRET_HEADER } from '../../main/web/server';
import type { BridgeResponse } from '../../shared/bridge/define';
import { type BridgeFixture, startBridgeFixture } from '../bridge/support';
import { tempDir } from '../sync/support';

// Issue 15, item 2: the bridge takes an upload's bytes from the page, never a path to read on
// the host. Whoever holds the browser-mode secret (or script in the page) could otherwise
// upload ~/.ssh/id_ed25519 and read it back through /bridge/attachments/<id>, and the error
// ("cannot read … ENOENT") told whether a file exists. Browser mode over real HTTP, and the
// Electron IPC binding (with an in-memory ipcMain) in front of the same services.

describe('attachment.upload takes bytes only, on every transport', () => {
  let f: BridgeFixture;
  let taskId = 0;
  const secretDir = tempDir('wt-secret-');
  const secret = join(secretDir, 'id_ed25519');
  writeFileSync(secret, '-----BEGIN OPENSSH PRIVATE KEY-----\nnot really\n');
  const missing = join(secretDir, 'no-such-key');

  const replica = () => f.services.session.require();
  const count = (sql: string) =>
    (replica().engine.replica.db.prepare(sql).get() as { n: number }).n;
  const snapshot = () => ({
    outbox: count('SELECT COUNT(*) AS n FROM outbox'),
    attachments: count('SELECT COUNT(*) AS n FROM attachments'),
    staged: (() => {
      try {
        return readdirSync(join(replica().filesDir, 'outbox-files')).length;
      } catch {
        return 0;
      }
    })(),
  });

  /** The IPC binding as main.ts wires it, called by our window's main frame. */
  const ipcCall = async (method: string, input: unknown): Promise<BridgeResponse> => {
    const handlers = new Map<string, (...args: unknown[]) => unknown>();
    const ipcMain = {
      handle: (channel: string, h: (...args: unknown[]) => unknown) => handlers.set(channel, h),
      removeHandler: (channel: string) => handlers.delete(channel),
    } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
    const off = bindIpcCalls(ipcMain, localEndpoint(f.services.dispatcher, f.services.hub), {
      isOurContents: () => true,
    });
    try {
      const event = {
        sender: { id: 1 } as unknown as WebContents,
        senderFrame: { url: APP_ENTRY_URL, parent: null },
      } as unknown as IpcMainInvokeEvent;
      return (await handlers.get(INVOKE_CHANNEL)?.(event, method, input)) as BridgeResponse;
    } finally {
      off();
    }
  };

  beforeAll(async () => {
    f = await startBridgeFixture();
    await f.call('session.startDemo', {});
    await f.call('sync.now', {});
    await f.call('sync.pause', {});
    const { items } = await f.call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    taskId = items[0]?.taskId ?? 0;
  }, 60_000);
  afterAll(() => f.close());

  const pathForms = (path: string) => [
    [{ path }],
    [{ path, name: 'notes.txt' }],
    // Bytes and a path together: the path is not quietly dropped either.
    [{ path, name: 'notes.txt', dataBase64: Buffer.from('x').toString('base64') }],
  ];

  it('browser mode refuses a {path} upload with the same answer whether the file exists or not; nothing is queued', async () => {
    const before = snapshot();
    for (const [i, files] of pathForms(secret).entries()) {
      const there = await f.post('edits.apply', { kind: 'attachment.upload', taskId, files });
      const gone = await f.post('edits.apply', {
        kind: 'attachment.upload',
        taskId,
        files: pathForms(missing)[i],
      });
      expect(there.status).toBe(400);
      expect(there.body).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
      // Byte for byte the same answer: it tells nothing of the disk.
      expect(gone).toEqual(there);
      const text = JSON.stringify(there.body);
      expect(text).not.toContain(secretDir);
      expect(text).not.toMatch(/ENOENT|cannot read/i);
    }
    expect(snapshot()).toEqual(before);
  });

  it('the Electron IPC binding refuses it the same way', async () => {
    const before = snapshot();
    for (const [i, files] of pathForms(secret).entries()) {
      const there = await ipcCall('edits.apply', { kind: 'attachment.upload', taskId, files });
      const gone = await ipcCall('edits.apply', {
        kind: 'attachment.upload',
        taskId,
        files: pathForms(missing)[i],
      });
      expect(there).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
      expect(gone).toEqual(there);
    }
    expect(snapshot()).toEqual(before);
  });

  it("the page's bytes still upload, and read back as sent", async () => {
    const before = snapshot();
    const made = await f.call('edits.apply', {
      kind: 'attachment.upload',
      taskId,
      files: [
        { name: 'from the page.txt', dataBase64: Buffer.from('page bytes').toString('base64') },
      ],
    });
    const id = made.ids?.[0] ?? 0;
    expect(id).toBeLessThan(0);
    expect(snapshot().outbox).toBe(before.outbox + 1);
    const res = await fetch(`${f.web.origin}/bridge/attachments/${id}`, {
      headers: { [SECRET_HEADER]: f.web.secret },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('page bytes');
  });
});
