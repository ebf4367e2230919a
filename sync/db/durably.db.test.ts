import { afterEach, describe, expect, it } from 'vitest';
import { tempDir as makeTempDir } from '../test-support/temp-dir';
import { durably, openReplicaFile, type Sqlite } from './open';

const FULL = 2;
const NORMAL = 1;
const level = (db: Sqlite) => db.pragma('synchronous', { simple: true });

let db: Sqlite | undefined;
afterEach(() => db?.close());

describe('durably', () => {
  it('commits one transaction with the WAL synced, then goes back to NORMAL', () => {
    db = openReplicaFile(makeTempDir('durably-'), { serverUrl: 'http://x', userId: 1, orgId: 1 });
    const d = db;
    expect(level(d)).toBe(NORMAL);
    const seen = durably(d, () => {
      d.prepare("INSERT INTO replica_info (key, value) VALUES ('k', 'v')").run();
      return { level: level(d), inTransaction: d.inTransaction };
    });
    expect(seen).toEqual({ level: FULL, inTransaction: true });
    expect(level(d)).toBe(NORMAL);
    expect(d.prepare("SELECT value FROM replica_info WHERE key = 'k'").pluck().get()).toBe('v');
  });

  it('writes nothing when it throws, and still goes back to NORMAL', () => {
    db = openReplicaFile(makeTempDir('durably-'), { serverUrl: 'http://x', userId: 1, orgId: 1 });
    const d = db;
    expect(() =>
      durably(d, () => {
        d.prepare("INSERT INTO replica_info (key, value) VALUES ('k', 'v')").run();
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(level(d)).toBe(NORMAL);
    expect(d.prepare("SELECT COUNT(*) FROM replica_info WHERE key = 'k'").pluck().get()).toBe(0);
  });

  it('joins a transaction already open', () => {
    db = openReplicaFile(makeTempDir('durably-'), { serverUrl: 'http://x', userId: 1, orgId: 1 });
    const d = db;
    d.transaction(() => {
      durably(d, () => d.prepare("INSERT INTO replica_info (key, value) VALUES ('k', 'v')").run());
      expect(d.inTransaction).toBe(true);
    })();
    expect(d.prepare("SELECT value FROM replica_info WHERE key = 'k'").pluck().get()).toBe('v');
  });
});
