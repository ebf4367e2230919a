/**
 * Project Attachments against the reference server, through the typed client: every operation,
 * the project touched, the space nesting, refusals storing nothing, and org scoping.
 */
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { uploadRules } from '../../shared/api';
import {
  clientWithUploadRules,
  failure,
  insertProject,
  insertSpace,
  projectModifiedTime,
  rawCaller,
  taskWorld,
} from '../support/fixtures-items';
import { aliceBobCarol, signedIn, suiteServer } from './support';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('Project Attachments', () => {
  const ctx = suiteServer({
    ...aliceBobCarol,
    aliceInGlobex: signedIn('alice', 'globex'),
    lax: (server) =>
      clientWithUploadRules(server, 'alice', 'acme', {
        maxFiles: 100,
        maxFileBytes: uploadRules.maxFileBytes,
        allowedExtensions: [...uploadRules.allowedExtensions, 'exe'],
      }),
  });
  let world: ReturnType<typeof taskWorld>;
  let otherSpace: number;

  beforeAll(() => {
    const who = { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice };
    world = taskWorld(ctx.server.deps.db, who, ctx.server.deps.clock.now());
    otherSpace = insertSpace(ctx.server.deps.db, who, ctx.server.deps.clock.now(), 'Other');
  });

  const newProject = () => {
    const projectId = insertProject(
      ctx.server.deps.db,
      { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice },
      world.spaceId,
      ctx.server.deps.clock.now(),
    );
    return { spaceId: world.spaceId, projectId };
  };

  it('uploads in order, lists oldest first with state, gets, serves, renames and deletes', async () => {
    const p = newProject();
    let touched = projectModifiedTime(ctx.server.deps.db, p.projectId);
    const moved = () => {
      const t = projectModifiedTime(ctx.server.deps.db, p.projectId);
      expect(t).toBeGreaterThan(touched);
      touched = t;
    };
    const progress: number[] = [];
    const created = await ctx.alice.ops.uploadProjectAttachments({
      path: p,
      files: [
        { name: 'brief.docx', data: bytes('docx bytes') },
        { name: 'plan.xlsx', data: bytes('xlsx') },
      ],
      onProgress: (sent) => progress.push(sent),
    });
    moved();
    expect(progress.length).toBeGreaterThan(0);
    expect(created.map((a) => a.fileName)).toEqual(['brief.docx', 'plan.xlsx']);
    expect(created[0]).toMatchObject({
      projectId: p.projectId,
      taskId: null,
      subtaskId: null,
      size: 10,
    });
    expect(created[0]?.downloadUrl).toBe(
      `/v1/spaces/${p.spaceId}/projects/${p.projectId}/attachments/${created[0]?.attachmentId}/content`,
    );
    const [later] = await ctx.bob.ops.uploadProjectAttachments({
      path: p,
      files: [{ name: 'z.txt', data: bytes('zz') }],
    });
    const list = await ctx.alice.ops.getProjectAttachments({ path: p });
    expect(list.map((a) => a.fileName)).toEqual(['brief.docx', 'plan.xlsx', 'z.txt']);
    expect(list.map((a) => [a.completedBytes, a.totalSize])).toEqual([
      [10, 10],
      [4, 4],
      [2, 2],
    ]);
    expect(list[2]?.createdBy?.userId).toBe(ctx.server.users.bob);

    const first = { ...p, attachmentId: created[0]!.attachmentId };
    expect(await ctx.alice.ops.getProjectAttachment({ path: first })).toMatchObject({
      fileName: 'brief.docx',
      totalSize: 10,
    });
    const content = await ctx.alice.ops.getProjectAttachmentContent({ path: first });
    expect(new TextDecoder().decode(content.bytes)).toBe('docx bytes');
    expect(content.contentType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );

    expect(
      (await ctx.alice.ops.renameProjectAttachment({ path: first, body: { fileName: 'Brief v2' } }))
        .fileName,
    ).toBe('Brief v2.docx');
    moved();
    expect(
      (
        await ctx.alice.ops.renameProjectAttachment({
          path: first,
          body: { fileName: 'Brief v3.docx' },
        })
      ).fileName,
    ).toBe('Brief v3.docx');
    moved();

    const storedName = (
      ctx.server.deps.db
        .prepare('SELECT stored_name FROM attachments WHERE attachment_id = ?')
        .get(later!.attachmentId) as {
        stored_name: string;
      }
    ).stored_name;
    const raw = await rawCaller(ctx.server, 'alice', 'acme');
    const res = await raw(
      'DELETE',
      `/v1/spaces/${p.spaceId}/projects/${p.projectId}/attachments/${later!.attachmentId}`,
    );
    expect(res.status).toBe(204);
    moved();
    expect(readdirSync(ctx.server.deps.filesDir)).not.toContain(storedName);
    await ctx.alice.ops.deleteProjectAttachment({ path: first });
    expect((await ctx.alice.ops.getProjectAttachments({ path: p })).map((a) => a.fileName)).toEqual(
      ['plan.xlsx'],
    );
    expect((await failure(ctx.alice.ops.getProjectAttachmentContent({ path: first }))).status).toBe(
      404,
    );
  });

  it('refuses bad uploads (400, 415) and stores nothing', async () => {
    const p = newProject();
    const files = readdirSync(ctx.server.deps.filesDir).sort();
    const count = () =>
      (
        ctx.server.deps.db
          .prepare('SELECT COUNT(*) AS n FROM attachments WHERE project_id = ?')
          .get(p.projectId) as { n: number }
      ).n;
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: bytes('x') }));
    expect(
      (await failure(ctx.lax.ops.uploadProjectAttachments({ path: p, files: eleven }))).status,
    ).toBe(400);
    expect(
      (
        await failure(
          ctx.lax.ops.uploadProjectAttachments({
            path: p,
            files: [{ name: 'a.exe', data: bytes('MZ') }],
          }),
        )
      ).status,
    ).toBe(415);
    expect(readdirSync(ctx.server.deps.filesDir).sort()).toEqual(files);
    expect(count()).toBe(0);
  });

  it('checks the nesting: project of another space, attachment of another holder → 404', async () => {
    const p = newProject();
    const q = newProject();
    const [a] = await ctx.alice.ops.uploadProjectAttachments({
      path: p,
      files: [{ name: 'a.txt', data: bytes('a') }],
    });
    const [onTask] = await ctx.alice.ops.uploadTaskAttachments({
      path: { taskId: world.projectTask },
      files: [{ name: 't.txt', data: bytes('t') }],
    });
    const wrongSpace = { spaceId: otherSpace, projectId: p.projectId };
    const errors = await Promise.all([
      failure(ctx.alice.ops.getProjectAttachments({ path: wrongSpace })),
      failure(
        ctx.alice.ops.uploadProjectAttachments({
          path: wrongSpace,
          files: [{ name: 'x.txt', data: bytes('x') }],
        }),
      ),
      failure(
        ctx.alice.ops.getProjectAttachment({
          path: { ...wrongSpace, attachmentId: a!.attachmentId },
        }),
      ),
      // Another project's attachment, and a task's attachment under the task's own project.
      failure(
        ctx.alice.ops.getProjectAttachment({ path: { ...q, attachmentId: a!.attachmentId } }),
      ),
      failure(
        ctx.alice.ops.renameProjectAttachment({
          path: { ...q, attachmentId: a!.attachmentId },
          body: { fileName: 'x' },
        }),
      ),
      failure(
        ctx.alice.ops.deleteProjectAttachment({ path: { ...q, attachmentId: a!.attachmentId } }),
      ),
      failure(
        ctx.alice.ops.getProjectAttachmentContent({
          path: { ...q, attachmentId: a!.attachmentId },
        }),
      ),
      failure(
        ctx.alice.ops.getProjectAttachment({
          path: {
            spaceId: world.spaceId,
            projectId: world.projectId,
            attachmentId: onTask!.attachmentId,
          },
        }),
      ),
    ]);
    expect(errors.map((e) => e.status)).toEqual(Array(8).fill(404));
    expect(
      (await ctx.alice.ops.getProjectAttachment({ path: { ...p, attachmentId: a!.attachmentId } }))
        .fileName,
    ).toBe('a.txt');
  });

  it('another org gets 404 for every project attachment operation', async () => {
    const p = newProject();
    const [a] = await ctx.alice.ops.uploadProjectAttachments({
      path: p,
      files: [{ name: 'a.txt', data: bytes('a') }],
    });
    const one = { ...p, attachmentId: a!.attachmentId };
    for (const other of [ctx.carol, ctx.aliceInGlobex]) {
      const errors = await Promise.all([
        failure(other.ops.getProjectAttachments({ path: p })),
        failure(
          other.ops.uploadProjectAttachments({
            path: p,
            files: [{ name: 'x.txt', data: bytes('x') }],
          }),
        ),
        failure(other.ops.getProjectAttachment({ path: one })),
        failure(other.ops.renameProjectAttachment({ path: one, body: { fileName: 'x' } })),
        failure(other.ops.deleteProjectAttachment({ path: one })),
        failure(other.ops.getProjectAttachmentContent({ path: one })),
      ]);
      expect(errors.map((e) => e.status)).toEqual(Array(6).fill(404));
    }
    expect((await ctx.alice.ops.getProjectAttachments({ path: p })).map((x) => x.fileName)).toEqual(
      ['a.txt'],
    );
  });
});
