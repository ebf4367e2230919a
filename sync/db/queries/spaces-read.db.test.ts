import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceSpaces } from './projects-write';
import {
  LOST_ON_WRITE,
  openTestReplica,
  seedReplica,
  spaceDto,
  type TestReplica,
  without,
} from './read.fixture';
import { readSpace, readSpaces } from './spaces-read';

let t: TestReplica;
beforeAll(() => {
  t = openTestReplica();
  seedReplica(t.replica);
});
afterAll(() => t.close());

/** The space the server sent, minus what the writer cannot keep (fixture LOST_ON_WRITE). */
const expected = (...args: Parameters<typeof spaceDto>) => {
  const sent = without(spaceDto(...args), LOST_ON_WRITE.space);
  return {
    ...sent,
    spaceMembers: sent.spaceMembers?.map((m) => without(m, LOST_ON_WRITE.spaceMember)),
  };
};

describe('readSpaces', () => {
  it('gives back the spaces with members and space-level fields, ordered by id', () => {
    expect(readSpaces(t.replica.db)).toEqual([
      expected(10, 'Product', [1, 2, 3]),
      expected(11, 'Ops', [1]),
    ]);
  });

  it('members carry their user ref and role name', () => {
    const s = readSpace(t.replica.db, 10);
    expect(s?.spaceMembers?.map((m) => [m.user?.email, m.spaceRole?.spaceRoleName])).toEqual([
      ['alice@example.com', 'Admin'],
      ['bob@example.com', 'Member'],
      ['carol@example.com', 'Member'],
    ]);
    expect(s?.customFields?.map((f) => [f.fieldName, f.fieldValue])).toEqual([
      ['Client', []],
      ['Deadline', []],
    ]);
  });

  it('by ids, in the order asked; a space gone from the list is gone', () => {
    expect(readSpaces(t.replica.db, [11, 5, 10]).map((s) => s.spaceId)).toEqual([11, 10]);
    const { replica, close } = openTestReplica();
    try {
      seedReplica(replica);
      replaceSpaces(replica.db, [spaceDto(11, 'Ops', [1])]);
      expect(readSpaces(replica.db).map((s) => s.spaceId)).toEqual([11]);
      expect(readSpace(replica.db, 10)).toBeNull();
    } finally {
      close();
    }
  });
});
