import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileTokenVault } from '../services/token-vault';
import { type SafeStorageLike, safeStorageTokenVault, vaultMode } from './safe-storage-vault';

/**
 * safeStorage needs the Electron binary, so a stand-in cipher plays it: a keyed XOR with a
 * header, enough to tell ciphertext from plain text and a wrong key from the right one.
 */
const cipher = (key: number, backend = 'gnome_libsecret', available = true): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  getSelectedStorageBackend: () => backend,
  encryptString: (plain) =>
    Buffer.concat([Buffer.from('v10'), Buffer.from(plain, 'utf8').map((b) => b ^ key)]),
  decryptString: (data) => {
    if (data.subarray(0, 3).toString() !== 'v10' || data.length < 3)
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString.',
      );
    const plain = Buffer.from(data.subarray(3).map((b) => b ^ key));
    if (!plain.toString('utf8').startsWith('{')) throw new Error('bad key');
    return plain.toString('utf8');
  },
});

const secret = JSON.stringify({ tokens: { accessToken: 'acc-123', refreshToken: 'ref-456' } });

describe('safeStorageTokenVault', () => {
  let dir = '';
  const fresh = () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vault-'));
    return path.join(dir, 'session.bin');
  };
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stores the secret encrypted, never in the clear, and reads it back', async () => {
    const file = fresh();
    const vault = safeStorageTokenVault(cipher(0x5a), fileTokenVault(file), 'linux');
    expect(vault.mode).toBe('encrypted');
    expect(await vault.read()).toBeNull();
    await vault.write(secret);
    const onDisk = readFileSync(file);
    expect(onDisk.toString('utf8')).not.toContain('acc-123');
    expect(Buffer.from(onDisk.toString('utf8'), 'base64').toString('latin1')).not.toContain(
      'ref-456',
    );
    expect(await vault.read()).toBe(secret);
    const again = safeStorageTokenVault(cipher(0x5a), fileTokenVault(file), 'linux');
    expect(await again.read()).toBe(secret);
    await again.clear();
    expect(await again.read()).toBeNull();
  });

  it('forgets a secret this OS key cannot read, so the user signs in again', async () => {
    const file = fresh();
    await safeStorageTokenVault(cipher(0x5a), fileTokenVault(file), 'darwin').write(secret);
    const otherKey = safeStorageTokenVault(cipher(0x33), fileTokenVault(file), 'darwin');
    expect(await otherKey.read()).toBeNull();
    expect(await fileTokenVault(file).read()).toBeNull();
    writeFileSync(file, 'not base64 at all');
    expect(await otherKey.read()).toBeNull();
  });

  it('keeps the secret in memory only when no real key store exists', async () => {
    const file = fresh();
    for (const c of [cipher(1, 'basic_text'), cipher(1, 'gnome_libsecret', false)]) {
      const vault = safeStorageTokenVault(c, fileTokenVault(file), 'linux');
      expect(vault.mode).toBe('memory-only');
      await vault.write(secret);
      expect(await vault.read()).toBe(secret);
      expect(await fileTokenVault(file).read()).toBeNull();
      await vault.clear();
      expect(await vault.read()).toBeNull();
    }
  });

  it('trusts basic_text only where it is not the Linux fallback', () => {
    expect(vaultMode(cipher(1, 'basic_text'), 'linux')).toBe('memory-only');
    expect(vaultMode(cipher(1, 'kwallet6'), 'linux')).toBe('encrypted');
    expect(vaultMode({ ...cipher(1), getSelectedStorageBackend: undefined }, 'win32')).toBe(
      'encrypted',
    );
  });
});
