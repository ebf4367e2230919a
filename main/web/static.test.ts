import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStaticPath } from './static';

describe('resolveStaticPath', () => {
  const root = resolve('/srv/ui');

  it('maps URL paths to files inside the root', () => {
    expect(resolveStaticPath(root, '/index.html')).toBe(join(root, 'index.html'));
    expect(resolveStaticPath(root, '/assets/a%20b.js')).toBe(join(root, 'assets', 'a b.js'));
    expect(resolveStaticPath(root, '/assets/../index.html')).toBe(join(root, 'index.html'));
  });

  it('refuses paths that leave the root, however they are spelled', () => {
    for (const p of [
      '/../etc/passwd',
      '/..%2f..%2fetc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/../../ui-other/x.js',
      '/..',
      '/a\\..\\..\\b',
      '/%5c..%5c..%5cwin.ini',
      '/index.html%00.js',
      '/%E0%A4%A',
    ])
      expect(resolveStaticPath(root, p), p).toBeNull();
  });

  it('does not treat a sibling folder sharing the prefix as inside', () => {
    expect(resolveStaticPath(root, '/../ui2/index.html')).toBeNull();
  });
});
