import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicasDir } from '../../main/services/data-layout';
import { replicaFolderName } from '../../sync/db/replica-name';
import { type BridgeFixture, eventually, startBridgeFixture } from '../bridge/support';

// Issue 15 item 4: signing out leaves nothing of the account readable that can be fetched again:
// the cached attachment content and the copies opened by the host, in every replica of that
// (server, user), go. Queued edits are never lost: the staged bytes of an upload still queued
// stay, and it is sent after the next sign-in. Other accounts' folders are not touched.

describe('sign-out wipes the account’s cached and opened files', () => {
  let f: BridgeFixture;
  beforeAll(async () => {
    f = await startBridgeFixture();
    await f.call('session.startDemo', {});
    await f.call('sync.now', {});
  }, 60_000);
  afterAll(() => f.close());

  const active = () => f.services.session.require();
  /** Caches one server attachment of the current org and puts an opened copy beside it. */
  const cacheAndOpen = async () => {
    const row = active()
      .engine.replica.db.prepare(
        'SELECT attachment_id FROM attachments WHERE attachment_id > 0 LIMIT 1',
      )
      .get() as { attachment_id: number };
    const file = await f.call('attachments.open', { attachmentId: row.attachment_id });
    expect(file.path.startsWith(join(active().filesDir, 'attachments'))).toBe(true);
    // Where the desktop host copies a file it hands to the system (attachment-opener.ts).
    const opened = join(active().filesDir, 'opened', String(row.attachment_id));
    mkdirSync(opened, { recursive: true });
    writeFileSync(join(opened, 'notes.txt'), 'a copy the user opened');
    return { cached: file.path, opened };
  };

  /** A folder of another account (or the same user id on another server) that must survive. */
  const bystander = (serverUrl: string, userId: number) => {
    const dir = join(replicasDir(f.dataDir), replicaFolderName({ serverUrl, userId, orgId: 1 }));
    for (const sub of ['attachments', 'opened/5', 'outbox-files'])
      mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, 'attachments', '5.bin'), 'theirs');
    writeFileSync(join(dir, 'opened', '5', 'theirs.txt'), 'theirs');
    return dir;
  };

  it('removes attachment content and opened copies of every org, keeps queued uploads', {
    timeout: 90_000,
  }, async () => {
    const userId = active().userId;
    const org1 = active().filesDir;
    const one = await cacheAndOpen();
    const { items } = await f.call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    const taskId = items[0]?.taskId ?? 0;
    await f.call('sync.pause', {});
    const upload = await f.call('edits.apply', {
      kind: 'attachment.upload',
      taskId,
      files: [{ name: 'queued.txt', dataBase64: Buffer.from('keep me').toString('base64') }],
    });
    const localId = upload.ids?.[0] ?? 0;
    const staged = await f.call('attachments.open', { attachmentId: localId });
    expect(staged.source).toBe('outbox');

    await f.call('session.switchOrg', { orgId: 2 });
    await f.call('sync.now', {});
    const org2 = active().filesDir;
    const two = await cacheAndOpen();
    const otherUser = bystander(f.server.url, userId + 1000);
    const otherServer = bystander('https://elsewhere.example', userId);

    await f.call('session.signOut', {});

    for (const gone of [one.cached, one.opened, two.cached, two.opened])
      expect(existsSync(gone), gone).toBe(false);
    for (const dir of [org1, org2]) {
      expect(existsSync(join(dir, 'attachments')), dir).toBe(false);
      expect(existsSync(join(dir, 'opened')), dir).toBe(false);
    }
    // The queued upload's bytes stay until it is sent.
    expect(existsSync(staged.path)).toBe(true);
    for (const dir of [otherUser, otherServer]) {
      expect(readdirSync(join(dir, 'attachments'))).toEqual(['5.bin']);
      expect(readdirSync(join(dir, 'opened', '5'))).toEqual(['theirs.txt']);
    }

    // Signed in again, the queued upload goes out: no edit was lost.
    await f.call('session.startDemo', {});
    await f.call('session.switchOrg', { orgId: 1 });
    await f.call('sync.resume', {});
    await eventually(async () => {
      await f.call('sync.now', {});
      return (await f.call('sync.status', {}))?.pending === 0 || undefined;
    }, 30_000);
    const names = active()
      .engine.replica.db.prepare('SELECT file_name FROM attachments WHERE attachment_id > 0')
      .all() as { file_name: string }[];
    expect(names.map((n) => n.file_name)).toContain('queued.txt');
  });
});
