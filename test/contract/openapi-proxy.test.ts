/**
 * The generated OpenAPI document against the reference server's real answers: every
 * operation of the endpoint table, called by the typed client through Prism's validating
 * proxy (./prism-proxy), with the shapes that matter to a validator present in the answers
 * (null and set user references, tombstones, custom fields, files of several types). Prism
 * must report no violation of an answer, and none of a request but one limit of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../scripts/openapi/build-document';
import { type OperationId, operationIds } from '../../shared/api/index';
import { type ApiClient, createApiClient, signIn } from '../../sync/api';
import { insertClientAndStage } from '../conformance/support';
import { insertNotification } from '../support/fixtures-items';
import { insertComment } from '../support/fixtures-work';
import { startTestServer, type TestServer } from '../support/server';
import { type PrismProxy, startPrismProxy, type Violation } from './prism-proxy';

const MIN = 60_000;
/** The task of a create-project-task answer (this server answers the task, not the project). */
const taskIdOf = (answer: object): number => {
  const { taskId } = answer as { taskId?: unknown };
  if (typeof taskId !== 'number') throw new Error('the server answered the project');
  return taskId;
};
/**
 * Prism keeps one value per multipart field name, the last part's, never an array
 * (stoplightio/prism#2654, open), so the document's `files` array (right for OpenAPI 3.1:
 * repeated parts) is reported on every upload. That report alone is left out.
 */
const prismReadsOnePart = (v: Violation): boolean =>
  /^POST \S+\/attachments$/.test(v.request) &&
  v.message === 'request.body.files Request body property files must be array';

const text = (name: string, body: string) => ({ name, data: new TextEncoder().encode(body) });

