import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../db/open';
import { checkedKey, keepAnswer, keptAnswer, requestHash } from './idempotency';

const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});
const open = () => {
  const db = openDb(null);
  dbs.push(db);
  return db;
};

const day = 24 * 60 * 60 * 1000;
const answer = { status: 201, response: '{"success":true,"code":201}' };
const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
};
const hashOf = (body: unknown, orgId = 1, path = '/v1/spaces') =>
  requestHash('POST', path, orgId, body);

describe('the idempotency store', () => {
  it('replays the kept answer to the same key with the same request', () => {
    const db = open();
    const req = { userId: 1, key: 'k', hash: hashOf({ spaceName: 'A' }) };
    expect(keptAnswer(db, req, 0)).toBeUndefined();
    keepAnswer(db, req, answer, 0);
    expect(keptAnswer(db, { ...req, hash: hashOf({ spaceName: 'A' }) }, 1_000)).toEqual(answer);
  });

  it('refuses the same key on another body, path or org with a 409', () => {
    const db = open();
    keepAnswer(db, { userId: 1, key: 'k', hash: hashOf({ spaceName: 'A' }) }, answer, 0);
    for (const hash of [
      hashOf({ spaceName: 'B' }),
      hashOf({ spaceName: 'A' }, 2),
      hashOf({ spaceName: 'A' }, 1, '/v1/projects'),
    ]) {
      expect(thrown(() => keptAnswer(db, { userId: 1, key: 'k', hash }, 0))).toMatchObject({
        statusCode: 409,
        message: 'Idempotency-Key was already used for a different request',
      });
    }
  });

  it('scopes keys to the user: the same key of another user is a fresh request', () => {
    const db = open();
    const hash = hashOf({ spaceName: 'A' });
    keepAnswer(db, { userId: 1, key: 'k', hash }, answer, 0);
    expect(keptAnswer(db, { userId: 2, key: 'k', hash: hashOf({ spaceName: 'B' }) }, 0)).toBe(
      undefined,
    );
    expect(keptAnswer(db, { userId: 2, key: 'k', hash }, 0)).toBeUndefined();
  });

  it('forgets an answer after 24 hours', () => {
    const db = open();
    const req = { userId: 1, key: 'k', hash: hashOf({}) };
    keepAnswer(db, req, answer, 0);
    expect(keptAnswer(db, req, day)).toEqual(answer);
    expect(keptAnswer(db, req, day + 1)).toBeUndefined();
  });

  it('takes 1 to 255 printable ASCII characters as a key', () => {
    expect(checkedKey(undefined)).toBeUndefined();
    expect(checkedKey(['a', 'b'])).toBe('a');
    expect(checkedKey('~'.repeat(255))).toBe('~'.repeat(255));
    for (const bad of ['', 'a b', 'é', 'x'.repeat(256)])
      expect(() => checkedKey(bad), JSON.stringify(bad)).toThrow(/invalid Idempotency-Key/);
  });
});
