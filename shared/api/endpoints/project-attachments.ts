import { z } from 'zod';
import { attachment, attachmentRenameRequest, attachmentWithState } from '../attachments';
import { endpoint } from './define';

const PR = '/v1/spaces/{spaceId}/projects/{projectId}';

/** Project Attachments: Files on projects. */
export const projectAttachmentEndpoints = {
  getProjectAttachments: endpoint({
    tag: 'Project Attachments',
    method: 'GET',
    path: `${PR}/attachments`,
    source: 'contract',
    summary: 'List attachments of a project, oldest first',
    data: z.array(attachmentWithState),
  }),
  uploadProjectAttachments: endpoint({
    tag: 'Project Attachments',
    method: 'POST',
    path: `${PR}/attachments`,
    source: 'contract',
    summary: 'Upload up to 10 files to a project',
    body: 'multipart',
    data: z.array(attachment),
  }),
  getProjectAttachment: endpoint({
    tag: 'Project Attachments',
    method: 'GET',
    path: `${PR}/attachments/{attachmentId}`,
    source: 'spec',
    summary: 'Get a project attachment',
    data: attachmentWithState,
  }),
  renameProjectAttachment: endpoint({
    tag: 'Project Attachments',
    method: 'PUT',
    path: `${PR}/attachments/{attachmentId}`,
    source: 'spec',
    summary: 'Rename a project attachment (extension kept)',
    body: attachmentRenameRequest,
    data: attachment,
  }),
  deleteProjectAttachment: endpoint({
    tag: 'Project Attachments',
    method: 'DELETE',
    path: `${PR}/attachments/{attachmentId}`,
    source: 'spec',
    summary: 'Delete a project attachment and its file',
    status: 204,
  }),
  getProjectAttachmentContent: endpoint({
    tag: 'Project Attachments',
    method: 'GET',
    path: `${PR}/attachments/{attachmentId}/content`,
    source: 'contract',
    summary: 'Download a project attachment',
    produces: 'binary',
  }),
} as const;
