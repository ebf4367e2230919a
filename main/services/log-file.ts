import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The logs folder inside the app's data folder. */
export const logsDir = (dataDir: string): string => join(dataDir, 'logs');

const SECRET_KEYS = 'access_?token|refresh_?token|id_?token|password|passwd|secret|authorization';
// A key followed by `:` or `=` (JSON, a query string, a header, an object literal), then a quoted
// or bare value. The key stays so a reader knows what was there.
const keyed = new RegExp(
  `(["']?\\b(?:${SECRET_KEYS})\\b["']?\\s*[:=]\\s*)("[^"]*"|'[^']*'|[^\\s,;&}]+)`,
  'gi',
);
const bearer = /\b(bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi;

/** Removes anything shaped like a token or a password; the rest of the line is kept. */
export const redact = (text: string): string =>
  text.replace(bearer, '$1 [redacted]').replace(keyed, '$1[redacted]');

export interface LogFileOptions {
  /** A file never grows past this; the next line starts a new one. */
  maxBytes?: number;
  /** How many files are kept, the current one included. */
  files?: number;
  now?: () => number;
}

const NAME = 'worktray';

/**
 * A size-capped, rotating log: `worktray.log`, then `worktray.1.log` … older. Writes are
 * synchronous so the last line before a crash is on disk, and never throw: a log that cannot be
 * written must not take the app down with it.
 */
export class LogFile {
  readonly path: string;
  private readonly maxBytes: number;
  private readonly files: number;
  private readonly now: () => number;
  private size: number | null = null;

  constructor(
    readonly dir: string,
    options: LogFileOptions = {},
  ) {
    this.path = join(dir, `${NAME}.log`);
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
    this.files = Math.max(1, options.files ?? 3);
    this.now = options.now ?? Date.now;
  }

  write(message: string, detail?: string): void {
    const text = redact(detail ? `${message} (${detail})` : message).replaceAll('\n', '\n  ');
    let line = `${new Date(this.now()).toISOString()} ${text}\n`;
    if (Buffer.byteLength(line) > this.maxBytes) {
      line = `${Buffer.from(line)
        .subarray(0, this.maxBytes - 2)
        .toString()}…\n`;
    }
    try {
      if (this.size === null) {
        mkdirSync(this.dir, { recursive: true });
        this.size = fileSize(this.path);
      }
      const bytes = Buffer.byteLength(line);
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      appendFileSync(this.path, line, { mode: 0o600 });
      this.size += bytes;
    } catch {
      this.size = null;
    }
  }

  private rotate(): void {
    const numbered = (n: number) => join(this.dir, `${NAME}.${n}.log`);
    if (this.files === 1) rmSync(this.path, { force: true });
    else {
      rmSync(numbered(this.files - 1), { force: true });
      for (let n = this.files - 2; n >= 1; n--) {
        renameIfThere(numbered(n), numbered(n + 1));
      }
      renameIfThere(this.path, numbered(1));
    }
    this.size = 0;
  }
}

const fileSize = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

const renameIfThere = (from: string, to: string) => {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
};

const open = new Map<string, LogFile>();

/** One LogFile per folder in a process, so every writer shares its size count and rotation. */
export const logFileIn = (dir: string, options?: LogFileOptions): LogFile => {
  let file = open.get(dir);
  if (!file) {
    file = new LogFile(dir, options);
    open.set(dir, file);
  }
  return file;
};
