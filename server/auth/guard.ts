import type { Db } from '../db/open';
import { badRequest, HttpError, unauthorized } from '../http/errors';
import { tokenUser } from './tokens';

/** 401 unless the request carries a live access token. */
export const authenticate = (db: Db, header: string | undefined, now: number): number => {
  const match = header ? /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header) : null;
  if (!match?.[1]) throw unauthorized('missing or malformed bearer token');
  const userId = tokenUser(db, match[1], 'access', now);
  if (userId === null) throw unauthorized('the access token is invalid or has expired');
  return userId;
};

/** 400 for a missing or non-integer X-Org-Id; 403 for an org the user is not a member of. */
export const resolveOrg = (
  db: Db,
  userId: number,
  header: string | string[] | undefined,
): number => {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim()) || Number(value) < 1)
    throw badRequest('X-Org-Id header is required and must be a positive integer', [
      {
        field: 'X-Org-Id',
        message: 'must be a positive integer',
        ...(value === undefined ? {} : { rejectedValue: value }),
      },
    ]);
  const orgId = Number(value);
  const member = db
    .prepare('SELECT 1 FROM org_members WHERE org_id = ? AND user_id = ?')
    .get(orgId, userId);
  if (!member) throw new HttpError(403, 'you are not a member of this organization');
  return orgId;
};
