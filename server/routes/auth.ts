import { verifyPassword } from '../auth/passwords';
import { issueTokens, revokeToken, tokenUser } from '../auth/tokens';
import { unauthorized } from '../http/errors';
import type { Router } from '../http/route';
import { userWithRole } from '../store/users';

const answer = (r: Router, userId: number, now: number) => {
  const { db, accessTtlSec, refreshTtlSec } = r.deps;
  const tokens = issueTokens(db, userId, now, accessTtlSec, refreshTtlSec);
  const organizations = db
    .prepare(
      'SELECT o.org_id AS orgId, o.name AS orgName FROM org_members m JOIN orgs o ON o.org_id = m.org_id WHERE m.user_id = ? ORDER BY o.org_id',
    )
    .all(userId) as { orgId: number; orgName: string }[];
  return { ...tokens, tokenType: 'Bearer', user: userWithRole(db, userId), organizations };
};

export const registerAuthRoutes = (r: Router) => {
  r.op('authToken', ({ body, ctx }) => {
    const user = r.deps.db
      .prepare('SELECT user_id, password_hash FROM users WHERE email = ?')
      .get(body.email) as { user_id: number; password_hash: string } | undefined;
    // Same answer for an unknown email and a wrong password: do not reveal who has an account.
    if (!user || !verifyPassword(body.password, user.password_hash))
      throw unauthorized('wrong email or password');
    return answer(r, user.user_id, ctx.now);
  });

  r.op('authRefresh', ({ body, ctx }) => {
    const userId = tokenUser(r.deps.db, body.refreshToken, 'refresh', ctx.now);
    if (userId === null)
      throw unauthorized('the refresh token is invalid, expired or already used');
    // Rotation: the old refresh token stops working the moment a new one is issued.
    revokeToken(r.deps.db, body.refreshToken);
    return answer(r, userId, ctx.now);
  });
};
