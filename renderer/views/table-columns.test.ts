import { describe, expect, it } from 'vitest';
import { baseColumns, fitColumns, minWidth } from './table-columns';

const ids = baseColumns.map((c) => c.id);

describe('fitColumns', () => {
  it('drops default columns from the end until the rest fit, keeping title and status', () => {
    const wide = fitColumns(baseColumns, null, ids, 2000);
    expect(wide.shown.map((c) => c.id)).toEqual(ids);
    const narrow = fitColumns(baseColumns, null, ids, minWidth(baseColumns.slice(0, 4)));
    expect(narrow.shown.map((c) => c.id)).toEqual(['title', 'status', 'priority', 'due']);
    expect(narrow.hidden).toBe(ids.length - 4);
    expect(fitColumns(baseColumns, null, ids, 100).shown.map((c) => c.id)).toEqual([
      'title',
      'status',
    ]);
  });

  it('shows every picked column, title first, however narrow (the pane scrolls)', () => {
    const picked = fitColumns(baseColumns, ['tags', 'status', 'nope'], ids, 100);
    expect(picked.shown.map((c) => c.id)).toEqual(['title', 'tags', 'status']);
    expect(picked.hidden).toBe(0);
  });
});
