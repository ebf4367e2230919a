import { memoryTokenVault, type TokenVault } from '../services/token-vault';

/**
 * The desktop's token vault: the secret is encrypted with Electron's `safeStorage` (the OS
 * keychain, DPAPI, or libsecret/kwallet) before it reaches disk, stored base64 in an owner-only
 * file (the inner vault). Where the OS offers no real key store (Linux `basic_text`, or none at
 * all), the secret stays in memory for this launch rather than being written in the clear.
 *
 * Nothing here logs the secret or an error that might carry it.
 */

/** The part of Electron's `safeStorage` the vault uses (the binding passes the real one). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron; absent elsewhere. */
  getSelectedStorageBackend?(): string;
}

export type VaultMode = 'encrypted' | 'memory-only';

/** Whether secrets may be written: only with a real key store behind `safeStorage`. */
export const vaultMode = (cipher: SafeStorageLike, platform: NodeJS.Platform): VaultMode => {
  if (!cipher.isEncryptionAvailable()) return 'memory-only';
  // On Linux without a keyring Chromium "encrypts" with a hard-coded key: as good as plain text.
  if (platform === 'linux' && cipher.getSelectedStorageBackend?.() === 'basic_text') {
    return 'memory-only';
  }
  return 'encrypted';
};

export interface SafeStorageVault extends TokenVault {
  readonly mode: VaultMode;
}

export const safeStorageTokenVault = (
  cipher: SafeStorageLike,
  file: TokenVault,
  platform: NodeJS.Platform = process.platform,
): SafeStorageVault => {
  const mode = vaultMode(cipher, platform);
  if (mode === 'memory-only') return { mode, ...memoryTokenVault() };
  return {
    mode,
    async read() {
      const stored = await file.read();
      if (stored === null) return null;
      try {
        return cipher.decryptString(Buffer.from(stored, 'base64'));
      } catch {
        // Unreadable with this OS user's key (copied profile, reset keychain): the tokens are
        // gone for good; forget them so the user is simply asked to sign in again.
        await file.clear();
        return null;
      }
    },
    async write(secret) {
      await file.write(cipher.encryptString(secret).toString('base64'));
    },
    clear: () => file.clear(),
  };
};
