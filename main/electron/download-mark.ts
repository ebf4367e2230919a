/**
 * Marks a copy of an attachment as come from the internet, as a browser marks its downloads:
 * Windows (SmartScreen, Office's Protected View) and macOS (Gatekeeper) then treat it with the
 * care a file from a stranger needs. Elsewhere there is no such mark.
 */

/** What marking needs from the system: injected, so tests see each platform's calls. */
export interface DownloadMarkDeps {
  platform: NodeJS.Platform;
  /** `fs.promises.writeFile`: on Windows, `<file>:Zone.Identifier` is the file's NTFS stream. */
  writeFile(path: string, data: string): Promise<void>;
  /** Runs a program with arguments (no shell) and resolves when it exited with 0. */
  execFile(file: string, args: readonly string[]): Promise<void>;
  /** Epoch ms. */
  now(): number;
}

/** Zone 3 is the Internet zone: the Mark-of-the-Web a browser writes. */
export const ZONE_IDENTIFIER = '[ZoneTransfer]\r\nZoneId=3\r\n';

/**
 * The quarantine value: flags 0081 (quarantined, downloaded by an app), the time in hex
 * seconds, the agent's name, no event id.
 */
export const quarantineValue = (nowMs: number): string =>
  `0081;${Math.floor(nowMs / 1000).toString(16)};Worktray;`;

/** Marks `file` as downloaded where the platform knows how; rejects when that failed. */
export const downloadMarker =
  (deps: DownloadMarkDeps) =>
  async (file: string): Promise<void> => {
    if (deps.platform === 'win32') {
      await deps.writeFile(`${file}:Zone.Identifier`, ZONE_IDENTIFIER);
    } else if (deps.platform === 'darwin') {
      await deps.execFile('xattr', [
        '-w',
        'com.apple.quarantine',
        quarantineValue(deps.now()),
        file,
      ]);
    }
  };
