/**
 * Project Attachments against the reference server, through the typed client: every operation,
 * the project touched, the space nesting, refusals storing nothing, and org scoping.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadRules } from '../../shared/api';
import type { ApiClient } from '../../sync/api';
import { clientFor } from '../support/client';
import {
  clientWithUploadRules,
  failure,
  insertProject,
  insertSpace,
  projectModifiedTime,
  rawCaller,
  taskWorld,
} from '../support/fixtures-items';
import { startTestServer, type TestServer } from '../support/server';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('Project Attachments', () => {
  let server: TestServer;
  let alice: ApiClient;
  let bob: ApiClient;
  let carol: ApiClient;
  let aliceInGlobex: ApiClient;
  let lax: ApiClient;
  let world: ReturnType<typeof taskWorld>;
  let otherSpace: number;

  beforeAll(async () => {
    server = await startTestServer();
    const who = { orgId: server.orgs.acme, userId: server.users.alice };
    world = taskWorld(server.deps.db, who, server.deps.clock.now());
    otherSpace = insertSpace(server.deps.db, who, server.deps.clock.now(), 'Other');
    alice = await clientFor(server, 'alice', 'acme');
    bob = await clientFor(server, 'bob', 'acme');
    carol = await clientFor(server, 'carol', 'globex');
    aliceInGlobex = await clientFor(server, 'alice', 'globex');
    lax = await clientWithUploadRules(server, 'alice', 'acme', {
      maxFiles: 100,
      maxFileBytes: uploadRules.maxFileBytes,
      allowedExtensions: [...uploadRules.allowedExtensions, 'exe'],
    });
  });
  afterAll(async () => {
    await Promise.all([
      alice.close(),
      bob.close(),
      carol.close(),
      aliceInGlobex.close(),
      lax.close(),
    ]);
    await server.close();
  });

  const newProject = () => {
    const projectId = insertProject(
      server.deps.db,
      { orgId: server.orgs.acme, userId: server.users.alice },
      world.spaceId,
      server.deps.clock.now(),
    );
    return { spaceId: world.spaceId, projectId };
  };

  it('uploads in order, lists oldest first with state, gets, serves, renames and deletes', async () => {
    const p = newProject();
    let touched = projectModifiedTime(server.deps.db, p.projectId);
    const moved = () => {
      const t = projectModifiedTime(server.deps.db, p.projectId);
      expect(t).toBeGreaterThan(touched);
      touched = t;
    };
    const progress: number[] = [];
    const created = await alice.ops.uploadProjectAttachments({
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
    const [later] = await bob.ops.uploadProjectAttachments({
      path: p,
      files: [{ name: 'z.txt', data: bytes('zz') }],
    });
    const list = await alice.ops.getProjectAttachments({ path: p });
    expect(list.map((a) => a.fileName)).toEqual(['brief.docx', 'plan.xlsx', 'z.txt']);
    expect(list.map((a) => [a.completedBytes, a.totalSize])).toEqual([
      [10, 10],
      [4, 4],
      [2, 2],
    ]);
    expect(list[2]?.createdBy?.userId).toBe(server.users.bob);

    const first = { ...p, attachmentId: created[0]!.attachmentId };
    expect(await alice.ops.getProjectAttachment({ path: first })).toMatchObject({
      fileName: 'brief.docx',
      totalSize: 10,
    });
    const content = await alice.ops.getProjectAttachmentContent({ path: first });
    expect(new TextDecoder().decode(content.bytes)).toBe('docx bytes');
    expect(content.contentType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );

    expect(
      (await alice.ops.renameProjectAttachment({ path: first, body: { fileName: 'Brief v2' } }))
        .fileName,
    ).toBe('Brief v2.docx');
    moved();
    expect(
      (
        await alice.ops.renameProjectAttachment({
          path: first,
          body: { fileName: 'Brief v3.docx' },
        })
      ).fileName,
    ).toBe('Brief v3.docx');
    moved();

    const storedName = (
      server.deps.db
        .prepare('SELECT stored_name FROM attachments WHERE attachment_id = ?')
        .get(later!.attachmentId) as {
        stored_name: string;
      }
    ).stored_name;
    const raw = await rawCaller(server, 'alice', 'acme');
    const res = await raw(
      'DELETE',
      `/v1/spaces/${p.spaceId}/projects/${p.projectId}/attachments/${later!.attachmentId}`,
    );
    expect(res.status).toBe(204);
    moved();
    expect(readdirSync(server.deps.filesDir)).not.toContain(storedName);
    await alice.ops.deleteProjectAttachment({ path: first });
    expect((await alice.ops.getProjectAttachments({ path: p })).map((a) => a.fileName)).toEqual([
      'plan.xlsx',
    ]);
    expect((await failure(alice.ops.getProjectAttachmentContent({ path: first }))).status).toBe(
      404,
    );
  });

  it('refuses bad uploads (400, 415) and stores nothing', async () => {
    const p = newProject();
    const files = readdirSync(server.deps.filesDir).sort();
    const count = () =>
      (
        server.deps.db
          .prepare('SELECT COUNT(*) AS n FROM attachments WHERE project_id = ?')
          .get(p.projectId) as { n: number }
      ).n;
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: bytes('x') }));
    expect(
      (await failure(lax.ops.uploadProjectAttachments({ path: p, files: eleven }))).status,
    ).toBe(400);
    expect(
      (
        await failure(
          lax.ops.uploadProjectAttachments({
            path: p,
            files: [{ name: 'a.exe', data: bytes('MZ') }],
          }),
        )
      ).status,
    ).toBe(415);
    expect(readdirSync(server.deps.filesDir).sort()).toEqual(files);
    expect(count()).toBe(0);
  });

  it('checks the nesting: project of another space, attachment of another holder → 404', async () => {
    const p = newProject();
    const q = newProject();
    const [a] = await alice.ops.uploadProjectAttachments({
      path: p,
      files: [{ name: 'a.txt', data: bytes('a') }],
    });
    const [onTask] = await alice.ops.uploadTaskAttachments({
      path: { taskId: world.projectTask },
      files: [{ name: 't.txt', data: bytes('t') }],
    });
    const wrongSpace = { spaceId: otherSpace, projectId: p.projectId };
    const errors = await Promise.all([
      failure(alice.ops.getProjectAttachments({ path: wrongSpace })),
      failure(
        alice.ops.uploadProjectAttachments({
          path: wrongSpace,
          files: [{ name: 'x.txt', data: bytes('x') }],
        }),
      ),
      failure(
        alice.ops.getProjectAttachment({ path: { ...wrongSpace, attachmentId: a!.attachmentId } }),
      ),
      // Another project's attachment, and a task's attachment under the task's own project.
      failure(alice.ops.getProjectAttachment({ path: { ...q, attachmentId: a!.attachmentId } })),
      failure(
        alice.ops.renameProjectAttachment({
          path: { ...q, attachmentId: a!.attachmentId },
          body: { fileName: 'x' },
        }),
      ),
      failure(alice.ops.deleteProjectAttachment({ path: { ...q, attachmentId: a!.attachmentId } })),
      failure(
        alice.ops.getProjectAttachmentContent({ path: { ...q, attachmentId: a!.attachmentId } }),
      ),
      failure(
        alice.ops.getProjectAttachment({
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
      (await alice.ops.getProjectAttachment({ path: { ...p, attachmentId: a!.attachmentId } }))
        .fileName,
    ).toBe('a.txt');
  });

  it('another org gets 404 for every project attachment operation', async () => {
    const p = newProject();
    const [a] = await alice.ops.uploadProjectAttachments({
      path: p,
      files: [{ name: 'a.txt', data: bytes('a') }],
    });
    const one = { ...p, attachmentId: a!.attachmentId };
    for (const other of [carol, aliceInGlobex]) {
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
    expect((await alice.ops.getProjectAttachments({ path: p })).map((x) => x.fileName)).toEqual([
      'a.txt',
    ]);
  });
});
