import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { checkUpload, extensionOf, uploadRules } from '../../shared/api';
import type { ServerDeps } from '../deps';
import { badRequest, HttpError } from './errors';

/** A file of an upload, already on disk under its stored name. */
export interface StoredUpload {
  originalName: string;
  storedName: string;
  path: string;
  size: number;
  sha256: string;
  contentType: string;
  extension: string;
}

export const discardUploads = async (uploads: readonly StoredUpload[]): Promise<void> => {
  await Promise.all(uploads.map((u) => unlink(u.path).catch(() => undefined)));
};

const statusOfViolation = {
  'no-files': 400,
  'too-many-files': 400,
  'empty-file': 400,
  'too-large': 413,
  'type-not-allowed': 415,
} as const;

/** Longest file name stored, as the rename's schema allows (contract). */
const maxNameLength = 200;

/** Why a file's name cannot be stored, or null. */
const nameRefusal = (name: string): string | null => {
  if (name.length > maxNameLength) return `a file name is longer than ${maxNameLength} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  if (/[\x00-\x1f\x7f]/.test(name)) return 'a file name contains control characters';
  return null;
};

/**
 * Streams the `files` parts to disk, then applies the plan's rules. Nothing of a refused
 * request stays on disk; the caller removes the files if its transaction fails.
 */
export const receiveUploads = async (
  req: FastifyRequest,
  deps: ServerDeps,
): Promise<StoredUpload[]> => {
  if (!req.isMultipart()) throw new HttpError(415, 'uploads must be sent as multipart/form-data');
  await mkdir(deps.filesDir, { recursive: true });
  const stored: StoredUpload[] = [];
  try {
    const parts = req.parts({
      limits: {
        files: uploadRules.maxFiles,
        fileSize: uploadRules.maxFileBytes,
        fields: 20,
        fieldSize: 64 * 1024,
        parts: 40,
      },
    });
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== uploadRules.field) {
        part.file.resume();
        throw badRequest(`files must be sent under the field "${uploadRules.field}"`, [
          { field: part.fieldname, message: `unexpected file field; use "${uploadRules.field}"` },
        ]);
      }
      const originalName = part.filename.split(/[\\/]/).pop()?.trim() ?? '';
      const refusal = nameRefusal(originalName);
      if (refusal) {
        part.file.resume();
        throw badRequest(refusal, [{ field: uploadRules.field, message: refusal }]);
      }
      const extension = extensionOf(originalName);
      // Only a plain extension goes into the stored name (the plan's rules refuse the rest
      // once the file is read); the name itself never reaches the file system.
      const storedName = `${randomUUID()}${/^[a-z0-9]{1,16}$/.test(extension) ? `.${extension}` : ''}`;
      const path = join(deps.filesDir, storedName);
      const hash = createHash('sha256');
      let size = 0;
      const entry: StoredUpload = {
        originalName,
        storedName,
        path,
        size: 0,
        sha256: '',
        contentType: part.mimetype || 'application/octet-stream',
        extension,
      };
      stored.push(entry);
      const out = createWriteStream(path);
      // A failed pipeline rejects as soon as the upload breaks, while the file may still be
      // being opened: the clean-up must wait for it, or the file appears after its unlink.
      const closed = new Promise<void>((resolve) => out.once('close', resolve));
      try {
        await pipeline(
          part.file,
          new Transform({
            transform(chunk: Buffer, _enc, done) {
              size += chunk.length;
              hash.update(chunk);
              done(null, chunk);
            },
          }),
          out,
        );
      } catch (error) {
        await closed;
        throw error;
      }
      entry.size = size;
      entry.sha256 = hash.digest('hex');
    }
  } catch (error) {
    await discardUploads(stored);
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT')
      throw badRequest(`at most ${uploadRules.maxFiles} files per upload`, [
        { field: uploadRules.field, message: `at most ${uploadRules.maxFiles} files` },
      ]);
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new HttpError(
        413,
        `a file is larger than the plan allows (${uploadRules.maxFileBytes / 1024 / 1024} MiB)`,
      );
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw badRequest('too many parts in the upload');
    if (error instanceof HttpError) throw error;
    // A file system failure (disk full, permissions) is the server's: a 500, logged, whose
    // answer names no path. Anything else is a malformed upload: a plain 400.
    if ((error as { syscall?: string }).syscall) throw error;
    throw badRequest('the upload could not be read');
  }
  const violations = checkUpload(stored.map((s) => ({ name: s.originalName, size: s.size })));
  if (violations.length > 0) {
    await discardUploads(stored);
    const status = Math.min(...violations.map((v) => statusOfViolation[v.kind]));
    throw new HttpError(
      status,
      violations.map((v) => v.message).join('; '),
      violations.map((v) => ({
        field: uploadRules.field,
        message: v.message,
        ...(v.fileName ? { rejectedValue: v.fileName } : {}),
      })),
    );
  }
  return stored;
};
