import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Installs a stand-in Electron runtime the way the electron package installs its own
 * (package.json, path.txt naming dist/electron) so start-plan.ts finds it: `script` is the
 * binary, a shell script.
 */
export const installStandInElectron = (electronDir: string, script: string): string => {
  mkdirSync(path.join(electronDir, 'dist'), { recursive: true });
  writeFileSync(
    path.join(electronDir, 'package.json'),
    '{"name":"electron","version":"39.8.10"}\n',
  );
  writeFileSync(path.join(electronDir, 'path.txt'), 'electron');
  const bin = path.join(electronDir, 'dist', 'electron');
  writeFileSync(bin, `#!/bin/sh\n${script}\n`);
  chmodSync(bin, 0o755);
  return bin;
};
