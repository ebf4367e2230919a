/**
 * A page of the bulk task export, from the answer's bytes to what the stage's writer needs
 * (sync/db/queries/tasks-stage.ts): UTF-8, JSON, the contract's zod schema, the rows. Pure,
 * so that it runs on the fill's worker thread (fill-worker.ts), or on the caller's when there
 * is none.
 */
import { z } from 'zod';
import { type BulkTask, cursor, endpoints, nullable } from '../../shared/api';
import { decodeResponse } from '../api/call';
import { encodeStagePage, type StagePage } from '../db/queries/task-rows';

/** A 2xx answer of `bulkTasks` as it crosses to the decoder. */
export interface TaskPageBytes {
  status: number;
  body: Uint8Array;
  /** The client's clock when the answer arrived. */
  receivedAt: number;
}

export interface DecodedStagePage {
  nextCursor: string | null;
  serverTime: number;
  /** Every task id of the page, tombstones included (the entities the write touches). */
  ids: number[];
  page: StagePage;
}

/** The cursor of a parsed page, checked as far as a request needs it, before the whole page. */
const cursorOf = z.looseObject({ data: z.looseObject({ nextCursor: nullable(cursor) }) });

/** How far from the end of an answer its `nextCursor` is looked for (the envelope's tail). */
const TAIL_BYTES = 1024;

/**
 * The `nextCursor` read from the last bytes of an answer, before it is parsed: undefined when
 * it is not found there. Only a hint, to send the next request while the page is decoded: the
 * checked page's own cursor decides what is written and what is requested after it. In valid
 * JSON, `"nextCursor":` outside a string can only be a key.
 */
export const peekCursor = (body: Uint8Array): string | null | undefined => {
  const tail = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString(
    'latin1',
    Math.max(0, body.byteLength - TAIL_BYTES),
  );
  const at = tail.lastIndexOf('"nextCursor":');
  if (at < 0) return undefined;
  const m = /^"nextCursor":\s*(?:null|"([^"\\]{1,500})")/.exec(tail.slice(at));
  if (!m) return undefined;
  return m[1] ?? null;
};

/**
 * Decodes one answer; `onCursor` hears the page's cursor as soon as the JSON is parsed, so the
 * next request can go out while this page is still being checked (nothing of it is written
 * before the check passes). Throws the client's errors (bad-response) as `decodeResponse` does.
 */
export const decodeStagePage = (
  answer: TaskPageBytes,
  onCursor?: (cursor: string | null) => void,
): DecodedStagePage => {
  const peek = onCursor
    ? (json: unknown) => {
        const c = cursorOf.safeParse(json);
        if (c.success) onCursor(c.data.data.nextCursor);
      }
    : undefined;
  const data = decodeResponse(
    endpoints.bulkTasks,
    'bulkTasks',
    { status: answer.status, headers: {}, body: answer.body },
    answer.receivedAt,
    peek,
  ) as { items: BulkTask[]; nextCursor: string | null; serverTime: number };
  return {
    nextCursor: data.nextCursor,
    serverTime: data.serverTime,
    ids: data.items.map((t) => t.taskId),
    page: encodeStagePage(data.items),
  };
};
