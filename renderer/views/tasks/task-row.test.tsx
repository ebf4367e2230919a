// @vitest-environment happy-dom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LiteRow, Row, type RowProps } from './task-row';

afterEach(cleanup);

const task = {
  taskId: 7,
  taskTitle: 'Made offline',
  status: 'To Do',
  sync: 'synced',
} as RowProps['task'];

describe('LiteRow (the row drawn while the list scrolls fast)', () => {
  it('selects on a click and opens on a double click, like the full row', () => {
    const selected: number[] = [];
    const opened: number[] = [];
    const { container } = render(
      <LiteRow
        task={task}
        index={0}
        template="1fr 1fr"
        selected={false}
        onSelect={(id) => selected.push(id)}
        onOpen={(id) => opened.push(id)}
      />,
    );
    const row = container.querySelector('[role="row"]') as HTMLElement;
    fireEvent.click(row);
    fireEvent.doubleClick(row);
    expect(selected).toEqual([7]);
    expect(opened).toEqual([7]);
  });
});

describe('LiteRow: a press just as the scroll stops', () => {
  it('selects on the press: the full row that replaces it before the release gets no click', () => {
    const selected: number[] = [];
    const common = {
      task,
      index: 0,
      template: '1fr 1fr',
      selected: false,
      onSelect: (id: number) => selected.push(id),
      onOpen: () => undefined,
    };
    const view = render(<LiteRow {...common} />);
    fireEvent.pointerDown(view.container.querySelector('[role="row"]') as HTMLElement, {
      button: 0,
    });
    // The scroll stops before the release: the full row takes its place, and the browser
    // sends the click to no row (its press and release met different elements).
    view.rerender(<Row {...common} columns={['title']} customFields={[]} />);
    expect(selected).toEqual([7]);
  });
});

describe('Row: the path column', () => {
  const row = (path: unknown) =>
    render(
      <Row
        task={{ ...task, path } as RowProps['task']}
        index={0}
        template="1fr 1fr"
        columns={['title', 'path']}
        customFields={[]}
        selected={false}
        onSelect={() => undefined}
        onOpen={() => undefined}
      />,
    ).container.querySelector('.tt-path') as HTMLElement;

  it('says Space › Project › parent task, the whole path on hover', () => {
    const cell = row({
      space: { spaceId: 10, name: 'Product' },
      project: { projectId: 100, name: 'Alpha' },
      parent: { taskId: 1, title: 'Write spec' },
    });
    expect(cell.getAttribute('title')).toBe('Product › Alpha › Write spec');
    const parts = [...cell.querySelectorAll('.tt-path-part')].map((p) => p.lastChild?.textContent);
    expect(parts).toEqual(['Product', 'Alpha', 'Write spec']);
  });

  it('a task in no project is a personal one', () => {
    expect(row({ space: null, project: null, parent: null }).getAttribute('title')).toBe(
      'Personal',
    );
    expect(
      row({ space: null, project: null, parent: { taskId: 9, title: 'Buy milk' } }).getAttribute(
        'title',
      ),
    ).toBe('Personal › Buy milk');
  });
});
