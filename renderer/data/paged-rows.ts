import type { BridgeMethod } from '../../shared/bridge';
import { keepEqual } from './keep-equal';
import { withPendingPatches } from './query';
import { type Cancel, whenIdle } from './schedule';

export interface Page<T> {
  items: T[];
  total: number;
}

export type ReadPage<T> = (offset: number, limit: number) => Promise<Page<T>>;

export interface PagedRowsOptions<T> {
  read: ReadPage<T>;
  /** The bridge method the pages answer (optimistic patches are chosen by it). */
  method: BridgeMethod;
  pageSize?: number;
  /** Pages read ahead of the window in the direction of travel. */
  ahead?: number;
  /** Pages read on the other side of the window. */
  behind?: number;
  /** Pages held beyond the window and its read-ahead before they are let go. */
  keep?: number;
  /** When read-ahead runs: idle time by default, so it never competes with a frame. */
  schedule?: (run: () => void) => Cancel;
}

interface Held<T> {
  items: T[];
  /** The replica changed since this page was read: read it again when it is wanted. */
  stale: boolean;
}

/**
 * A long list read a page at a time, outside React. The pages the window shows are read at
 * once; the next ones in the direction of travel are read in idle time, so a scroll finds its
 * rows already here. A page that arrives off screen changes nothing on screen (no render); a
 * re-read equal to what is held keeps the same row objects (memoized rows skip).
 */
export class PagedRows<T> {
  readonly pageSize: number;
  readonly method: BridgeMethod;
  total: number | null = null;
  error: Error | null = null;
  private readonly read: ReadPage<T>;
  private readonly ahead: number;
  private readonly behind: number;
  private readonly keep: number;
  private readonly schedule: (run: () => void) => Cancel;
  private version = 0;
  private held = new Map<number, Held<T>>();
  /** Page → the read in flight for it; an answer to an older read is dropped. */
  private reading = new Map<number, number>();
  private seq = 0;
  /** Bumped by clear(): answers to reads sent before are dropped. */
  private generation = 0;
  private first = 0;
  private last = 0;
  private direction: 1 | -1 = 1;
  private listeners = new Set<() => void>();
  private queued: Cancel | null = null;

  constructor(options: PagedRowsOptions<T>) {
    this.read = options.read;
    this.method = options.method;
    this.pageSize = options.pageSize ?? 50;
    this.ahead = options.ahead ?? 3;
    this.behind = options.behind ?? 1;
    this.keep = options.keep ?? 4;
    this.schedule = options.schedule ?? ((run) => whenIdle(run, 120));
  }

  rowAt(index: number): T | undefined {
    return this.held.get(Math.floor(index / this.pageSize))?.items[index % this.pageSize];
  }

  /** Whether the page holding this row has been read (a row may still be absent past the end). */
  hasPage(page: number): boolean {
    return this.held.has(page);
  }

  /** Every row held, by index (for lookups such as "where is the selected task"). */
  *entries(): IterableIterator<[number, T]> {
    for (const [page, held] of this.held)
      for (let i = 0; i < held.items.length; i++) {
        const row = held.items[i];
        if (row !== undefined) yield [page * this.pageSize + i, row];
      }
  }

  readonly getVersion = (): number => this.version;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The rows on screen are `first..last`: what they need is read now, what comes next later. */
  setWindow(first: number, last: number): void {
    if (first > this.first) this.direction = 1;
    else if (first < this.first) this.direction = -1;
    this.first = Math.max(0, first);
    this.last = Math.max(this.first, last);
    const [lo, hi] = this.windowPages();
    for (let p = lo; p <= hi; p++) if (this.wants(p)) void this.load(p);
    this.queueAhead();
    this.evict();
  }

  /** The replica changed: a watched window is read again now, the rest when wanted. */
  refresh(): void {
    for (const held of this.held.values()) held.stale = true;
    if (this.listeners.size === 0) return;
    const [lo, hi] = this.windowPages();
    for (let p = lo; p <= hi; p++) if (this.wants(p)) void this.load(p);
    this.queueAhead();
  }

