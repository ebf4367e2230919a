import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogFile, logsDir, redact } from './log-file';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'worktray-log-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the log file', () => {
  it('lives in the data folder and appends time-stamped lines', () => {
    const data = tempDir();
    const file = new LogFile(logsDir(data), { now: () => Date.UTC(2026, 10, 26, 7, 0, 0) });
    file.write('started', 'port 4000');
    file.write('stopped');
    expect(file.path).toBe(join(data, 'logs', 'worktray.log'));
    expect(readFileSync(file.path, 'utf8')).toBe(
      '2026-11-26T07:00:00.000Z started (port 4000)\n2026-11-26T07:00:00.000Z stopped\n',
    );
  });

  it('rotates past its size cap and keeps a fixed number of files', () => {
    const dir = tempDir();
    const file = new LogFile(dir, { maxBytes: 200, files: 3, now: () => 0 });
    for (let i = 0; i < 40; i++) file.write(`line ${String(i).padStart(2, '0')} ${'x'.repeat(20)}`);
    expect(readdirSync(dir).sort()).toEqual(['worktray.1.log', 'worktray.2.log', 'worktray.log']);
    for (const name of readdirSync(dir)) {
      expect(readFileSync(join(dir, name)).length).toBeLessThanOrEqual(200);
    }
    // The newest lines are in the current file, the ones before in .1, then .2; older are gone.
    const current = readFileSync(join(dir, 'worktray.log'), 'utf8');
    const previous = readFileSync(join(dir, 'worktray.1.log'), 'utf8');
    expect(current).toContain('line 39');
    expect(previous).not.toContain('line 39');
    const all = readdirSync(dir)
      .map((n) => readFileSync(join(dir, n), 'utf8'))
      .join('');
    expect(all).not.toContain('line 00');
  });

  it('a new LogFile continues the size of the file it finds', () => {
    const dir = tempDir();
    new LogFile(dir, { maxBytes: 100, now: () => 0 }).write('a'.repeat(60));
    new LogFile(dir, { maxBytes: 100, now: () => 0 }).write('b'.repeat(60));
    expect(readdirSync(dir).sort()).toEqual(['worktray.1.log', 'worktray.log']);
  });

  it('never writes a token or a password', () => {
    const dir = tempDir();
    const file = new LogFile(dir, { now: () => 0 });
    file.write('request failed', 'Authorization: Bearer eyJhbGciOi.abc-def_123');
    file.write('refresh', '{"accessToken":"at-1","refreshToken": "rt-2","expiresIn":60}');
    file.write('sign-in', "password=hunter2&email=a@b.c; {password: 'pw 3'}");
    file.write('url', '/bridge/attachments/7?secret=s3cr3t');
    const text = readFileSync(file.path, 'utf8');
    for (const secret of ['eyJhbGciOi', 'at-1', 'rt-2', 'hunter2', 'pw 3', 's3cr3t']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('email=a@b.c');
    expect(text).toContain('"expiresIn":60');
  });

  it('redact leaves ordinary text alone', () => {
    expect(redact('pulled 3 tasks (token bucket full)')).toBe('pulled 3 tasks (token bucket full)');
    expect(redact('bearer abc.def')).toBe('bearer [redacted]');
  });

  it('a folder it cannot write does not throw', () => {
    const dir = tempDir();
    const file = new LogFile(join(dir, 'worktray.log', 'nested'), { now: () => 0 });
    new LogFile(dir, { now: () => 0 }).write('makes worktray.log a file');
    expect(() => file.write('lost')).not.toThrow();
  });
});
