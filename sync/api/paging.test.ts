import { describe, expect, it } from 'vitest';
import { isApiClientError } from './errors';
import {
  CursorPaging,
  MAX_EMPTY_PAGES,
  MAX_PAGES,
  NumberedPaging,
  type PageAnswer,
} from './paging';

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (isApiClientError(e) && e.kind === 'bad-response') return e.message;
    throw e;
  }
  throw new Error('not refused');
};

describe('CursorPaging', () => {
  it('follows new cursors to the null of the last page', () => {
    const p = new CursorPaging('bulkTasks');
    p.next('a', 10);
    p.next('b', 10);
    expect(p.has('a')).toBe(true);
    expect(() => p.next(null, 3)).not.toThrow();
  });

  it('refuses a cursor it already gave, the one resumed at included', () => {
    const p = new CursorPaging('bulkTasks', 'start');
    p.next('a', 1);
    expect(refusal(() => p.next('a', 1))).toMatch(/cursor it already gave \(page 2\)/);
    expect(refusal(() => new CursorPaging('bulkTasks', 'start').next('start', 1))).toMatch(
      /already gave/,
    );
  });

  it('refuses empty pages that never end, and pages past the cap', () => {
    const p = new CursorPaging('bulkProjects');
    for (let i = 0; i < MAX_EMPTY_PAGES; i++) p.next(`e${i}`, 0);
    expect(refusal(() => p.next('one more', 0))).toMatch(/empty pages in a row/);
    const q = new CursorPaging('bulkProjects');
    for (let i = 1; i < MAX_PAGES; i++) q.next(`c${i}`, 1);
    expect(refusal(() => q.next('last straw', 1))).toMatch(/paged past/);
  });
});

const answer = (n: number, content: number, total: number, size: number, last: boolean) =>
  ({
    content: Array.from({ length: content }, (_, i) => i),
    totalElements: total,
    totalPages: Math.ceil(total / size),
    number: n,
    last,
  }) satisfies PageAnswer;

describe('NumberedPaging', () => {
  it('ends at the last page of an honest server, one that ignores the size asked included', () => {
    const p = new NumberedPaging('getTaskComments');
    // Asked for 100 a page; the server sends 20 (and counts its pages by 20).
    for (let n = 0; n < 4; n++) expect(p.check(n, answer(n, 20, 95, 20, false))).toBe(false);
    expect(p.check(4, answer(4, 15, 95, 20, true))).toBe(true);
  });

  it('ends at an empty page', () => {
    expect(new NumberedPaging('x').check(0, answer(0, 0, 0, 20, false))).toBe(true);
  });

  it('refuses a page that never says last, one page past the total it gave', () => {
    const p = new NumberedPaging('getTaskComments');
    expect(p.check(0, answer(0, 5, 5, 100, false))).toBe(false);
    expect(refusal(() => p.check(1, answer(1, 5, 5, 100, false)))).toMatch(/pages past the end/);
  });

  it('refuses a size ignored with totals that lie: items per page bound it', () => {
    const p = new NumberedPaging('getTaskComments');
    // 3 items, 1 a page, but totalPages says 1: three pages and one more, no further.
    const lying = (n: number) => ({ ...answer(n, 1, 3, 100, false), totalPages: 1 });
    for (let n = 0; n < 3; n++) expect(p.check(n, lying(n))).toBe(false);
    expect(refusal(() => p.check(3, lying(3)))).toMatch(/pages past the end/);
  });

  it('refuses an answer for another page (a page number the server ignores)', () => {
    const p = new NumberedPaging('getNotifications');
    p.check(0, answer(0, 10, 30, 10, false));
    expect(refusal(() => p.check(1, answer(0, 10, 30, 10, false)))).toMatch(
      /answered page 0 when asked for page 1/,
    );
  });

  it('caps a total that claims millions of pages', () => {
    const p = new NumberedPaging('getTaskComments');
    p.check(0, answer(0, 1, 1e12, 1, false));
    expect(refusal(() => p.check(MAX_PAGES - 1, answer(MAX_PAGES - 1, 1, 1e12, 1, false)))).toMatch(
      /pages past the end/,
    );
  });
});
