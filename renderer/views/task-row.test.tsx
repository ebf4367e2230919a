// @vitest-environment happy-dom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LiteRow, type RowProps } from './task-row';

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