  /** Applies an optimistic change to the rows held; returns whether any changed. */
  patch(patch: (method: BridgeMethod, data: unknown) => unknown): boolean {
    let changed = false;
    let shown = false;
    const [lo, hi] = this.windowPages();
    for (const [page, held] of this.held) {
      const next = patch(this.method, { items: held.items, total: this.total ?? 0 }) as Page<T>;
      if (next.items === held.items) continue;
      held.items = next.items;
      changed = true;
      if (page >= lo && page <= hi) shown = true;
    }
    if (shown) this.bump();
    return changed;
  }

  /** Forgets every row (sign-out, org switch); a watched list reads its window again if asked. */
  clear(reread = true): void {
    this.generation++;
    this.held.clear();
    this.reading.clear();
    this.total = null;
    this.error = null;
    this.queued?.();
    this.queued = null;
    this.bump();
    if (reread && this.listeners.size > 0) this.setWindow(this.first, this.last);
  }

  /** Reads the window again after a failure (the "Try again" of the list). */
  retry(): void {
    this.error = null;
    const [lo, hi] = this.windowPages();
    for (let p = lo; p <= hi; p++) if (!this.reading.has(p)) void this.load(p);
  }

  private windowPages(): [number, number] {
    return [Math.floor(this.first / this.pageSize), Math.floor(this.last / this.pageSize)];
  }

  /** Page 0 always exists: an empty list must be read again to learn it is no longer empty. */
  private exists(page: number): boolean {
    return page === 0 || (this.total !== null && page > 0 && page * this.pageSize < this.total);
  }

  private wants(page: number): boolean {
    if (!this.exists(page) || this.reading.has(page)) return false;
    const held = this.held.get(page);
    return !held || held.stale;
  }

  private queueAhead(): void {
    if (this.queued) return;
    this.queued = this.schedule(() => {
      this.queued = null;
      const [lo, hi] = this.windowPages();
      const pages: number[] = [];
      for (let k = 1; k <= this.ahead; k++) pages.push(this.direction > 0 ? hi + k : lo - k);
      for (let k = 1; k <= this.behind; k++) pages.push(this.direction > 0 ? lo - k : hi + k);
      for (const p of pages) if (this.wants(p)) void this.load(p);
    });
  }

  private evict(): void {
    const [lo, hi] = this.windowPages();
    const from = lo - Math.max(this.behind, this.ahead) - this.keep;
    const to = hi + Math.max(this.behind, this.ahead) + this.keep;
    for (const page of this.held.keys()) if (page < from || page > to) this.held.delete(page);
  }

  private async load(page: number): Promise<void> {
    const seq = ++this.seq;
    const generation = this.generation;
    this.reading.set(page, seq);
    try {
      const read = await this.read(page * this.pageSize, this.pageSize);
      if (generation !== this.generation || this.reading.get(page) !== seq) return;
      // Edits still on their way may postdate the read: their patches go on top.
      const answer = withPendingPatches(this.method, read) as typeof read;
      this.reading.delete(page);
      const before = this.held.get(page);
      const items = keepEqual(before?.items, answer.items);
      const totalChanged = this.total !== answer.total;
      const hadError = this.error !== null;
      this.total = answer.total;
      this.error = null;
      this.held.set(page, { items, stale: false });
      const [lo, hi] = this.windowPages();
      const shown = page >= lo && page <= hi;
      if (totalChanged || hadError || (shown && items !== before?.items)) this.bump();
      // The first answer tells how long the list is: the window may now reach pages to read.
      if (totalChanged) this.setWindow(this.first, this.last);
    } catch (error) {
      if (generation !== this.generation || this.reading.get(page) !== seq) return;
      this.reading.delete(page);
      const [lo, hi] = this.windowPages();
      // A read nobody watched (made ahead of time) fails quietly: the list reads again on mount.
      if (page >= lo && page <= hi && this.listeners.size > 0) {
        this.error = error instanceof Error ? error : new Error(String(error));
        this.bump();
      }
    }
  }

  private bump(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
