/**
 * Releasing what was set up, beside where it was set up (after VS Code's lifecycle.ts): each
 * registration goes into a store as it is made, and one `dispose` releases them all, newest
 * first, once. Pure TypeScript: the host and the page use it alike.
 */

export interface Disposable {
  dispose(): void;
}

/** An unsubscribe (what `on` and `subscribe` answer) as a Disposable that runs once. */
export const toDisposable = (release: () => void): Disposable => {
  let released = false;
  return {
    dispose() {
      if (released) return;
      released = true;
      release();
    },
  };
};

export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  /** Keeps `d` to release with the store; released at once if the store already was. */
  add<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.push(d);
    return d;
  }

  /** Keeps an unsubscribe function. */
  addRelease(release: () => void): void {
    this.add(toDisposable(release));
  }

  /**
   * Releases everything, newest first. One failing release does not keep the others: they
   * all run, then the failures are thrown together.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = this.items.reverse();
    this.items = [];
    const failures: unknown[] = [];
    for (const d of items) {
      try {
        d.dispose();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'releasing failed');
  }
}
