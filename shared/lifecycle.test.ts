import { describe, expect, it } from 'vitest';
import { DisposableStore, toDisposable } from './lifecycle';

describe('DisposableStore', () => {
  it('releases everything newest first, once', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.addRelease(() => order.push('listener'));
    store.add(toDisposable(() => order.push('tray')));
    store.add({ dispose: () => order.push('updates') });
    store.dispose();
    store.dispose();
    expect(order).toEqual(['updates', 'tray', 'listener']);
  });

  it('releases what is added after it was disposed at once', () => {
    const store = new DisposableStore();
    store.dispose();
    let released = 0;
    store.addRelease(() => released++);
    expect(released).toBe(1);
  });

  it('runs every release although one fails, then throws the failure', () => {
    const store = new DisposableStore();
    const ran: number[] = [];
    store.addRelease(() => ran.push(1));
    store.addRelease(() => {
      throw new Error('boom');
    });
    store.addRelease(() => ran.push(3));
    expect(() => store.dispose()).toThrow('boom');
    expect(ran).toEqual([3, 1]);
  });

  it('throws all failures together when several fail', () => {
    const store = new DisposableStore();
    store.addRelease(() => {
      throw new Error('a');
    });
    store.addRelease(() => {
      throw new Error('b');
    });
    expect(() => store.dispose()).toThrow(AggregateError);
  });
});

describe('toDisposable', () => {
  it('runs its release once', () => {
    let n = 0;
    const d = toDisposable(() => n++);
    d.dispose();
    d.dispose();
    expect(n).toBe(1);
  });
});
