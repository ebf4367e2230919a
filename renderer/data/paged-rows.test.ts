import { describe, expect, it } from 'vitest';
import { type Page, PagedRows } from './paged-rows';

interface Item {
  id: number;
  title: string;
}

/** A list held in memory, answering reads like the host does, with the reads it saw. */
function source(n: number) {
  let items: Item[] = Array.from({ length: n }, (_, i) => ({ id: i, title: `task ${i}` }));
  const reads: number[] = [];
  let failing = false;
  const waiting: (() => void)[] = [];
  let hold = false;
  return {
    reads,
    set items(next: Item[]) {
      items = next;
    },
    get items() {
      return items;
    },
    fail(on: boolean) {
      failing = on;
    },
    /** Answers wait until `release()`, which lets the newest go first (old answers land last). */
    hold(on: boolean) {
      hold = on;
    },
    release() {
      for (const w of waiting.splice(0).reverse()) w();
    },
    read: async (offset: number, limit: number): Promise<Page<Item>> => {
      reads.push(offset / limit);
      // The answer is what the list held when asked, however late it arrives.
      const failed = failing;
      // Copies, as the bridge gives: equal rows are never the same objects.
      const answer = {
        items: items.slice(offset, offset + limit).map((x) => ({ ...x })),
        total: items.length,
      };
      if (hold) await new Promise<void>((r) => waiting.push(r));
      if (failed) throw new Error('host gone');
      return answer;
    },
  };
}

/** Read-ahead runs when the test says (idle time in the app). */
function manualSchedule() {
  const queue: (() => void)[] = [];
  return {
    schedule: (run: () => void) => {
      queue.push(run);
      return () => {
        const i = queue.indexOf(run);
        if (i >= 0) queue.splice(i, 1);
      };
    },
    flush: () => {
      for (const run of queue.splice(0)) run();
    },
    get size() {
      return queue.length;
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

const setup = (n = 1000, opts: { ahead?: number; behind?: number } = {}) => {
  const src = source(n);
  const idle = manualSchedule();
  const rows = new PagedRows<Item>({
    method: 'tasks.list',
    read: src.read,
    pageSize: 50,
    schedule: idle.schedule,
    ...opts,
  });
  let renders = 0;
  rows.subscribe(() => renders++);
  return { src, idle, rows, renders: () => renders };
};

describe('PagedRows', () => {
  it('reads the window at once and the pages after it only in idle time', async () => {
    const { src, idle, rows } = setup(1000, { ahead: 3, behind: 1 });
    rows.setWindow(0, 30);
    expect(src.reads).toEqual([0]);
    await settle();
    expect(rows.total).toBe(1000);
    expect(rows.rowAt(30)?.title).toBe('task 30');
    expect(src.reads).toEqual([0]);
    idle.flush();
    await settle();
    // Ahead in the direction of travel (down); nothing behind page 0.
    expect(src.reads).toEqual([0, 1, 2, 3]);
    expect(rows.rowAt(199)?.title).toBe('task 199');

    // Scrolling up from the middle reads ahead upwards.
    rows.setWindow(600, 630);
    rows.setWindow(500, 530);
    await settle();
    src.reads.length = 0;
    idle.flush();
    await settle();
    expect(src.reads).toEqual([9, 8, 7, 11]);
  });

  it('renders for a page on screen, not for one read ahead', async () => {
    const { idle, rows, renders } = setup();
    rows.setWindow(0, 30);
    await settle();
    const afterFirst = renders();
    expect(afterFirst).toBeGreaterThan(0);
    idle.flush();
    await settle();
    expect(renders()).toBe(afterFirst);
    // The window moves onto a page already read: its rows are there, nothing to wait for.
    rows.setWindow(120, 150);
    expect(rows.rowAt(120)?.title).toBe('task 120');
  });

  it('keeps the same row objects when a re-read finds nothing new, and renders for a change', async () => {
    const { src, rows, renders } = setup();
    rows.setWindow(0, 30);
    await settle();
    const row5 = rows.rowAt(5);
    const before = renders();
    rows.refresh();
    await settle();
    expect(rows.rowAt(5)).toBe(row5);
    expect(renders()).toBe(before);

    src.items = src.items.map((x) => (x.id === 7 ? { ...x, title: 'renamed' } : x));
    rows.refresh();
    await settle();
    expect(rows.rowAt(7)?.title).toBe('renamed');
    expect(rows.rowAt(5)).toBe(row5);
    expect(renders()).toBe(before + 1);
  });

  it('reads an empty list again when the replica changes (it may not be empty now)', async () => {
    const { src, rows } = setup(0);
    rows.setWindow(0, 30);
    await settle();
    expect(rows.total).toBe(0);
    src.items = [{ id: 1, title: 'arrived' }];
    rows.refresh();
    await settle();
    expect(rows.total).toBe(1);
    expect(rows.rowAt(0)?.title).toBe('arrived');
  });

  it('re-reads pages off screen only when they come back into view', async () => {
    const { src, idle, rows } = setup(1000, { ahead: 1, behind: 0 });
    rows.setWindow(0, 30);
    await settle();
    idle.flush();
    await settle();
    rows.setWindow(300, 330);
    await settle();
    src.reads.length = 0;
    rows.refresh();
    await settle();
    expect(src.reads).toEqual([6]);
    idle.flush();
    await settle();
    expect(src.reads).toEqual([6, 7]);
  });

  it('drops answers to reads made before a clear', async () => {
    const { src, rows } = setup();
    src.hold(true);
    rows.setWindow(0, 30);
    src.items = [{ id: 99, title: 'after the switch' }];
    // The clear reads the window again (it is watched); both answers wait, the old one lands last.
    rows.clear();
    expect(src.reads).toEqual([0, 0]);
    src.release();
    await settle();
    await settle();
    expect(rows.rowAt(0)?.title).toBe('after the switch');
    expect(rows.total).toBe(1);
  });

  it('shows a failed read of the window, and reads again on retry', async () => {
    const { src, rows } = setup();
    src.fail(true);
    rows.setWindow(0, 30);
    await settle();
    // A failure nobody watched would stay quiet; this list is watched (subscribed).
    expect(rows.error?.message).toBe('host gone');
    rows.clear();
    await settle();
    expect(rows.error?.message).toBe('host gone');
    src.fail(false);
    rows.retry();
    await settle();
    expect(rows.error).toBeNull();
    expect(rows.rowAt(0)?.title).toBe('task 0');
  });

  it('applies an optimistic patch to the rows held and renders when one is on screen', async () => {
    const { rows, renders } = setup();
    rows.setWindow(0, 30);
    await settle();
    const before = renders();
    const row6 = rows.rowAt(6);
    const changed = rows.patch((method, data) => {
      expect(method).toBe('tasks.list');
      const page = data as Page<Item>;
      return { ...page, items: page.items.map((x) => (x.id === 3 ? { ...x, title: 'now' } : x)) };
    });
    expect(changed).toBe(true);
    expect(rows.rowAt(3)?.title).toBe('now');
    expect(rows.rowAt(6)).toBe(row6);
    expect(renders()).toBe(before + 1);
  });

  it('lets pages far from the window go', async () => {
    const { idle, rows } = setup(5000, { ahead: 1, behind: 1 });
    rows.setWindow(0, 30);
    await settle();
    idle.flush();
    await settle();
    expect(rows.hasPage(1)).toBe(true);
    rows.setWindow(3000, 3030);
    await settle();
    expect(rows.hasPage(0)).toBe(false);
    expect(rows.hasPage(60)).toBe(true);
  });
});
