import { describe, expect, it } from 'vitest';
import { type PageLocation, SECRET_KEY, takePageSecret } from './secret';

/** A page at `href` with its own history and sessionStorage (a Map, or one that throws). */
const page = (href: string, storage: Map<string, string> | null = new Map()) => {
  const replaced: string[] = [];
  const p: PageLocation = {
    location: { href },
    history: { state: { at: 1 }, replaceState: (_d, _u, url) => void replaced.push(url) },
    sessionStorage: {
      getItem: (k) => {
        if (!storage) throw new Error('storage disabled');
        return storage.get(k) ?? null;
      },
      setItem: (k, v) => {
        if (!storage) throw new Error('storage disabled');
        storage.set(k, v);
      },
    },
  };
  return { p, replaced, storage };
};

describe('the page secret', () => {
  it('moves from the URL into sessionStorage and leaves the rest of the URL as it was', () => {
    const { p, replaced, storage } = page('http://127.0.0.1:5/tasks/3?secret=a%2Bb&view=x#note');
    expect(takePageSecret(p)).toBe('a+b');
    expect(storage?.get(SECRET_KEY)).toBe('a+b');
    expect(replaced).toEqual(['/tasks/3?view=x#note']);
  });

  it('comes from sessionStorage after a reload, without touching history', () => {
    const { p, replaced } = page('http://127.0.0.1:5/', new Map([[SECRET_KEY, 'kept']]));
    expect(takePageSecret(p)).toBe('kept');
    expect(replaced).toEqual([]);
  });

  it('still leaves the URL when storage is disabled; none at all is empty', () => {
    const off = page('http://127.0.0.1:5/?secret=s', null);
    expect(takePageSecret(off.p)).toBe('s');
    expect(off.replaced).toEqual(['/']);
    expect(takePageSecret(page('http://127.0.0.1:5/', null).p)).toBe('');
    expect(takePageSecret(page('http://127.0.0.1:5/').p)).toBe('');
  });
});
