/**
 * Failures classified once: what an error means for an outbox row, and when to try again.
 * The pusher switches on `classifyFailure` only; it never looks at statuses or error kinds.
 */
import { isApiClientError } from '../api/errors';
import { type FailureClass, kindSpec, type MutationKind, type OutboxError } from './types';

export interface BackoffOptions {
  /** Delay after the first failed attempt (before jitter). */
  baseMs?: number;
  /** Longest delay backoff alone produces (Retry-After may ask for more). */
  capMs?: number;
}

export const defaultBackoff = { baseMs: 1_000, capMs: 5 * 60_000 } as const;

/**
 * Milliseconds until the next attempt after `attempts` failed ones (1 for the first): base ·
 * 2^(attempts−1), capped, with "equal jitter" (uniformly in the upper half, so retries of
 * many rows spread out but never come sooner than half the step). A server's Retry-After is
 * a floor.
 */
export const nextAttemptDelay = (
  attempts: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
  options: BackoffOptions = {},
): number => {
  const base = options.baseMs ?? defaultBackoff.baseMs;
  const cap = options.capMs ?? defaultBackoff.capMs;
  const n = Math.max(1, Math.floor(Number.isFinite(attempts) ? attempts : 1));
  const step = Math.min(cap, base * 2 ** Math.min(n - 1, 52));
  const raw = random();
  const r = Number.isFinite(raw) ? Math.min(1, Math.max(0, raw)) : 0.5;
  const delay = Math.round(step / 2 + (r * step) / 2);
  const floor =
    retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs > 0
      ? Math.ceil(retryAfterMs)
      : 0;
  return Math.max(delay, floor);
};

/**
 * What a failed send of a row of `kind` means:
 * - retry: nothing was wrong with the request (network, timeout, 5xx, an unreadable answer);
 *   send it again later with the same idempotency key.
 * - rate-limited: 429; again after Retry-After.
 * - auth: 401 (after the client's own refresh): pause the whole outbox until signed in.
 * - permanent: the server refused this edit (400, 403, 409, 413, 415, a create whose parent is
 *   gone, or anything that is not an API error): kept visible, the queue goes on.
 * - conflict: the entity an update, move or delete edits is gone on the server (404/410).
 */
export const classifyFailure = (error: unknown, kind: MutationKind): FailureClass => {
  if (!isApiClientError(error)) return 'permanent';
  switch (error.kind) {
    case 'network':
    case 'timeout':
    case 'server':
    case 'bad-response':
      return 'retry';
    case 'rate-limit':
      return 'rate-limited';
    case 'auth':
      return 'auth';
    case 'validation':
      // A time "in the future" is one our clock is ahead of the server's by: it passes.
      return isClockAhead(error.fieldErrors) ? 'retry' : 'permanent';
    case 'forbidden':
    case 'conflict':
      return 'permanent';
    case 'not-found':
      return kindSpec(kind).effect === 'create' ? 'permanent' : 'conflict';
    default: {
      const never: never = error.kind;
      return never;
    }
  }
};

/**
 * The server refused a time of ours as being past its own now: a start in its future (a timer
 * started a moment ago while this machine's clock runs ahead), or a running timer's corrected
 * duration that does not fit between its start and the server's now (the same skew). The
 * same request succeeds once the server's clock has caught up, so it is retried rather than
 * failed. The phrases are the reference server's; the contract does not fix one.
 */
const isClockAhead = (fieldErrors: readonly { field: string; message: string }[]): boolean =>
  fieldErrors.length > 0 &&
  fieldErrors.every(
    (f) =>
      (/time$/i.test(f.field) && /future/i.test(f.message)) ||
      (/^(body\.)?durationSeconds$/i.test(f.field) && /\bnow\b/i.test(f.message)),
  );

/** The error as a row keeps it (`last_error`) and the UI shows it. */
export const outboxError = (error: unknown, failure: FailureClass): OutboxError => {
  if (isApiClientError(error))
    return {
      kind: error.kind,
      failure,
      ...(error.status === undefined ? {} : { status: error.status }),
      message: error.message,
      ...(error.fieldErrors.length > 0 ? { fieldErrors: error.fieldErrors } : {}),
    };
  return {
    kind: 'local',
    failure,
    message: error instanceof Error ? error.message : String(error),
  };
};
