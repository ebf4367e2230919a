import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../sync/test-support/temp-dir';
import { fileTokenVault } from './token-vault';

describe('fileTokenVault', () => {
  const dir = () => tempDir('wt-vault-');

  it('reads null before the first write, the secret after, null after clear', async () => {
    const vault = fileTokenVault(join(dir(), 'nested', 'session.json'));
    expect(await vault.read()).toBeNull();
    await vault.write('{"tokens":"x"}');
    expect(await vault.read()).toBe('{"tokens":"x"}');
    await vault.clear();
    expect(await vault.read()).toBeNull();
    await vault.clear();
  });

  it('keeps the file readable by its owner only, even when it existed with a looser mode', async () => {
    const file = join(dir(), 'session.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    await fileTokenVault(file).write('new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
