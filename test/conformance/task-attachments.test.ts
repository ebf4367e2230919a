/**
 * Task Attachments (tasks and subtasks) against the reference server, through the typed client:
 * upload with progress, order and state, content, rename keeping the extension, delete removing
 * the file, the upload rules refused with nothing stored, nesting and org scoping.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadRules } from '../../shared/api';
import type { UploadFile } from '../../sync/api';
import {
  clientWithUploadRules,
  failure,
  insertTask,
  rawCaller,
  taskModifiedTime,
  taskWorld,
} from '../support/fixtures-items';
import { signedIn, suiteServer } from './support';

const bytes = (text: string) => new TextEncoder().encode(text);
/** The 8 signature bytes and a bit: the server stores bytes, it does not parse images. */
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);

describe('Task Attachments', () => {
  const ctx = suiteServer({
    alice: signedIn('alice', 'acme'),
    carol: signedIn('carol', 'globex'),
    aliceInGlobex: signedIn('alice', 'globex'),
    /** The client's own checks off, so that the server's are what refuses. */
    lax: (server) =>
      clientWithUploadRules(server, 'alice', 'acme', {
        maxFiles: 100,
        maxFileBytes: 1024 * 1024 * 1024,
        allowedExtensions: [...uploadRules.allowedExtensions, 'exe'],
      }),
  });
  let world: ReturnType<typeof taskWorld>;
  let tmp: string;

  beforeAll(async () => {
    world = taskWorld(
      ctx.server.deps.db,
      { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice },
      ctx.server.deps.clock.now(),
    );
    tmp = await mkdtemp(join(tmpdir(), 'wm-att-test-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  const newTask = () =>
    insertTask(
      ctx.server.deps.db,
      { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice },
      ctx.server.deps.clock.now(),
    );
  const storedFiles = () => readdirSync(ctx.server.deps.filesDir).sort();
  const rowCount = () =>
    (ctx.server.deps.db.prepare('SELECT COUNT(*) AS n FROM attachments').get() as { n: number }).n;

  it('uploads several files with progress; answers them in the order sent', async () => {
    const taskId = newTask();
    const before = taskModifiedTime(ctx.server.deps.db, taskId);
    const progress: [number, number][] = [];
    const files: UploadFile[] = [
      { name: 'notes.txt', data: bytes('hello, world') },
      { name: 'logo.png', data: png },
      { name: 'Report.PDF', data: bytes('%PDF-1.4 fake') },
    ];
    const created = await ctx.alice.ops.uploadTaskAttachments({
      path: { taskId },
      files,
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    expect(created.map((a) => a.fileName)).toEqual(['notes.txt', 'logo.png', 'Report.PDF']);
    expect(created.map((a) => a.extension)).toEqual(['txt', 'png', 'pdf']);
    expect(created.map((a) => a.size)).toEqual([12, png.byteLength, 13]);
    expect(created.map((a) => a.contentType)).toEqual([
      'text/plain',
      'image/png',
      'application/pdf',
    ]);
    expect(created[0]).toMatchObject({ taskId, subtaskId: null, projectId: null });
    expect(created[0]?.createdBy?.userId).toBe(ctx.server.users.alice);
    expect(created[0]?.downloadUrl).toBe(
      `/v1/tasks/${taskId}/attachments/${created[0]?.attachmentId}/content`,
    );
    // Progress rises and ends at the whole body.
    expect(progress.length).toBeGreaterThan(1);
    const sent = progress.map(([s]) => s);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    const [lastSent, total] = progress.at(-1)!;
    expect(lastSent).toBe(total);
    expect(total).toBeGreaterThan(12 + png.byteLength + 13);
    expect(taskModifiedTime(ctx.server.deps.db, taskId)).toBeGreaterThan(before);
  });

  it('lists oldest first with state, gets one, and serves the same bytes', async () => {
    const taskId = newTask();
    const [first] = await ctx.alice.ops.uploadTaskAttachments({
      path: { taskId },
      files: [{ name: 'a.txt', data: bytes('first') }],
    });
    const later = await ctx.alice.ops.uploadTaskAttachments({
      path: { taskId },
      files: [
        { name: 'b.png', data: png },
        { name: 'c.json', data: bytes('{"a":1}') },
      ],
    });
    const list = await ctx.alice.ops.getTaskAttachments({ path: { taskId } });
    expect(list.map((a) => a.fileName)).toEqual(['a.txt', 'b.png', 'c.json']);
    for (const a of list) expect([a.completedBytes, a.totalSize]).toEqual([a.size, a.size]);
    const one = await ctx.alice.ops.getTaskAttachment({
      path: { taskId, attachmentId: later[0]!.attachmentId },
    });
    expect(one).toMatchObject({
      fileName: 'b.png',
      size: png.byteLength,
      completedBytes: png.byteLength,
      totalSize: png.byteLength,
    });
    const content = await ctx.alice.ops.getTaskAttachmentContent({
      path: { taskId, attachmentId: later[0]!.attachmentId },
    });
    expect([...content.bytes]).toEqual([...png]);
    expect(content.contentType).toBe('image/png');
    const text = await ctx.alice.ops.getTaskAttachmentContent({
      path: { taskId, attachmentId: first!.attachmentId },
    });
    expect(new TextDecoder().decode(text.bytes)).toBe('first');
  });

  it('rename keeps the stored extension, also when the user types it', async () => {
    const taskId = newTask();
    const [pdf, upper, txt] = await ctx.alice.ops.uploadTaskAttachments({
      path: { taskId },
      files: [
        { name: 'draft.pdf', data: bytes('%PDF') },
        { name: 'Scan.PDF', data: bytes('%PDF') },
        { name: 'readme.txt', data: bytes('x') },
      ],
    });
    const rename = (attachmentId: number, fileName: string) =>
      ctx.alice.ops.renameTaskAttachment({ path: { taskId, attachmentId }, body: { fileName } });
    expect((await rename(pdf!.attachmentId, 'Quarterly')).fileName).toBe('Quarterly.pdf');
    expect((await rename(pdf!.attachmentId, 'report.pdf')).fileName).toBe('report.pdf');
    expect((await rename(pdf!.attachmentId, 'report.PDF')).fileName).toBe('report.pdf');
    expect((await rename(pdf!.attachmentId, 'report.txt')).fileName).toBe('report.txt.pdf');
    expect((await rename(upper!.attachmentId, 'scan 2')).fileName).toBe('scan 2.PDF');
    const renamed = await rename(txt!.attachmentId, 'notes');
    expect(renamed).toMatchObject({
      fileName: 'notes.txt',
      extension: 'txt',
      attachmentId: txt!.attachmentId,
    });
    expect(
      (await ctx.alice.ops.getTaskAttachment({ path: { taskId, attachmentId: txt!.attachmentId } }))
        .fileName,
    ).toBe('notes.txt');
    // Only the extension, a blank or a path: refused by the server, the name unchanged.
    const raw = await rawCaller(ctx.server, 'alice', 'acme');
    for (const fileName of ['.pdf', '   ', 'a/b']) {
      const res = await raw('PUT', `/v1/tasks/${taskId}/attachments/${pdf!.attachmentId}`, {
        fileName,
      });
      expect(res.status).toBe(400);
    }
    expect(
      (await ctx.alice.ops.getTaskAttachment({ path: { taskId, attachmentId: pdf!.attachmentId } }))
        .fileName,
    ).toBe('report.txt.pdf');
  });

  it('delete answers 204, removes the row and the stored file, and touches the task', async () => {
    const taskId = newTask();
    const [keep, drop] = await ctx.alice.ops.uploadTaskAttachments({
      path: { taskId },
      files: [
        { name: 'keep.txt', data: bytes('keep') },
        { name: 'drop.txt', data: bytes('drop') },
      ],
    });
    const storedName = (
      ctx.server.deps.db
        .prepare('SELECT stored_name FROM attachments WHERE attachment_id = ?')
        .get(drop!.attachmentId) as {
        stored_name: string;
      }
    ).stored_name;
    expect(storedFiles()).toContain(storedName);
    const before = taskModifiedTime(ctx.server.deps.db, taskId);
    const raw = await rawCaller(ctx.server, 'alice', 'acme');
    const res = await raw('DELETE', `/v1/tasks/${taskId}/attachments/${drop!.attachmentId}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(storedFiles()).not.toContain(storedName);
    expect(taskModifiedTime(ctx.server.deps.db, taskId)).toBeGreaterThan(before);
    expect(
      (await ctx.alice.ops.getTaskAttachments({ path: { taskId } })).map((a) => a.fileName),
    ).toEqual(['keep.txt']);
    const path = { taskId, attachmentId: drop!.attachmentId };
    const gone = await Promise.all([
      failure(ctx.alice.ops.getTaskAttachment({ path })),
      failure(ctx.alice.ops.getTaskAttachmentContent({ path })),
      failure(ctx.alice.ops.deleteTaskAttachment({ path })),
    ]);
    expect(gone.map((e) => e.status)).toEqual([404, 404, 404]);
    // Through the client as well.
    await ctx.alice.ops.deleteTaskAttachment({
      path: { taskId, attachmentId: keep!.attachmentId },
    });
    expect(await ctx.alice.ops.getTaskAttachments({ path: { taskId } })).toEqual([]);
  });

  describe('refused uploads store nothing', () => {
    const expectNothingStored = async (
      send: () => Promise<{ status: number | undefined }>,
      status: number,
    ) => {
      const taskId = world.personal;
      const files = storedFiles();
      const rowsBefore = rowCount();
      const touched = taskModifiedTime(ctx.server.deps.db, taskId);
      const answer = await send();
      expect(answer.status).toBe(status);
      expect(storedFiles()).toEqual(files);
      expect(rowCount()).toBe(rowsBefore);
      expect(taskModifiedTime(ctx.server.deps.db, taskId)).toBe(touched);
    };
    const upload = (files: UploadFile[]) =>
      failure(ctx.lax.ops.uploadTaskAttachments({ path: { taskId: world.personal }, files }));

    it('11 files → 400', async () => {
      const eleven = Array.from({ length: 11 }, (_, i) => ({
        name: `f${i}.txt`,
        data: bytes(`file ${i}`),
      }));
      await expectNothingStored(() => upload(eleven), 400);
      // The client refuses it on its own, before sending anything.
      const local = await failure(
        ctx.alice.ops.uploadTaskAttachments({ path: { taskId: world.personal }, files: eleven }),
      );
      expect(local.kind).toBe('validation');
    });

    it('an empty file → 400, even beside a good one', async () => {
      const raw = await rawCaller(ctx.server, 'alice', 'acme');
      await expectNothingStored(async () => {
        const form = new FormData();
        form.append('files', new Blob([bytes('fine')], { type: 'text/plain' }), 'good.txt');
        form.append('files', new Blob([], { type: 'text/plain' }), 'empty.txt');
        return raw('POST', `/v1/tasks/${world.personal}/attachments`, form);
      }, 400);
    });

    it('no file at all → 400', async () => {
      const raw = await rawCaller(ctx.server, 'alice', 'acme');
      await expectNothingStored(async () => {
        const form = new FormData();
        form.append('note', 'no files here');
        return raw('POST', `/v1/tasks/${world.personal}/attachments`, form);
      }, 400);
    });

    it('a type not allowed (.exe) → 415', async () => {
      await expectNothingStored(
        () =>
          upload([
            { name: 'ok.txt', data: bytes('fine') },
            { name: 'setup.exe', data: bytes('MZ...') },
          ]),
        415,
      );
    });

    it('a file over 25 MiB → 413', async () => {
      const big = join(tmp, 'big.zip');
      await writeFile(big, '');
      await truncate(big, uploadRules.maxFileBytes + 1);
      await expectNothingStored(
        () =>
          upload([
            { name: 'ok.txt', data: bytes('fine') },
            { name: 'big.zip', data: big },
          ]),
        413,
      );
    });

    it('exactly 25 MiB is accepted', async () => {
      const edge = join(tmp, 'edge.zip');
      await writeFile(edge, '');
      await truncate(edge, uploadRules.maxFileBytes);
      const taskId = newTask();
      const [a] = await ctx.alice.ops.uploadTaskAttachments({
        path: { taskId },
        files: [{ name: 'edge.zip', data: edge }],
      });
      expect(a?.size).toBe(uploadRules.maxFileBytes);
      await ctx.alice.ops.deleteTaskAttachment({ path: { taskId, attachmentId: a!.attachmentId } });
    });

    it('an upload to a task of another org → 404, its files discarded', async () => {
      await expectNothingStored(
        () =>
          failure(
            ctx.carol.ops.uploadTaskAttachments({
              path: { taskId: world.personal },
              files: [{ name: 'x.txt', data: bytes('x') }],
            }),
          ),
        404,
      );
    });
  });

  describe('on subtasks', () => {
    it('uploads, lists, gets, renames, serves and deletes under the subtask', async () => {
      const path = { taskId: world.personal, subtaskId: world.personalSub };
      const before = taskModifiedTime(ctx.server.deps.db, world.personalSub);
      const [a, b] = await ctx.alice.ops.uploadSubtaskAttachments({
        path,
        files: [
          { name: 'one.md', data: bytes('# one') },
          { name: 'two.csv', data: bytes('a,b\n1,2\n') },
        ],
      });
      expect(taskModifiedTime(ctx.server.deps.db, world.personalSub)).toBeGreaterThan(before);
      expect(a).toMatchObject({
        taskId: world.personal,
        subtaskId: world.personalSub,
        fileName: 'one.md',
      });
      expect(a?.downloadUrl).toBe(
        `/v1/tasks/${world.personal}/subtasks/${world.personalSub}/attachments/${a?.attachmentId}/content`,
      );
      expect((await ctx.alice.ops.getSubtaskAttachments({ path })).map((x) => x.fileName)).toEqual([
        'one.md',
        'two.csv',
      ]);
      expect(
        (
          await ctx.alice.ops.getSubtaskAttachment({
            path: { ...path, attachmentId: b!.attachmentId },
          })
        ).totalSize,
      ).toBe(8);
      expect(
        (
          await ctx.alice.ops.renameSubtaskAttachment({
            path: { ...path, attachmentId: a!.attachmentId },
            body: { fileName: 'first' },
          })
        ).fileName,
      ).toBe('first.md');
      const content = await ctx.alice.ops.getSubtaskAttachmentContent({
        path: { ...path, attachmentId: b!.attachmentId },
      });
      expect(new TextDecoder().decode(content.bytes)).toBe('a,b\n1,2\n');
      await ctx.alice.ops.deleteSubtaskAttachment({
        path: { ...path, attachmentId: a!.attachmentId },
      });
      expect((await ctx.alice.ops.getSubtaskAttachments({ path })).map((x) => x.fileName)).toEqual([
        'two.csv',
      ]);
      // The parent task's list is its own.
      expect(
        (await ctx.alice.ops.getTaskAttachments({ path: { taskId: world.personal } })).map(
          (x) => x.fileName,
        ),
      ).not.toContain('two.csv');
    });

    it('checks the nesting: wrong parent or an attachment of another holder → 404', async () => {
      const [onTask] = await ctx.alice.ops.uploadTaskAttachments({
        path: { taskId: world.projectTask },
        files: [{ name: 't.txt', data: bytes('t') }],
      });
      const [onSub] = await ctx.alice.ops.uploadSubtaskAttachments({
        path: { taskId: world.projectTask, subtaskId: world.projectSub },
        files: [{ name: 's.txt', data: bytes('s') }],
      });
      const wrongParent = { taskId: world.personal, subtaskId: world.projectSub };
      const underSub = {
        taskId: world.projectTask,
        subtaskId: world.projectSub,
        attachmentId: onTask!.attachmentId,
      };
      const underTask = { taskId: world.projectTask, attachmentId: onSub!.attachmentId };
      const errors = await Promise.all([
        failure(ctx.alice.ops.getSubtaskAttachments({ path: wrongParent })),
        failure(
          ctx.alice.ops.uploadSubtaskAttachments({
            path: wrongParent,
            files: [{ name: 'x.txt', data: bytes('x') }],
          }),
        ),
        failure(
          ctx.alice.ops.getSubtaskAttachment({
            path: { ...wrongParent, attachmentId: onSub!.attachmentId },
          }),
        ),
        failure(ctx.alice.ops.getSubtaskAttachment({ path: underSub })),
        failure(ctx.alice.ops.renameSubtaskAttachment({ path: underSub, body: { fileName: 'x' } })),
        failure(ctx.alice.ops.deleteSubtaskAttachment({ path: underSub })),
        failure(ctx.alice.ops.getSubtaskAttachmentContent({ path: underSub })),
        failure(ctx.alice.ops.getTaskAttachment({ path: underTask })),
        failure(ctx.alice.ops.renameTaskAttachment({ path: underTask, body: { fileName: 'x' } })),
        failure(ctx.alice.ops.deleteTaskAttachment({ path: underTask })),
        failure(ctx.alice.ops.getTaskAttachmentContent({ path: underTask })),
      ]);
      expect(errors.map((e) => e.status)).toEqual(Array(11).fill(404));
      expect(
        (
          await ctx.alice.ops.getTaskAttachment({
            path: { taskId: world.projectTask, attachmentId: onTask!.attachmentId },
          })
        ).fileName,
      ).toBe('t.txt');
    });
  });

  it('another org gets 404 for every task and subtask attachment operation', async () => {
    const [a] = await ctx.alice.ops.uploadTaskAttachments({
      path: { taskId: world.personal },
      files: [{ name: 'p.txt', data: bytes('p') }],
    });
    const t = { taskId: world.personal, attachmentId: a!.attachmentId };
    const s = { taskId: world.personal, subtaskId: world.personalSub };
    for (const other of [ctx.carol, ctx.aliceInGlobex]) {
      const errors = await Promise.all([
        failure(other.ops.getTaskAttachments({ path: { taskId: world.personal } })),
        failure(other.ops.getTaskAttachment({ path: t })),
        failure(other.ops.renameTaskAttachment({ path: t, body: { fileName: 'x' } })),
        failure(other.ops.deleteTaskAttachment({ path: t })),
        failure(other.ops.getTaskAttachmentContent({ path: t })),
        failure(other.ops.getSubtaskAttachments({ path: s })),
        failure(
          other.ops.uploadSubtaskAttachments({
            path: s,
            files: [{ name: 'x.txt', data: bytes('x') }],
          }),
        ),
      ]);
      expect(errors.map((e) => e.status)).toEqual(Array(7).fill(404));
    }
    expect((await ctx.alice.ops.getTaskAttachment({ path: t })).fileName).toBe('p.txt');
  });
});
