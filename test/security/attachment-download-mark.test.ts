import { describe, expect, it } from 'vitest';
import {
  type DownloadMarkDeps,
  downloadMarker,
  ZONE_IDENTIFIER,
} from '../../main/electron/download-mark';

// Issue 15, item 1: a copy of an attachment the host hands to the system carries the mark a
// browser puts on its downloads, so SmartScreen, Office's Protected View and Gatekeeper treat
// it as a stranger's file. Each platform's call, seen through stand-ins for fs and execFile.

const NOW = Date.UTC(2026, 10, 26, 7, 0, 0);

const marking = (platform: NodeJS.Platform) => {
  const calls: unknown[][] = [];
  const deps: DownloadMarkDeps = {
    platform,
    writeFile: async (path, data) => {
      calls.push(['writeFile', path, data]);
    },
    execFile: async (file, args) => {
      calls.push(['execFile', file, [...args]]);
    },
    now: () => NOW,
  };
  return { calls, mark: downloadMarker(deps) };
};

const file = '/data/replica-0123456789abcdef-u1-o1.files/opened/7/report.pdf';

describe('marking an opened copy as downloaded', () => {
  it("Windows: the Internet zone in the file's Zone.Identifier stream", async () => {
    const { calls, mark } = marking('win32');
    await mark('C:\\data\\opened\\7\\report.pdf');
    expect(ZONE_IDENTIFIER).toBe('[ZoneTransfer]\r\nZoneId=3\r\n');
    expect(calls).toEqual([
      ['writeFile', 'C:\\data\\opened\\7\\report.pdf:Zone.Identifier', ZONE_IDENTIFIER],
    ]);
  });

  it('macOS: the com.apple.quarantine attribute, with the time and our name', async () => {
    const { calls, mark } = marking('darwin');
    await mark(file);
    const hex = Math.floor(NOW / 1000).toString(16);
    expect(calls).toEqual([
      ['execFile', 'xattr', ['-w', 'com.apple.quarantine', `0081;${hex};Worktray;`, file]],
    ]);
  });

  it('elsewhere: nothing to write', async () => {
    for (const platform of ['linux', 'freebsd'] as const) {
      const { calls, mark } = marking(platform);
      await mark(file);
      expect(calls).toEqual([]);
    }
  });

  it('a failure to mark is not swallowed (the opener then opens nothing)', async () => {
    const mark = downloadMarker({
      platform: 'darwin',
      writeFile: async () => {},
      execFile: async () => {
        throw new Error('xattr: not found');
      },
      now: () => NOW,
    });
    await expect(mark(file)).rejects.toThrow('xattr: not found');
  });
});
