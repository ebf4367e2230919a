import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replicaFileName, replicaFilesDir, replicaFolderName, replicaFolderOf } from './open';

const key = { serverUrl: 'https://api.example.com/v1', userId: 7, orgId: 2 };

describe('a replica folder', () => {
  it('is named like its replica file, one per (server origin, user, org)', () => {
    expect(replicaFolderName(key)).toBe(replicaFileName(key).replace(/\.sqlite$/, '.files'));
    expect(replicaFilesDir('/data/replicas', key)).toBe(
      join('/data/replicas', replicaFolderName(key)),
    );
    const others = [
      { ...key, orgId: 1 },
      { ...key, userId: 8 },
      { ...key, serverUrl: 'https://other.example.com' },
    ].map(replicaFolderName);
    expect(new Set([replicaFolderName(key), ...others]).size).toBe(4);
    // The path of the service does not matter, its origin does.
    expect(replicaFolderName({ ...key, serverUrl: 'https://api.example.com' })).toBe(
      replicaFolderName(key),
    );
  });

  it('is found from a path inside it, and only from one', () => {
    const dir = replicaFilesDir('/data/replicas', key);
    expect(replicaFolderOf('/data/replicas', join(dir, 'attachments', '5.bin'))).toBe(dir);
    expect(replicaFolderOf('/data/replicas/', join(dir, 'outbox-files', 'x'))).toBe(dir);
    for (const path of [
      dir,
      '/data/replicas/outbox-files/x',
      '/data/replicas/attachments/5.bin',
      '/elsewhere/replica-0123456789abcdef-u1-o1.files/attachments/5.bin',
      join(dir, '..', '..', 'secrets', 'x'),
      '/data/replicas/replica-nothex-u1-o1.files/x',
    ])
      expect(replicaFolderOf('/data/replicas', path), path).toBeNull();
  });
});
