import { z } from 'zod';
import { dateTime, id, opt, userRef } from './common';

export const attachment = z.looseObject({
  attachmentId: id,
  fileName: z.string(),
  extension: opt(z.string()),
  contentType: opt(z.string()),
  size: opt(z.number().int().min(0)),
  downloadUrl: opt(z.string()),
  taskId: opt(id),
  subtaskId: opt(id),
  projectId: opt(id),
  createdBy: opt(userRef),
  createdTime: opt(dateTime),
});
export type Attachment = z.infer<typeof attachment>;

/** The with-state variant: files still uploading carry their progress. */
export const attachmentWithState = attachment.extend({
  completedBytes: opt(z.number().int().min(0)),
  totalSize: opt(z.number().int().min(0)),
});
export type AttachmentWithState = z.infer<typeof attachmentWithState>;

/** The new name is sent without its extension; the stored extension is kept. */
export const attachmentRenameRequest = z.object({
  fileName: z
    .string()
    .trim()
    .min(1, 'must not be blank')
    .max(200)
    .refine((s) => !/[\\/\0]/.test(s), 'must not contain path separators'),
});

/** Upload rules of the reference plan (contract). A real service's plan may differ. */
export const uploadRules = {
  maxFiles: 10,
  maxFileBytes: 25 * 1024 * 1024,
  allowedExtensions: [
    'pdf',
    'png',
    'jpg',
    'jpeg',
    'gif',
    'webp',
    'svg',
    'txt',
    'md',
    'csv',
    'json',
    'docx',
    'xlsx',
    'pptx',
    'zip',
  ],
  field: 'files',
} as const;

export type UploadRuleViolation = {
  kind: 'too-many-files' | 'no-files' | 'empty-file' | 'too-large' | 'type-not-allowed';
  fileName?: string;
  message: string;
};

/** The content type of each extension the reference plan allows (server and client agree). */
export const contentTypesByExtension: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  zip: 'application/zip',
};

export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : '';
};

/** Checks the spec's upload rules before anything is sent (client) or stored (server). */
export const checkUpload = (
  files: readonly { name: string; size: number }[],
  rules: {
    maxFiles: number;
    maxFileBytes: number;
    allowedExtensions: readonly string[];
  } = uploadRules,
): UploadRuleViolation[] => {
  const out: UploadRuleViolation[] = [];
  if (files.length === 0) out.push({ kind: 'no-files', message: 'no file was given' });
  if (files.length > rules.maxFiles)
    out.push({ kind: 'too-many-files', message: `at most ${rules.maxFiles} files per upload` });
  for (const f of files) {
    const ext = extensionOf(f.name);
    if (f.size === 0)
      out.push({ kind: 'empty-file', fileName: f.name, message: `${f.name} is empty` });
    else if (f.size > rules.maxFileBytes)
      out.push({
        kind: 'too-large',
        fileName: f.name,
        message: `${f.name} is larger than ${Math.round(rules.maxFileBytes / 1024 / 1024)} MiB`,
      });
    if (!rules.allowedExtensions.includes(ext))
      out.push({
        kind: 'type-not-allowed',
        fileName: f.name,
        message: `${f.name}: files of type ${ext || '(none)'} are not allowed`,
      });
  }
  return out;
};
