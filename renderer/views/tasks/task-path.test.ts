import { describe, expect, it } from 'vitest';
import { pathParts, pathText } from './task-path';

describe('pathParts', () => {
  it('leads from the space to its overview, the project to its list, the parent to its detail', () => {
    const parts = pathParts({
      space: { spaceId: 10, name: 'Product' },
      project: { projectId: 100, name: 'Alpha' },
      parent: { taskId: 1, title: 'Write spec' },
    });
    expect(parts.map((p) => p.to)).toEqual([
      { route: { view: 'space', spaceId: 10 } },
      { route: { view: 'project', projectId: 100, mode: 'list' } },
      { taskId: 1 },
    ]);
    expect(pathText(parts)).toBe('Product › Alpha › Write spec');
  });

  it('a task in no project is one of the personal tasks', () => {
    const parts = pathParts({
      space: null,
      project: null,
      parent: { taskId: 9, title: 'Buy milk' },
    });
    expect(parts.map((p) => [p.label, p.to])).toEqual([
      ['Personal', { route: { view: 'personal' } }],
      ['Buy milk', { taskId: 9 }],
    ]);
  });
});
