import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, createAppProtocolHandler, resolveAppPath } from './app-protocol';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'app-protocol-'));
  root = path.join(base, 'dist');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Worktray</title>');
  writeFileSync(path.join(root, 'assets', 'main.js'), 'console.log(1)');
  writeFileSync(path.join(root, 'assets', 'a b.css'), 'body{}');
  writeFileSync(path.join(base, 'secret.txt'), 'TOP-SECRET');
  writeFileSync(path.join(base, 'dist-sibling.js'), 'outside');
  symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'assets', 'link.txt'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveAppPath', () => {
  it('maps bundle files and sends routes without an extension to index.html', () => {
    expect(resolveAppPath(root, 'app://worktray/assets/main.js')).toEqual({
      kind: 'file',
      path: path.join(root, 'assets', 'main.js'),
    });
    for (const url of ['app://worktray/', 'app://worktray/tasks/12', APP_ENTRY_URL])
      expect(resolveAppPath(root, url)).toEqual({
        kind: 'file',
        path: path.join(root, 'index.html'),
      });
    expect(resolveAppPath(root, 'app://worktray/assets/a%20b.css')).toMatchObject({
      path: path.join(root, 'assets', 'a b.css'),
    });
  });

  it('never leaves the bundle, however the path is spelled', () => {
    for (const url of [
      'app://worktray/../secret.txt',
      'app://worktray/%2e%2e/secret.txt',
      'app://worktray/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://worktray/..%2fdist-sibling.js',
      'app://worktray/%2e%2e%5csecret.txt',
      'app://worktray/assets/main.js%00.png',
      'app://worktray/%E0%A4%A',
    ]) {
      const r = resolveAppPath(root, url);
      if (r.kind === 'file') expect(r.path.startsWith(root + path.sep), url).toBe(true);
      else expect(r.kind, url).toBe('forbidden');
    }
    // The URL parser already resolves dot segments (encoded or not) at the root…
    expect(resolveAppPath(root, 'app://worktray/%2e%2e/secret.txt')).toEqual({
      kind: 'file',
      path: path.join(root, 'secret.txt'),
    });
    // …but an encoded separator hides one from it: the decoded path is checked again.
    expect(resolveAppPath(root, 'app://worktray/..%2fdist-sibling.js').kind).toBe('forbidden');
  });

  it('serves only its own origin and known file types', () => {
    expect(resolveAppPath(root, 'app://other/index.html').kind).toBe('forbidden');
    expect(resolveAppPath(root, 'file:///etc/passwd').kind).toBe('forbidden');
    expect(resolveAppPath(root, 'app://worktray/server.exe').kind).toBe('not-found');
  });
});

describe('createAppProtocolHandler', () => {
  const get = (url: string, method = 'GET') =>
    createAppProtocolHandler(root)(new Request(url, { method }));

  it('answers files with their type, the CSP and nosniff', async () => {
    const res = await get('app://worktray/assets/main.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('console.log(1)');
    const page = await get('app://worktray/projects/3');
    expect(await page.text()).toContain('<title>Worktray</title>');
  });

  it('refuses traversal, symlinks out of the bundle, missing files and other methods', async () => {
    const climbed = await get('app://worktray/%2e%2e/secret.txt');
    expect(climbed.status).toBe(404);
    expect(await climbed.text()).not.toContain('TOP-SECRET');
    expect((await get('app://worktray/..%2fdist-sibling.js')).status).toBe(403);
    const link = await get('app://worktray/assets/link.txt');
    expect(link.status).toBe(403);
    expect(await link.text()).not.toContain('TOP-SECRET');
    expect((await get('app://worktray/assets/none.js')).status).toBe(404);
    expect((await get('app://worktray/index.html', 'POST')).status).toBe(405);
  });

  it('says how to build the UI when the bundle is missing', async () => {
    const res = await createAppProtocolHandler(path.join(base, 'no-dist'))(
      new Request('app://worktray/index.html'),
    );
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/The UI is not built/);
  });
});
