import { z } from 'zod';
import { dummyPasswordHash, verifyPassword } from '../auth/passwords';
import { createSignInThrottle } from '../auth/throttle';
import { issueTokens, newTokenFamily, revokeSession, rotateRefreshToken } from '../auth/tokens';
import { apiErrorBody, HttpError, unauthorized } from '../http/errors';
import type { Router } from '../http/route';
import { userWithRole } from '../store/users';

const answer = (r: Router, userId: number, now: number, family: string) => {
  const { db, accessTtlSec, refreshTtlSec } = r.deps;
  const tokens = issueTokens(db, userId, now, accessTtlSec, refreshTtlSec, family);
  const organizations = db
    .prepare(
      'SELECT o.org_id AS orgId, o.name AS orgName FROM org_members m JOIN orgs o ON o.org_id = m.org_id WHERE m.user_id = ? ORDER BY o.org_id',
    )
    .all(userId) as { orgId: number; orgName: string }[];
  return { ...tokens, tokenType: 'Bearer', user: userWithRole(db, userId), organizations };
};

const revokeBody = z.object({ refreshToken: z.string().min(1).max(512) });

export const registerAuthRoutes = (r: Router) => {
  const throttle = createSignInThrottle();

  // The password is checked before the transaction, on the thread pool; the handler only
  // issues the tokens of the user it found.
  r.op<'authToken', number>(
    'authToken',
    ({ prepared, ctx }) => answer(r, prepared, ctx.now, newTokenFamily()),
    async ({ body, peer }) => {
      const key = `${body.email.toLowerCase()}\n${peer}`;
      const now = r.deps.clock.now();
      const wait = throttle.retryAfterSec(key, now);
      if (wait > 0)
        throw new HttpError(429, 'too many failed sign-ins; try again later', [], {
          'retry-after': String(wait),
        });
      const user = r.deps.db
        .prepare('SELECT user_id, password_hash FROM users WHERE email = ?')
        .get(body.email) as { user_id: number; password_hash: string } | undefined;
      // An unknown email is checked against a dummy hash: same answer, same time, so neither
      // tells who has an account.
      const ok = await verifyPassword(
        body.password,
        user?.password_hash ?? (await dummyPasswordHash()),
      );
      if (!user || !ok) {
        throttle.failed(key, r.deps.clock.now());
        throw unauthorized('wrong email or password');
      }
      throttle.succeeded(key);
      return user.user_id;
    },
  );

  r.op('authRefresh', ({ body, ctx }) => {
    const rotation = rotateRefreshToken(r.deps.db, body.refreshToken, ctx.now);
    if (rotation.kind === 'reused')
      // The family's revocation is committed with the refusal.
      throw new HttpError(
        401,
        'the refresh token is invalid, expired or already used',
        [],
        {},
        true,
      );
    if (rotation.kind === 'refused')
      throw unauthorized('the refresh token is invalid, expired or already used');
    return answer(r, rotation.userId, ctx.now, rotation.family);
  });

  // Sign-out (this server's extension; the spec has no such operation): the session of the
  // refresh token ends server-side, its access tokens with it. Unknown tokens get the same
  // 204: the answer tells nothing about a token.
  r.app.post('/v1/auth/revoke', async (req, reply) => {
    const parsed = revokeBody.safeParse(req.body);
    if (!parsed.success)
      return reply
        .code(400)
        .send(
          apiErrorBody(400, 'invalid request body', '/v1/auth/revoke', r.deps.clock.now(), [
            { field: 'refreshToken', message: 'must be a string of 1 to 512 characters' },
          ]),
        );
    r.deps.db.transaction(() => revokeSession(r.deps.db, parsed.data.refreshToken))();
    return reply.code(204).send();
  });
};
