import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/open';

export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
}

/** Issues a fresh access and refresh token; only their hashes are stored. */
export const issueTokens = (
  db: Db,
  userId: number,
  now: number,
  accessTtlSec: number,
  refreshTtlSec: number,
): IssuedTokens => {
  const accessToken = randomBytes(32).toString('base64url');
  const refreshToken = randomBytes(32).toString('base64url');
  const insert = db.prepare(
    'INSERT INTO tokens (token_hash, kind, user_id, expires_at) VALUES (?, ?, ?, ?)',
  );
  insert.run(hashToken(accessToken), 'access', userId, now + accessTtlSec * 1000);
  insert.run(hashToken(refreshToken), 'refresh', userId, now + refreshTtlSec * 1000);
  // Expired tokens are of no use to anyone: drop them as we go.
  db.prepare('DELETE FROM tokens WHERE expires_at < ?').run(now - 86_400_000);
  return { accessToken, refreshToken, expiresIn: accessTtlSec, refreshExpiresIn: refreshTtlSec };
};

/** The user of a live token of `kind`, or null. */
export const tokenUser = (
  db: Db,
  token: string,
  kind: 'access' | 'refresh',
  now: number,
): number | null => {
  const row = db
    .prepare('SELECT user_id, expires_at, revoked FROM tokens WHERE token_hash = ? AND kind = ?')
    .get(hashToken(token), kind) as
    | { user_id: number; expires_at: number; revoked: number }
    | undefined;
  if (!row || row.revoked || row.expires_at <= now) return null;
  return row.user_id;
};

export const revokeToken = (db: Db, token: string): void => {
  db.prepare('UPDATE tokens SET revoked = 1 WHERE token_hash = ?').run(hashToken(token));
};
