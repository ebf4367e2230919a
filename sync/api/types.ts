/**
 * The client's call signatures, derived from the endpoint table: one row in
 * `shared/api/endpoints` is one typed function, with no per-operation code here.
 */
import type { z } from 'zod';
import type {
  Endpoints,
  OperationId,
  PathParamNames,
  PathParams,
} from '../../shared/api/endpoints';
import type { CallTimeouts } from './http';

export type { OperationId };

type Row<K extends OperationId> = Endpoints[K];

/** A file to upload: bytes in memory or a path on disk (streamed, never read whole). */
export interface UploadFile {
  name: string;
  data: Uint8Array | string;
  contentType?: string;
}

/** Called as the multipart body streams; monotonic, ends at `totalBytes`. */
export type ProgressCallback = (sentBytes: number, totalBytes: number) => void;

type PathArgs<R> = R extends { path: infer P extends string }
  ? [PathParamNames<P>] extends [never]
    ? { path?: Record<string, never> }
    : { path: PathParams<P> }
  : never;

// biome-ignore lint/complexity/noBannedTypes: `{}` is the neutral element of the intersection.
type Empty = {};

type QueryArgs<R> = R extends { query: infer Q extends z.ZodType }
  ? Empty extends z.input<Q>
    ? { query?: z.input<Q> }
    : { query: z.input<Q> }
  : { query?: undefined };

type BodyArgs<R> = R extends { body: 'multipart' }
  ? { files: readonly UploadFile[]; onProgress?: ProgressCallback }
  : R extends { body: infer B extends z.ZodType }
    ? { body: z.input<B> }
    : { body?: undefined };

/** Only POSTs create; the outbox replays them with the key it stored beside the row. */
type MethodArgs<R> = R extends { method: 'POST' } ? { idempotencyKey?: string } : Empty;

export interface CallOptions {
  timeouts?: CallTimeouts;
  /** Cancels the call; it then fails as a `network` error with the message "request aborted". */
  signal?: AbortSignal;
}

export type OperationArgs<K extends OperationId> = PathArgs<Row<K>> &
  QueryArgs<Row<K>> &
  BodyArgs<Row<K>> &
  MethodArgs<Row<K>> &
  CallOptions;

/** The answer of a `produces: 'binary'` operation. */
export interface BinaryContent {
  bytes: Uint8Array;
  contentType: string | undefined;
}

export type OperationResult<K extends OperationId> =
  Row<K> extends { produces: 'binary' }
    ? BinaryContent
    : Row<K> extends { data: infer D extends z.ZodType }
      ? z.output<D>
      : undefined;

export type OperationFn<K extends OperationId> =
  Empty extends OperationArgs<K>
    ? (args?: OperationArgs<K>) => Promise<OperationResult<K>>
    : (args: OperationArgs<K>) => Promise<OperationResult<K>>;

/** `client.ops.getTaskById({ path: { taskId: 1 } })` and so on, for every operation id. */
export type Operations = { [K in OperationId]: OperationFn<K> };

/** What the runtime sees of any call's arguments, before the row's schemas check them. */
export interface LooseArgs extends CallOptions {
  path?: Record<string, unknown>;
  query?: unknown;
  body?: unknown;
  files?: readonly UploadFile[];
  onProgress?: ProgressCallback;
  idempotencyKey?: string;
}
