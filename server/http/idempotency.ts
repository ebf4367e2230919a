import { createHash } from 'node:crypto';
import type { Db } from '../db/open';
import { badRequest, HttpError } from './errors';

/**
 * Idempotency-Key, this server's extension: the first answer to (user, key) is kept 24 h and
 * replayed to the same request; the same key on a different request is a 409. Keys are scoped
 * to the signed-in user; the request's method, path and org are part of what must match.
 */

/** An answer as sent: its status and its envelope's JSON ('' for a 204). */
export interface StoredAnswer {
  status: number;
  response: string;
}

/** A request that carries a key: whose, which, and the hash of what it asks. */
export interface KeyedRequest {
  userId: number;
  key: string;
  hash: string;
}

const keyPattern = /^[\x21-\x7e]{1,255}$/;
const keptMs = 24 * 60 * 60 * 1000;

/** The header's key, checked: 1 to 255 printable ASCII characters. */
export const checkedKey = (header: string | string[] | undefined): string | undefined => {
  const key = Array.isArray(header) ? header[0] : header;
  if (key !== undefined && !keyPattern.test(key))
    throw badRequest('invalid Idempotency-Key', [
      { field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  return key;
};

/** What a replay must match: method, path (without the query), org and body. */
export const requestHash = (method: string, path: string, orgId: number, body: unknown): string =>
  createHash('sha256')
    .update(`${method} ${path} ${orgId}\n`)
    .update(JSON.stringify(body ?? null))
    .digest('hex');

/**
 * Inside the request's transaction: forgets keys older than 24 h, then answers what was kept for
 * this user's key, or a 409 if the key was used for a different request.
 */
export const keptAnswer = (db: Db, req: KeyedRequest, now: number): StoredAnswer | undefined => {
  db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?').run(now - keptMs);
  const prior = db
    .prepare(
      'SELECT request_hash, status, response FROM idempotency_keys WHERE user_id = ? AND key = ?',
    )
    .get(req.userId, req.key) as
    | { request_hash: string; status: number; response: string }
    | undefined;
  if (!prior) return undefined;
  if (prior.request_hash !== req.hash)
    throw new HttpError(409, 'Idempotency-Key was already used for a different request');
  return { status: prior.status, response: prior.response };
};

/** Inside the request's transaction: keeps the answer for a replay. */
export const keepAnswer = (db: Db, req: KeyedRequest, answer: StoredAnswer, now: number): void => {
  db.prepare(
    'INSERT INTO idempotency_keys (user_id, key, request_hash, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(req.userId, req.key, req.hash, answer.status, answer.response, now);
};
