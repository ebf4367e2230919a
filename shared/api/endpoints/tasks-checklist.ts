import { z } from 'zod';
import { checklistCreateRequest, checklistItem, checklistUpdateRequest } from '../checklists';
import { endpoint } from './define';
import { SUBTASK_PATH as S, TASK_PATH as T } from './shared';

/** Tasks Checklist: Checklist items of tasks and subtasks. */
export const checklistEndpoints = {
  getAllCheckListsForTask: endpoint({
    tag: 'Tasks Checklist',
    method: 'GET',
    path: `${T}/checklists`,
    source: 'spec',
    summary: 'List checklist items of a task',
    data: z.array(checklistItem),
  }),
  createCheckListForTask: endpoint({
    tag: 'Tasks Checklist',
    method: 'POST',
    path: `${T}/checklists`,
    source: 'spec',
    summary: 'Add a checklist item to a task',
    body: checklistCreateRequest,
    data: checklistItem,
  }),
  updateCheckListForTask: endpoint({
    tag: 'Tasks Checklist',
    method: 'PUT',
    path: `${T}/checklists/{checklistId}`,
    source: 'spec',
    summary: 'Replace name, state and assignee of a checklist item',
    body: checklistUpdateRequest,
    data: checklistItem,
  }),
  deleteCheckListForTask: endpoint({
    tag: 'Tasks Checklist',
    method: 'DELETE',
    path: `${T}/checklists/{checklistId}`,
    source: 'spec',
    summary: 'Delete a checklist item',
    status: 204,
  }),
  getAllCheckListsForSubtask: endpoint({
    tag: 'Tasks Checklist',
    method: 'GET',
    path: `${S}/checklists`,
    source: 'spec',
    summary: 'List checklist items of a subtask',
    data: z.array(checklistItem),
  }),
  createCheckListForSubtask: endpoint({
    tag: 'Tasks Checklist',
    method: 'POST',
    path: `${S}/checklists`,
    source: 'spec',
    summary: 'Add a checklist item to a subtask',
    body: checklistCreateRequest,
    data: checklistItem,
  }),
  updateCheckListForSubtask: endpoint({
    tag: 'Tasks Checklist',
    method: 'PUT',
    path: `${S}/checklists/{checklistId}`,
    source: 'spec',
    summary: 'Replace name, state and assignee of a subtask checklist item',
    body: checklistUpdateRequest,
    data: checklistItem,
  }),
  deleteCheckListForSubtask: endpoint({
    tag: 'Tasks Checklist',
    method: 'DELETE',
    path: `${S}/checklists/{checklistId}`,
    source: 'spec',
    summary: 'Delete a subtask checklist item',
    status: 204,
  }),
} as const;
