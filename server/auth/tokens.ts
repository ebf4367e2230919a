import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/open';

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
}

/** A new family: one sign-in, and every pair its refreshes give. */
export const newTokenFamily = (): string => randomUUID();

/** Issues a fresh access and refresh token of `family`; only their hashes are stored. */
export const issueTokens = (
  db: Db,
  userId: number,
  now: number,
  accessTtlSec: number,
  refreshTtlSec: number,
  family: string,
): IssuedTokens => {
  const accessToken = randomBytes(32).toString('base64url');
  const refreshToken = randomBytes(32).toString('base64url');
  const insert = db.prepare(
    'INSERT INTO tokens (token_hash, kind, user_id, expires_at) VALUES (?, ?, ?, ?)',
  );
  const member = db.prepare('INSERT INTO token_families (token_hash, family) VALUES (?, ?)');
  for (const [token, kind, ttl] of [
    [accessToken, 'access', accessTtlSec],
    [refreshToken, 'refresh', refreshTtlSec],
  ] as const) {
    insert.run(hashToken(token), kind, userId, now + ttl * 1000);
    member.run(hashToken(token), family);
  }
  // Expired tokens are of no use to anyone: drop them as we go (their family rows follow).
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

/** Revokes every token of the family of `tokenHash` (a token of no family: itself). */
const revokeFamilyOf = (db: Db, tokenHash: string): void => {
  db.prepare(
    `UPDATE tokens SET revoked = 1 WHERE token_hash = ? OR token_hash IN (
       SELECT token_hash FROM token_families WHERE family = (
         SELECT family FROM token_families WHERE token_hash = ?))`,
  ).run(tokenHash, tokenHash);
};

/** Sign-out: the session of this refresh token ends here, all its tokens with it. */
export const revokeSession = (db: Db, refreshToken: string): void => {
  const hash = hashToken(refreshToken);
  const known = db
    .prepare("SELECT 1 FROM tokens WHERE token_hash = ? AND kind = 'refresh'")
    .get(hash);
  if (known) revokeFamilyOf(db, hash);
};

export type Rotation =
  | { kind: 'rotated'; userId: number; family: string }
  | { kind: 'refused' }
  /** A refresh token used a second time: the family was revoked. */
  | { kind: 'reused' };

/**
 * Exchanges a refresh token once. Using it again is reuse: only a copy (a thief's, or the
 * holder's after a thief's) can do that, so the whole family is revoked, the newest pair
 * included, and both must sign in again.
 *
 * No grace window for the token just rotated: the contract says the old token stops working
 * the moment a new one is issued, and a client that lost the answer (killed before it stored
 * the new pair, or the answer cut) is refused either way; revoking the lost pair with it
 * costs that client nothing more. The client refreshes once at a time (session.ts joins a
 * refresh in flight), so two refreshes of one session do not race.
 */
export const rotateRefreshToken = (db: Db, refreshToken: string, now: number): Rotation => {
  const hash = hashToken(refreshToken);
  const row = db
    .prepare(
      `SELECT t.user_id, t.expires_at, t.revoked, f.family, f.rotated_at FROM tokens t
       LEFT JOIN token_families f ON f.token_hash = t.token_hash
       WHERE t.token_hash = ? AND t.kind = 'refresh'`,
    )
    .get(hash) as
    | {
        user_id: number;
        expires_at: number;
        revoked: number;
        family: string | null;
        rotated_at: number | null;
      }
    | undefined;
  if (!row || row.expires_at <= now) return { kind: 'refused' };
  if (row.rotated_at !== null) {
    revokeFamilyOf(db, hash);
    return { kind: 'reused' };
  }
  if (row.revoked) return { kind: 'refused' };
  // A token from before families (an older data file) starts one of its own.
  const family = row.family ?? newTokenFamily();
  db.prepare(
    `INSERT INTO token_families (token_hash, family, rotated_at) VALUES (?, ?, ?)
     ON CONFLICT (token_hash) DO UPDATE SET rotated_at = excluded.rotated_at`,
  ).run(hash, family, now);
  return { kind: 'rotated', userId: row.user_id, family };
};
