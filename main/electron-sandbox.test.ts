import { describe, expect, it } from 'vitest';
import { type SandboxProbe, sandboxBlocked } from './electron-sandbox';

const binary = '/home/me/worktray/node_modules/electron/dist/electron';
const helper = '/home/me/worktray/node_modules/electron/dist/chrome-sandbox';
const restrict = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

/** A machine of files: path → text, plus the helper's owner and mode (absent: undefined). */
const machine = (
  files: Record<string, string>,
  helperStat?: { uid: number; mode: number },
  platform: NodeJS.Platform = 'linux',
): SandboxProbe => ({
  platform,
  readFile: (path) => {
    const text = files[path];
    if (text === undefined) throw new Error(`ENOENT: ${path}`);
    return text;
  },
  stat: (path) => {
    if (path !== helper || !helperStat) throw new Error(`ENOENT: ${path}`);
    return helperStat;
  },
  readdir: (dir) => {
    const names = Object.keys(files)
      .filter((f) => f.startsWith(`${dir}/`))
      .map((f) => f.slice(dir.length + 1));
    if (names.length === 0) throw new Error(`ENOENT: ${dir}`);
    return names;
  },
});

const asNpmLeftIt = { uid: 1000, mode: 0o100755 };
const setuidRoot = { uid: 0, mode: 0o104755 };

describe('sandboxBlocked: can Electron start its sandbox with this binary?', () => {
  it('yes where user namespaces are not restricted (no sysctl, or 0), or off Linux', () => {
    expect(sandboxBlocked(binary, machine({}, asNpmLeftIt))).toBeNull();
    expect(sandboxBlocked(binary, machine({ [restrict]: '0\n' }, asNpmLeftIt))).toBeNull();
    expect(
      sandboxBlocked(binary, machine({ [restrict]: '1\n' }, asNpmLeftIt, 'darwin')),
    ).toBeNull();
  });

  it('no where they are restricted and the helper is not setuid root, or missing', () => {
    for (const stat of [asNpmLeftIt, { uid: 0, mode: 0o100755 }, { uid: 1000, mode: 0o104755 }]) {
      const blocked = sandboxBlocked(binary, machine({ [restrict]: '1\n' }, stat));
      expect(blocked?.why).toMatch(/sandbox cannot start here/);
      expect(blocked?.detail).toContain(
        `sudo chown root:root ${helper} && sudo chmod 4755 ${helper}`,
      );
    }
    expect(sandboxBlocked(binary, machine({ [restrict]: '1\n' }))).not.toBeNull();
  });

  it('yes once the fix is applied: the helper setuid root, or a profile allowing userns', () => {
    expect(sandboxBlocked(binary, machine({ [restrict]: '1\n' }, setuidRoot))).toBeNull();
    const profile = `abi <abi/4.0>,\ninclude <tunables/global>\nprofile worktray-dev ${binary} flags=(unconfined) {\n  userns,\n}\n`;
    expect(
      sandboxBlocked(
        binary,
        machine({ [restrict]: '1\n', '/etc/apparmor.d/worktray-dev': profile }, asNpmLeftIt),
      ),
    ).toBeNull();
    // A profile for another binary, or one without userns, does not help this one.
    for (const other of [
      profile.replace(binary, '/opt/Other/other'),
      profile.replace('userns,', ''),
    ])
      expect(
        sandboxBlocked(
          binary,
          machine({ [restrict]: '1\n', '/etc/apparmor.d/other': other }, asNpmLeftIt),
        ),
      ).not.toBeNull();
  });

  it('quotes a path with spaces in the command it gives', () => {
    const spaced = '/home/me/my apps/node_modules/electron/dist/electron';
    const blocked = sandboxBlocked(spaced, {
      ...machine({ [restrict]: '1' }),
      stat: () => asNpmLeftIt,
    });
    expect(blocked?.detail).toContain(
      "sudo chown root:root '/home/me/my apps/node_modules/electron/dist/chrome-sandbox'",
    );
  });
});
