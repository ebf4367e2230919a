/**
 * Multipart bodies for the three upload operations. The body is built here as a stream of
 * chunks with a known length, so progress counts bytes as undici pulls them (real progress,
 * not a guess) and a file on disk is streamed rather than read whole. The spec's upload
 * rules (`checkUpload`) run before anything is sent.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  checkUpload,
  contentTypesByExtension,
  extensionOf,
  uploadRules,
} from '../../shared/api/attachments';
import { ApiClientError, validationError } from './errors';
import type { ProgressCallback, UploadFile } from './types';

export interface UploadRules {
  maxFiles: number;
  maxFileBytes: number;
  allowedExtensions: readonly string[];
}

export interface MultipartBody {
  contentType: string;
  contentLength: number;
  /** A fresh stream each time: a retry after a token refresh sends the body again. */
  stream(onProgress?: ProgressCallback): AsyncIterable<Uint8Array>;
}

const CHUNK = 64 * 1024;

/** The reference plan's type of the file's extension; anything else goes as octet-stream. */

export const guessContentType = (fileName: string): string =>
  contentTypesByExtension[extensionOf(fileName)] ?? 'application/octet-stream';

/** Header values cannot carry CR, LF or an unescaped quote; WHATWG's form-data encoding. */
const escapeName = (name: string): string =>
  name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

const safeContentType = (value: string): string => value.replace(/[\r\n]/g, '');

interface SizedFile {
  file: UploadFile;
  size: number;
  header: Uint8Array;
}

const sizeOf = async (operationId: string, file: UploadFile): Promise<number> => {
  if (typeof file.data !== 'string') return file.data.byteLength;
  try {
    const st = await stat(file.data);
    if (!st.isFile()) throw new Error('not a regular file');
    return st.size;
  } catch (e) {
    throw validationError(operationId, `cannot read ${file.name}`, [
      { field: file.name, message: e instanceof Error ? e.message : 'cannot read the file' },
    ]);
  }
};

async function* fileChunks(operationId: string, sized: SizedFile): AsyncGenerator<Uint8Array> {
  const { file, size } = sized;
  if (typeof file.data !== 'string') {
    for (let at = 0; at < file.data.byteLength; at += CHUNK)
      yield file.data.subarray(at, Math.min(at + CHUNK, file.data.byteLength));
    return;
  }
  let read = 0;
  for await (const chunk of createReadStream(file.data, { highWaterMark: CHUNK })) {
    const bytes = chunk as Buffer;
    read += bytes.byteLength;
    if (read > size) break;
    yield bytes;
  }
  // The length is announced up front; a file that changed under us would corrupt the body.
  if (read !== size)
    throw validationError(operationId, `${file.name} changed while it was being uploaded`, [
      { field: file.name, message: 'file changed while uploading' },
    ]);
}

/**
 * Checks the files against the upload rules and lays out the body. Throws a `validation`
 * ApiClientError listing every violation; nothing is sent then.
 */
export const prepareMultipart = async (
  operationId: string,
  files: readonly UploadFile[],
  rules: UploadRules = uploadRules,
): Promise<MultipartBody> => {
  if (!Array.isArray(files))
    throw validationError(operationId, 'files must be an array', [
      { field: 'files', message: 'expected an array of files' },
    ]);
  const sizes = await Promise.all(files.map((f) => sizeOf(operationId, f)));
  const violations = checkUpload(
    files.map((f, i) => ({ name: f.name, size: sizes[i] ?? 0 })),
    rules,
  );
  if (violations.length > 0)
    throw new ApiClientError({
      kind: 'validation',
      operationId,
      message: violations.map((v) => v.message).join('; '),
      fieldErrors: violations.map((v) => ({ field: v.fileName ?? 'files', message: v.message })),
    });

  const boundary = `----worktray${randomBytes(12).toString('hex')}`;
  const enc = new TextEncoder();
  const sized: SizedFile[] = files.map((file, i) => ({
    file,
    size: sizes[i] ?? 0,
    header: enc.encode(
      `--${boundary}\r\n` +
        `Content-Disposition: form-data; name="${uploadRules.field}"; filename="${escapeName(file.name)}"\r\n` +
        `Content-Type: ${safeContentType(file.contentType ?? guessContentType(file.name))}\r\n\r\n`,
    ),
  }));
  const crlf = enc.encode('\r\n');
  const closing = enc.encode(`--${boundary}--\r\n`);
  const contentLength =
    sized.reduce((n, s) => n + s.header.byteLength + s.size + crlf.byteLength, 0) +
    closing.byteLength;

  async function* stream(onProgress?: ProgressCallback): AsyncGenerator<Uint8Array> {
    let sent = 0;
    const report = (n: number) => {
      sent += n;
      if (!onProgress) return;
      try {
        onProgress(sent, contentLength);
      } catch {
        // A failing progress listener must not fail the upload it only watches.
      }
    };
    for (const s of sized) {
      yield s.header;
      report(s.header.byteLength);
      for await (const chunk of fileChunks(operationId, s)) {
        yield chunk;
        // Counted once undici asks for the next chunk, i.e. after it took this one.
        report(chunk.byteLength);
      }
      yield crlf;
      report(crlf.byteLength);
    }
    yield closing;
    report(closing.byteLength);
  }

  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength,
    stream,
  };
};
