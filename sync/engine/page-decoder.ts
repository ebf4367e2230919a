/**
 * Decodes the pages of a first fill on the fill's worker thread (fill-thread.ts): UTF-8,
 * JSON, the contract's zod schema and the stage's rows are ~30 µs of CPU per task, which on
 * the writing thread would both block its event loop for a page at a time and serialize with
 * the SQLite writes. On the worker they overlap with the writes and with the server's work on
 * the next page.
 */
import type { RawAnswer } from '../api/call';
import { type FillThread, failureError } from './fill-thread';
import { type DecodedStagePage, decodeStagePage, type TaskPageBytes } from './page-decode';

export interface PendingPage {
  /** Settles as soon as the page's cursor is known, before the page is checked. */
  cursor: Promise<string | null>;
  page: Promise<DecodedStagePage>;
}

export interface PageDecoder {
  decode(answer: RawAnswer): PendingPage;
  /** True while pages go to a worker thread (false: decoded on the caller's thread). */
  readonly threaded: boolean;
  /** The fill's worker thread it posts to (null: none); the move builds indexes there too. */
  readonly thread: FillThread | null;
}

/**
 * The answer's bytes over a buffer of their own, which moves to the worker without a copy; a
 * small answer shares Node's buffer pool and is copied (moving the pool would empty it).
 */
const bytesOf = (answer: RawAnswer): TaskPageBytes & { body: Uint8Array<ArrayBuffer> } => {
  const { body } = answer.response;
  const bytes =
    body.buffer instanceof ArrayBuffer &&
    body.byteOffset === 0 &&
    body.byteLength === body.buffer.byteLength
      ? (body as Uint8Array<ArrayBuffer>)
      : new Uint8Array(body);
  return { status: answer.response.status, body: bytes, receivedAt: answer.receivedAt };
};

/** A caller may await only one of the two: neither may become an unhandled rejection. */
const handled = (p: PendingPage): PendingPage => {
  p.cursor.catch(() => undefined);
  p.page.catch(() => undefined);
  return p;
};

const inlineDecode = (answer: RawAnswer): PendingPage => {
  const page = new Promise<DecodedStagePage>((resolve) =>
    resolve(
      decodeStagePage({
        status: answer.response.status,
        body: answer.response.body,
        receivedAt: answer.receivedAt,
      }),
    ),
  );
  return handled({ cursor: page.then((p) => p.nextCursor), page });
};

const deferred = <T>() => {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

interface Waiting {
  cursor: (c: string | null) => void;
  page: (p: DecodedStagePage) => void;
  fail: (e: Error) => void;
}

/** Decodes on `thread`; on the caller's thread without one, or once it has stopped. */
export const openPageDecoder = (thread: FillThread | null): PageDecoder => {
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  thread?.onStop((reason) => {
    for (const w of waiting.values()) w.fail(reason);
    waiting.clear();
  });
  thread?.onMessage((m) => {
    if (m.type !== 'cursor' && m.type !== 'page' && m.type !== 'error') return;
    const w = waiting.get(m.id);
    if (!w) return;
    if (m.type === 'cursor') return w.cursor(m.nextCursor);
    waiting.delete(m.id);
    if (m.type === 'page') w.page(m.result);
    else w.fail(failureError(m.error));
  });

  return {
    get threaded() {
      return thread?.alive === true;
    },
    thread,
    decode(answer) {
      if (!thread?.alive) return inlineDecode(answer);
      const id = nextId++;
      const bytes = bytesOf(answer);
      const cursor = deferred<string | null>();
      const page = deferred<DecodedStagePage>();
      waiting.set(id, {
        cursor: cursor.resolve,
        page: (p) => {
          cursor.resolve(p.nextCursor);
          page.resolve(p);
        },
        fail: (e) => {
          cursor.reject(e);
          page.reject(e);
        },
      });
      thread.post({ type: 'decode', id, ...bytes }, [bytes.body.buffer]);
      return handled({ cursor: cursor.promise, page: page.promise });
    },
  };
};
