import { describe, expect, it } from 'vitest';
import { baseColumns, defaultColumnIds, fitColumns, gridTemplate, minWidth } from './table-columns';

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

describe('the columns a list shows unless the user picks', () => {
  it('My tasks shows where each task lives instead of its owners; other lists the other way', () => {
    const my = defaultColumnIds([], 'my');
    expect(my).toContain('path');
    expect(my).not.toContain('owners');
    for (const scope of ['project', 'personal', 'subtasks'] as const) {
      expect(defaultColumnIds([], scope)).toContain('owners');
      expect(defaultColumnIds([], scope)).not.toContain('path');
    }
  });

  it('the title and the path share the slack, four to three; the others keep their width', () => {
    const shown = fitColumns(baseColumns, ['path', 'due'], ids, 2000).shown;
    expect(gridTemplate(shown)).toBe('minmax(220px, 2fr) minmax(150px, 1.5fr) 84px');
  });
});
