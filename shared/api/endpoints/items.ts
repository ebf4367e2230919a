import { z } from 'zod';
import { attachment, attachmentRenameRequest, attachmentWithState } from '../attachments';
import { authTokens, refreshRequest, tokenRequest } from '../auth';
import { bulkProject, bulkQuery, bulkTask } from '../bulk';
import { checklistCreateRequest, checklistItem, checklistUpdateRequest } from '../checklists';
import { emptyObject } from '../common';
import { bulkPage, page } from '../envelope';
import { notificationListQuery } from '../list-queries';
import { notification, notificationReadResponse } from '../notifications';
import {
  manualTimerRequest,
  rangeTimerRequest,
  timerRecord,
  timerRequest,
  timerUpdateRequest,
  timesheet,
  timesheetQuery,
  timesheetSummary,
} from '../timers';
import { endpoint } from './define';

const T = '/v1/tasks/{taskId}';
const S = `${T}/subtasks/{subtaskId}`;
const PR = '/v1/spaces/{spaceId}/projects/{projectId}';
const TT = '/v1/time-track';

/** Auth, checklists, attachments, notifications, timers and bulk export. */
export const itemEndpoints = {
  // Auth
  authToken: endpoint({ tag: 'Auth', method: 'POST', path: '/v1/auth/token', source: 'contract', auth: 'none', summary: 'Sign in: issue an access and a refresh token', body: tokenRequest, data: authTokens }),
  authRefresh: endpoint({ tag: 'Auth', method: 'POST', path: '/v1/auth/refresh', source: 'contract', auth: 'none', summary: 'Exchange (and rotate) a refresh token', body: refreshRequest, data: authTokens }),

  // Tasks Checklist
  getAllCheckListsForTask: endpoint({ tag: 'Tasks Checklist', method: 'GET', path: `${T}/checklists`, source: 'spec', summary: 'List checklist items of a task', data: z.array(checklistItem) }),
  createCheckListForTask: endpoint({ tag: 'Tasks Checklist', method: 'POST', path: `${T}/checklists`, source: 'spec', summary: 'Add a checklist item to a task', body: checklistCreateRequest, data: checklistItem }),
  updateCheckListForTask: endpoint({ tag: 'Tasks Checklist', method: 'PUT', path: `${T}/checklists/{checklistId}`, source: 'spec', summary: 'Replace name, state and assignee of a checklist item', body: checklistUpdateRequest, data: checklistItem }),
  deleteCheckListForTask: endpoint({ tag: 'Tasks Checklist', method: 'DELETE', path: `${T}/checklists/{checklistId}`, source: 'spec', summary: 'Delete a checklist item', status: 204 }),
  getAllCheckListsForSubtask: endpoint({ tag: 'Tasks Checklist', method: 'GET', path: `${S}/checklists`, source: 'spec', summary: 'List checklist items of a subtask', data: z.array(checklistItem) }),
  createCheckListForSubtask: endpoint({ tag: 'Tasks Checklist', method: 'POST', path: `${S}/checklists`, source: 'spec', summary: 'Add a checklist item to a subtask', body: checklistCreateRequest, data: checklistItem }),
  updateCheckListForSubtask: endpoint({ tag: 'Tasks Checklist', method: 'PUT', path: `${S}/checklists/{checklistId}`, source: 'spec', summary: 'Replace name, state and assignee of a subtask checklist item', body: checklistUpdateRequest, data: checklistItem }),
  deleteCheckListForSubtask: endpoint({ tag: 'Tasks Checklist', method: 'DELETE', path: `${S}/checklists/{checklistId}`, source: 'spec', summary: 'Delete a subtask checklist item', status: 204 }),

  // Task Attachments
  getTaskAttachments: endpoint({ tag: 'Task Attachments', method: 'GET', path: `${T}/attachments`, source: 'spec', summary: 'List attachments of a task, oldest first', data: z.array(attachmentWithState) }),
  uploadTaskAttachments: endpoint({ tag: 'Task Attachments', method: 'POST', path: `${T}/attachments`, source: 'spec', summary: 'Upload up to 10 files to a task', body: 'multipart', data: z.array(attachment) }),
  getTaskAttachment: endpoint({ tag: 'Task Attachments', method: 'GET', path: `${T}/attachments/{attachmentId}`, source: 'spec', summary: 'Get a task attachment', data: attachmentWithState }),
  renameTaskAttachment: endpoint({ tag: 'Task Attachments', method: 'PUT', path: `${T}/attachments/{attachmentId}`, source: 'spec', summary: 'Rename a task attachment (extension kept)', body: attachmentRenameRequest, data: attachment }),
  deleteTaskAttachment: endpoint({ tag: 'Task Attachments', method: 'DELETE', path: `${T}/attachments/{attachmentId}`, source: 'spec', summary: 'Delete a task attachment and its file', status: 204 }),
  getTaskAttachmentContent: endpoint({ tag: 'Task Attachments', method: 'GET', path: `${T}/attachments/{attachmentId}/content`, source: 'contract', summary: 'Download a task attachment', produces: 'binary' }),
  getSubtaskAttachments: endpoint({ tag: 'Task Attachments', method: 'GET', path: `${S}/attachments`, source: 'spec', summary: 'List attachments of a subtask, oldest first', data: z.array(attachmentWithState) }),
  uploadSubtaskAttachments: endpoint({ tag: 'Task Attachments', method: 'POST', path: `${S}/attachments`, source: 'spec', summary: 'Upload up to 10 files to a subtask', body: 'multipart', data: z.array(attachment) }),
  getSubtaskAttachment: endpoint({ tag: 'Task Attachments', method: 'GET', path: `${S}/attachments/{attachmentId}`, source: 'spec', summary: 'Get a subtask attachment', data: attachmentWithState }),
  renameSubtaskAttachment: endpoint({ tag: 'Task Attachments', method: 'PUT', path: `${S}/attachments/{attachmentId}`, source: 'spec', summary: 'Rename a subtask attachment (extension kept)', body: attachmentRenameRequest, data: attachment }),
  deleteSubtaskAttachment: endpoint({ tag: 'Task Attachments', method: 'DELETE', path: `${S}/attachments/{attachmentId}`, source: 'spec', summary: 'Delete a subtask attachment and its file', status: 204 }),
  getSubtaskAttachmentContent: endpoint({ tag: 'Task Attachments', method: 'GET', path: `${S}/attachments/{attachmentId}/content`, source: 'contract', summary: 'Download a subtask attachment', produces: 'binary' }),

  // Project Attachments
  getProjectAttachments: endpoint({ tag: 'Project Attachments', method: 'GET', path: `${PR}/attachments`, source: 'contract', summary: 'List attachments of a project, oldest first', data: z.array(attachmentWithState) }),
  uploadProjectAttachments: endpoint({ tag: 'Project Attachments', method: 'POST', path: `${PR}/attachments`, source: 'contract', summary: 'Upload up to 10 files to a project', body: 'multipart', data: z.array(attachment) }),
  getProjectAttachment: endpoint({ tag: 'Project Attachments', method: 'GET', path: `${PR}/attachments/{attachmentId}`, source: 'spec', summary: 'Get a project attachment', data: attachmentWithState }),
  renameProjectAttachment: endpoint({ tag: 'Project Attachments', method: 'PUT', path: `${PR}/attachments/{attachmentId}`, source: 'spec', summary: 'Rename a project attachment (extension kept)', body: attachmentRenameRequest, data: attachment }),
  deleteProjectAttachment: endpoint({ tag: 'Project Attachments', method: 'DELETE', path: `${PR}/attachments/{attachmentId}`, source: 'spec', summary: 'Delete a project attachment and its file', status: 204 }),
  getProjectAttachmentContent: endpoint({ tag: 'Project Attachments', method: 'GET', path: `${PR}/attachments/{attachmentId}/content`, source: 'contract', summary: 'Download a project attachment', produces: 'binary' }),

  // Notifications and Mentions
  getNotifications: endpoint({ tag: 'Notifications and Mentions', method: 'GET', path: '/v1/notifications', source: 'contract', summary: 'List notifications of the user, newest first', query: notificationListQuery, data: page(notification) }),
  markNotificationAsRead: endpoint({ tag: 'Notifications and Mentions', method: 'PUT', path: '/v1/notifications/read/{notificationId}', source: 'spec', summary: 'Mark a notification read', data: notificationReadResponse }),
  deleteNotification: endpoint({ tag: 'Notifications and Mentions', method: 'DELETE', path: '/v1/notifications/{notificationId}', source: 'contract', summary: 'Delete a notification', data: emptyObject }),

  // Task Timer
  updateTimer: endpoint({ tag: 'Task Timer', method: 'PUT', path: `${TT}/{trackId}`, source: 'spec', summary: 'Update a timer record', body: timerUpdateRequest, data: timerRecord }),
  deleteTimeTracker: endpoint({ tag: 'Task Timer', method: 'DELETE', path: `${TT}/{trackId}`, source: 'spec', summary: 'Delete a timer record' }),
  stopTimer: endpoint({ tag: 'Task Timer', method: 'PUT', path: `${TT}/{trackId}/stop`, source: 'spec', summary: 'Stop a running or paused timer', body: timerRequest, data: timerRecord }),
  resumeTimer: endpoint({ tag: 'Task Timer', method: 'PUT', path: `${TT}/{trackId}/resume`, source: 'spec', summary: 'Resume a paused timer', data: timerRecord }),
  pauseTimer: endpoint({ tag: 'Task Timer', method: 'PUT', path: `${TT}/{trackId}/pause`, source: 'spec', summary: 'Pause a running timer', data: timerRecord }),
  startTimer: endpoint({ tag: 'Task Timer', method: 'POST', path: `${TT}/{taskId}/start`, source: 'spec', summary: 'Start a timer on a personal task', body: timerRequest, data: timerRecord }),
  addNewTimeRange: endpoint({ tag: 'Task Timer', method: 'POST', path: `${TT}/tasks/{taskId}/range`, source: 'spec', summary: 'Add a time range to a personal task', body: rangeTimerRequest, data: timerRecord }),
  addNewManualTime: endpoint({ tag: 'Task Timer', method: 'POST', path: `${TT}/tasks/{taskId}/manual`, source: 'spec', summary: 'Add manual time to a personal task', body: manualTimerRequest, data: timerRecord }),
  startProjectTaskTimer: endpoint({ tag: 'Task Timer', method: 'POST', path: `${TT}/projects/{projectId}/tasks/{taskId}/start`, source: 'spec', summary: 'Start a timer on a project task', body: timerRequest, data: timerRecord }),
  addRangeTimerForProjectTask: endpoint({ tag: 'Task Timer', method: 'POST', path: `${TT}/projects/{projectId}/tasks/{taskId}/range`, source: 'spec', summary: 'Add a time range to a project task', body: rangeTimerRequest, data: timerRecord }),
  addNewManualTimeForTask: endpoint({ tag: 'Task Timer', method: 'POST', path: `${TT}/projects/{projectId}/tasks/{taskId}/manual`, source: 'spec', summary: 'Add manual time to a project task', body: manualTimerRequest, data: timerRecord }),
  getActiveTimers: endpoint({ tag: 'Task Timer', method: 'GET', path: `${TT}/active`, source: 'contract', summary: 'Running and paused timers of the user', data: z.array(timerRecord) }),
  getTaskTimers: endpoint({ tag: 'Task Timer', method: 'GET', path: `${TT}/tasks/{taskId}`, source: 'contract', summary: 'Timers of the user in a task', data: z.array(timerRecord) }),
  getTimesheet: endpoint({ tag: 'Task Timer', method: 'GET', path: `${TT}/timesheet`, source: 'contract', summary: 'Timesheet of the user between from and to', query: timesheetQuery, data: timesheet }),
  getProjectTimesheet: endpoint({ tag: 'Task Timer', method: 'GET', path: `${TT}/projects/{projectId}/timesheet`, source: 'contract', summary: 'Timesheet of a project between from and to', query: timesheetQuery, data: timesheet }),
  getProjectTimesheetSummary: endpoint({ tag: 'Task Timer', method: 'GET', path: `${TT}/projects/{projectId}/timesheet/summary`, source: 'contract', summary: 'Totals of a project timesheet', query: timesheetQuery, data: timesheetSummary }),

  // Bulk Export
  bulkTasks: endpoint({ tag: 'Bulk Export', method: 'GET', path: '/v1/bulk/tasks', source: 'contract', summary: 'All tasks and subtasks, by (modifiedTime, id), with tombstones', query: bulkQuery, data: bulkPage(bulkTask) }),
  bulkProjects: endpoint({ tag: 'Bulk Export', method: 'GET', path: '/v1/bulk/projects', source: 'contract', summary: 'All projects, by (modifiedTime, id), with tombstones', query: bulkQuery, data: bulkPage(bulkProject) }),
} as const;
