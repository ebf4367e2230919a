/**
 * Bounds on a paged read, whatever the server answers. A broken or hostile service can page
 * for ever (a cursor it already gave, `last` never true, a page number it ignores); each loop
 * that pages checks every answer here before it keeps anything of it, and fails with a
 * bad-response error that says what the server did.
 */
import { badResponse } from './errors';

/** Pages of one read at most, whatever the server promises: millions of items. */
export const MAX_PAGES = 50_000;
/** Pages in a row with no item that are not the last: a server paging through nothing. */
export const MAX_EMPTY_PAGES = 100;

/** A cursor-paged read (the bulk export). */
export class CursorPaging {
  private readonly seen = new Set<string>();
  private pages = 0;
  private empty = 0;

  /** `start`: the cursor the read resumes at, if any. */
  constructor(
    private readonly operationId: string,
    start?: string | null,
  ) {
    if (start) this.seen.add(start);
  }

  /** Whether asking for `cursor` would ask for a page this read already had. */
  has(cursor: string): boolean {
    return this.seen.has(cursor);
  }

  /** A page's `nextCursor` and item count, checked before anything of the page is kept. */
  next(cursor: string | null, items: number): void {
    this.pages++;
    if (cursor === null) return;
    if (this.seen.has(cursor))
      throw badResponse(
        this.operationId,
        `the server answered a cursor it already gave (page ${this.pages}): its paging loops`,
      );
    this.empty = items === 0 ? this.empty + 1 : 0;
    if (this.empty > MAX_EMPTY_PAGES)
      throw badResponse(
        this.operationId,
        `the server answered ${this.empty} empty pages in a row that are not the last`,
      );
    if (this.pages >= MAX_PAGES)
      throw badResponse(this.operationId, `the server paged past ${MAX_PAGES} pages`);
    this.seen.add(cursor);
  }
}

/** What a Spring page says of where it is. */
export interface PageAnswer {
  content: readonly unknown[];
  totalElements: number;
  totalPages: number;
  number: number;
  last: boolean;
}

/**
 * A page-numbered read (Spring's page: comments, notifications). The first answer's totals
 * bound it: as many pages as its `totalPages`, or its `totalElements` over the items a page
 * really holds (a server may ignore the size asked), and one more for items added meanwhile.
 */
export class NumberedPaging {
  private limit = MAX_PAGES;

  constructor(private readonly operationId: string) {}

  /** Checks the answer to page `asked` (from 0 up, in turn); true when it is the last. */
  check(asked: number, p: PageAnswer): boolean {
    if (p.number !== asked)
      throw badResponse(
        this.operationId,
        `the server answered page ${p.number} when asked for page ${asked}`,
      );
    if (asked === 0) {
      const perPage = Math.max(1, p.content.length);
      const pages = Math.max(p.totalPages, Math.ceil(p.totalElements / perPage));
      this.limit = Math.min(MAX_PAGES, pages + 1);
    }
    if (p.last || p.content.length === 0) return true;
    if (asked + 1 >= this.limit)
      throw badResponse(
        this.operationId,
        `the server pages past the end it gave (${p.totalElements} items): page ${asked + 1} is not the last`,
      );
    return false;
  }
}