describe('OpenAPI document against the reference server, through Prism', () => {
  let server: TestServer;
  let proxy: PrismProxy;
  let alice: ApiClient;
  let bob: ApiClient;
  const called = new Set<string>();

  /** The client's operations, each call recorded by its operation id. */
  const recording = (client: ApiClient): ApiClient['ops'] =>
    new Proxy(client.ops, {
      get: (ops, id: string) => {
        called.add(id);
        return ops[id as OperationId];
      },
    });

  beforeAll(async () => {
    server = await startTestServer();
    proxy = await startPrismProxy(buildOpenApiDocument(), server.url);
    const open = async (user: 'alice' | 'bob') =>
      createApiClient({
        baseUrl: proxy.url,
        orgId: server.orgs.acme,
        session: await signIn(proxy.url, `${user}@example.com`, server.password),
      });
    alice = await open('alice');
    bob = await open('bob');
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await proxy?.close();
    await server?.close();
  });

  it('reports no violation for a call of every operation', async () => {
    const ops = recording(alice);
    const { db, clock } = server.deps;
    const org = server.orgs.acme;
    const users = server.users;

    // Auth
    const tokens = await ops.authToken({
      body: { email: 'alice@example.com', password: server.password },
    });
    await ops.authRefresh({ body: { refreshToken: tokens.refreshToken } });

    // Spaces, with custom fields so that tasks and projects carry definitions
    const space = await ops.createSpace({ body: { spaceName: 'Ops', description: 'All of it' } });
    const { spaceId } = space;
    const fields = insertClientAndStage(db, {
      orgId: org,
      createdBy: users.alice,
      spaceId,
      now: clock.now(),
    });
    await ops.getAllSpaces();
    await ops.getSpaceById({ path: { spaceId } });
    await ops.updateSpace({ path: { spaceId }, body: { spaceName: 'Operations' } });
    const doomedSpace = await ops.createSpace({ body: { spaceName: 'Doomed' } });
    await ops.deleteSpace({ path: { spaceId: doomedSpace.spaceId } });

    // Projects
    const { projectId } = await ops.createProject({
      path: { spaceId },
      body: { projectName: 'Launch', tags: ['q3'], members: [users.bob] },
    });
    await ops.getAll_2({ path: { spaceId } });
    await ops.getProjectById({ path: { spaceId, projectId } });
    await ops.updateProject({
      path: { spaceId, projectId },
      body: { projectName: 'Launch v2', description: 'Second go' },
    });
    const doomedProject = await ops.createProject({
      path: { spaceId },
      body: { projectName: 'Doomed' },
    });
    await ops.deleteProject({ path: { spaceId, projectId: doomedProject.projectId } });

    // Personal tasks and subtasks
    const personal = await ops.createTask({
      body: {
        taskTitle: 'Write the plan',
        owners: [users.alice, users.bob],
        tags: ['plan'],
        dueDate: new Date(clock.now() + 86_400_000).toISOString(),
      },
    });
    const taskId = personal.taskId;
    await ops.getAll();
    await ops.getTaskById({ path: { taskId } });
    await ops.updateTask({
      path: { taskId },
      body: { taskTitle: 'Write the plan', status: 'Done' },
    });
    const sub = await ops.createPersonalSubtask({
      path: { parentTaskId: taskId },
      body: { taskTitle: 'Outline' },
    });
    const subtaskId = sub.taskId;
    await ops.getPersonalSubtasks({ path: { parentTaskId: taskId } });
    await ops.updatePersonalSubtask({
      path: { parentTaskId: taskId, subtaskId },
      body: { taskTitle: 'Outline it' },
    });
    const doomedSub = await ops.createPersonalSubtask({
      path: { parentTaskId: taskId },
      body: { taskTitle: 'Doomed' },
    });
    await ops.deletePersonalSubtask({
      path: { parentTaskId: taskId, subtaskId: doomedSub.taskId },
    });

    // Project tasks and subtasks, one with custom field values
    const projectTask = await ops.createProjectTask({
      path: { spaceId, projectId },
      body: {
        taskTitle: 'Ship it',
        customFieldValues: [
          { taskCustomFieldId: fields.client, value: 'Globex' },
          { taskCustomFieldId: fields.stage, value: fields.stageOptions.Build ?? null },
        ],
      },
    });
    const ptId = taskIdOf(projectTask);
    const pt = { spaceId, projectId, taskId: ptId };
    await ops.getAllTasksInProject_1({ path: { spaceId, projectId } });
    await ops.getProjectTaskById({ path: pt });
    await ops.updateProjectTask({ path: pt, body: { taskTitle: 'Ship it now' } });
    const psub = await ops.createProjectSubtask({ path: pt, body: { taskTitle: 'Test it' } });
    await ops.getProjectSubtasks({ path: pt });
    await ops.updateSubtask({
      path: { ...pt, subtaskId: psub.taskId },
      body: { taskTitle: 'Test it well' },
    });
    const doomedPsub = await ops.createProjectSubtask({ path: pt, body: { taskTitle: 'Doomed' } });
    await ops.deleteSubtask({ path: { ...pt, subtaskId: doomedPsub.taskId } });
    const doomedTask = await ops.createProjectTask({
      path: { spaceId, projectId },
      body: { taskTitle: 'Doomed' },
    });
    await ops.deleteProjectTask({ path: { spaceId, projectId, taskId: taskIdOf(doomedTask) } });

    // Checklists of a task and of a subtask
    const item = await ops.createCheckListForTask({
      path: { taskId },
      body: { name: 'Draft', assigneeId: users.bob },
    });
    await ops.getAllCheckListsForTask({ path: { taskId } });
    await ops.updateCheckListForTask({
      path: { taskId, checklistId: item.checklistId },
      body: { name: 'Draft', completed: true },
    });
    const spare = await ops.createCheckListForTask({ path: { taskId }, body: { name: 'Spare' } });
    await ops.deleteCheckListForTask({ path: { taskId, checklistId: spare.checklistId } });
    const subItem = await ops.createCheckListForSubtask({
      path: { taskId, subtaskId },
      body: { name: 'Sketch' },
    });
    await ops.getAllCheckListsForSubtask({ path: { taskId, subtaskId } });
    await ops.updateCheckListForSubtask({
      path: { taskId, subtaskId, checklistId: subItem.checklistId },
      body: { name: 'Sketch', completed: true, assigneeId: users.alice },
    });
    const subSpare = await ops.createCheckListForSubtask({
      path: { taskId, subtaskId },
      body: { name: 'Spare' },
    });
    await ops.deleteCheckListForSubtask({
      path: { taskId, subtaskId, checklistId: subSpare.checklistId },
    });

    // Attachments of a task, a subtask and a project: text files (the proxy reads bodies as
    // text), two per upload, of three types
    const files = [text('notes.txt', 'plain words'), text('figures.csv', 'a,b\n1,2\n')];
    const [taskFile] = await ops.uploadTaskAttachments({ path: { taskId }, files });
    const taskFileId = taskFile?.attachmentId ?? 0;
    await ops.getTaskAttachments({ path: { taskId } });
    await ops.getTaskAttachment({ path: { taskId, attachmentId: taskFileId } });
    await ops.getTaskAttachmentContent({ path: { taskId, attachmentId: taskFileId } });
    await ops.renameTaskAttachment({
      path: { taskId, attachmentId: taskFileId },
      body: { fileName: 'words' },
    });
    await ops.deleteTaskAttachment({ path: { taskId, attachmentId: taskFileId } });
    const sp = { taskId, subtaskId };
    const [subFile] = await ops.uploadSubtaskAttachments({ path: sp, files });
    const subFileId = subFile?.attachmentId ?? 0;
    await ops.getSubtaskAttachments({ path: sp });
    await ops.getSubtaskAttachment({ path: { ...sp, attachmentId: subFileId } });
    await ops.getSubtaskAttachmentContent({ path: { ...sp, attachmentId: subFileId } });
    await ops.renameSubtaskAttachment({
      path: { ...sp, attachmentId: subFileId },
      body: { fileName: 'sub words' },
    });
    await ops.deleteSubtaskAttachment({ path: { ...sp, attachmentId: subFileId } });
    const pp = { spaceId, projectId };
    const [, projectFile] = await ops.uploadProjectAttachments({
      path: pp,
      files: [text('brief.md', '# Brief\n'), text('budget.csv', 'x\n1\n')],
    });
    const projectFileId = projectFile?.attachmentId ?? 0;
    await ops.getProjectAttachments({ path: pp });
    await ops.getProjectAttachment({ path: { ...pp, attachmentId: projectFileId } });
    await ops.getProjectAttachmentContent({ path: { ...pp, attachmentId: projectFileId } });
    await ops.renameProjectAttachment({
      path: { ...pp, attachmentId: projectFileId },
      body: { fileName: 'costs' },
    });
    await ops.deleteProjectAttachment({ path: { ...pp, attachmentId: projectFileId } });

    // Timers of a personal task and of a project task, and timesheets
    const t0 = clock.now();
    const running = await ops.startTimer({ path: { taskId }, body: { notes: 'focus' } });
    const track = { trackId: running.trackId };
    await ops.pauseTimer({ path: track });
    await ops.getActiveTimers();
    await ops.resumeTimer({ path: track });
    await ops.stopTimer({ path: track, body: {} });
    await ops.updateTimer({
      path: track,
      body: { billingStatus: 'BILLABLE', notes: null, startTime: t0, durationSeconds: 60 },
    });
    await ops.getTaskTimers({ path: { taskId } });
    const range = await ops.addNewTimeRange({
      path: { taskId },
      body: { startTime: t0 - 60 * MIN, endTime: t0 - 30 * MIN },
    });
    await ops.addNewManualTime({
      path: { taskId },
      body: { hours: 1, minutes: 5, startTime: t0 - 120 * MIN, billingStatus: 'NON_BILLABLE' },
    });
    await ops.deleteTimeTracker({ path: { trackId: range.trackId } });
    const projectTimer = await ops.startProjectTaskTimer({
      path: { projectId, taskId: ptId },
      body: {},
    });
    await ops.stopTimer({ path: { trackId: projectTimer.trackId }, body: {} });
    await ops.addRangeTimerForProjectTask({
      path: { projectId, taskId: ptId },
      body: { startTime: t0 - 90 * MIN, endTime: t0 - 80 * MIN },
    });
    await ops.addNewManualTimeForTask({
      path: { projectId, taskId: ptId },
      body: { hours: 0, minutes: 30, startTime: t0 - 200 * MIN, billingStatus: 'BILLABLE' },
    });
    const period = { from: t0 - 300 * MIN, to: t0 + 10 * MIN };
    await ops.getTimesheet({ query: period });
    await ops.getProjectTimesheet({ path: { projectId }, query: period });
    await ops.getProjectTimesheetSummary({ path: { projectId }, query: period });

    // Notifications (written by the task routes in production; rows here) and comments
    const who = { orgId: org, userId: users.alice };
    const read = insertNotification(db, who, { taskId, createdTime: clock.now() });
    const gone = insertNotification(db, who, { type: 'MENTION', createdTime: clock.now() });
    await ops.getNotifications({ query: { unreadOnly: true } });
    await ops.markNotificationAsRead({ path: { notificationId: read } });
    await ops.deleteNotification({ path: { notificationId: gone } });
    insertComment(db, { orgId: org, taskId, userId: users.bob, content: 'Nice', at: clock.now() });
    await ops.getTaskComments({ path: { taskId } });

    // Bob's edit makes a modifier other than the creator; then the exports, with tombstones
    await bob.ops.updateTask({ path: { taskId }, body: { taskTitle: 'Write the plan!' } });
    const doomedPersonal = await ops.createTask({ body: { taskTitle: 'Doomed' } });
    await ops.deleteTask({ path: { taskId: doomedPersonal.taskId } });
    await ops.bulkTasks({ query: { modifiedSince: 0 } });
    await ops.bulkProjects({ query: { modifiedSince: 0 } });

    expect(operationIds.filter((id) => !called.has(id))).toEqual([]);
    expect(proxy.violations.filter((v) => !prismReadsOnePart(v))).toEqual([]);
  }, 60_000);
});
