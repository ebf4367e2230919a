import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Where the host keeps the signed-in session's secret (tokens and who they belong to) between
 * launches. The desktop app encrypts it with Electron's safeStorage; browser mode and tests use
 * the plain file below. The secret is opaque text to the vault: callers parse what they read.
 */
export interface TokenVault {
  read(): Promise<string | null>;
  write(secret: string): Promise<void>;
  /** Forgets the secret (sign-out); clearing an empty vault is fine. */
  clear(): Promise<void>;
}

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * A file readable by its owner only (0600), replaced atomically so a crash mid-write leaves
 * the old secret or the new one, never half of one.
 */
export const fileTokenVault = (file: string): TokenVault => ({
  async read() {
    try {
      return await readFile(file, 'utf8');
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  },
  async write(secret) {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(secret, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The mode of open() is masked by the umask and ignored for an existing file.
    await chmod(tmp, 0o600);
    await rename(tmp, file);
  },
  async clear() {
    await rm(file, { force: true });
  },
});

/** A vault that forgets everything on exit (a test, or a launch that must not persist tokens). */
export const memoryTokenVault = (): TokenVault => {
  let secret: string | null = null;
  return {
    read: async () => secret,
    write: async (s) => {
      secret = s;
    },
    clear: async () => {
      secret = null;
    },
  };
};
