import { EventEmitter } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { nativeNotices } from './native-notices';

/**
 * The notices as Electron's `Notification` lives them: an object with listeners that nothing
 * but our code holds. A real collection (V8's own `gc`) shows what is kept; the stand-in
 * Electron module plays the same notices in test/packaging/desktop-stand-in.test.ts.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Lets the current job end (WeakRef targets live until then), then collects. */
const collect = async () => {
  await new Promise((r) => setTimeout(r, 0));
  gc();
};

class FakeNotice extends EventEmitter {
  static supported = true;
  static isSupported() {
    return FakeNotice.supported;
  }
  /** The last notice made, held weakly, as Electron holds it. */
  static last: WeakRef<FakeNotice> | null = null;
  static shown = 0;
  constructor(readonly options: { title: string; body: string; silent: boolean }) {
    super();
    FakeNotice.last = new WeakRef(this);
  }
  show() {
    FakeNotice.shown += 1;
  }
}

/** A notice made and shown in a function whose locals are gone when it returns. */
const showOne = (show: (onClick: () => void) => void, onClick: () => void) => {
  show(onClick);
  const ref = FakeNotice.last;
  if (!ref) throw new Error('no notice made');
  return ref;
};

describe('nativeNotices', () => {
  it('a notice nothing holds is collected with its click handler (why the keeper exists)', async () => {
    const ref = showOne(
      (onClick) => {
        const n = new FakeNotice({ title: 'a', body: 'b', silent: false });
        n.on('click', onClick);
        n.show();
      },
      () => {},
    );
    await collect();
    expect(ref.deref()).toBeUndefined();
  });

  it('keeps a shown notice until it is clicked; the click reaches its handler', async () => {
    const notices = nativeNotices(FakeNotice);
    let clicks = 0;
    const ref = showOne(
      (onClick) => notices.notify('1 new mention', 'Review the shell', onClick),
      () => {
        clicks += 1;
      },
    );
    await collect();
    expect(notices.kept).toBe(1);
    ref.deref()?.emit('click', {});
    expect(clicks).toBe(1);
    expect(notices.kept).toBe(0);
    await collect();
    expect(ref.deref()).toBeUndefined();
  });

  it('lets a notice go when it is closed or has failed, saying why it failed', async () => {
    const failures: string[] = [];
    const notices = nativeNotices(FakeNotice, { onFailed: (e) => failures.push(e) });
    const closed = showOne(
      (c) => notices.notify('a', 'b', c),
      () => {},
    );
    const failed = showOne(
      (c) => notices.notify('c', 'd', c),
      () => {},
    );
    await collect();
    expect(notices.kept).toBe(2);
    closed.deref()?.emit('close', {});
    failed.deref()?.emit('failed', {}, 'toast could not be shown');
    expect(notices.kept).toBe(0);
    expect(failures).toEqual(['toast could not be shown']);
    await collect();
    expect([closed.deref(), failed.deref()]).toEqual([undefined, undefined]);
  });

  it('keeps at most `limit` notices, letting the oldest go first', async () => {
    const notices = nativeNotices(FakeNotice, { limit: 3 });
    const refs = [1, 2, 3, 4, 5].map((i) =>
      showOne(
        (c) => notices.notify(`n${i}`, '', c),
        () => {},
      ),
    );
    await collect();
    expect(notices.kept).toBe(3);
    expect(refs.map((r) => r.deref()?.options.title)).toEqual([
      undefined,
      undefined,
      'n3',
      'n4',
      'n5',
    ]);
  });

  it('shows nothing where the system has no notices', () => {
    FakeNotice.supported = false;
    try {
      const notices = nativeNotices(FakeNotice);
      const before = FakeNotice.shown;
      expect(notices.notify('a', 'b')).toBe(false);
      expect([FakeNotice.shown, notices.kept]).toEqual([before, 0]);
    } finally {
      FakeNotice.supported = true;
    }
  });
});
