// @vitest-environment happy-dom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { shortcutGroups, useShortcut } from './keys';

afterEach(cleanup);

function Bound({ log }: { log: string[] }) {
  useShortcut('undo', () => log.push('undo'));
  useShortcut('redo', () => log.push('redo'));
  return (
    <>
      <input aria-label="title" />
      <textarea aria-label="notes" />
      <button type="button">elsewhere</button>
    </>
  );
}

describe('undo and redo keys', () => {
  it('Ctrl+Z undoes and Ctrl+Shift+Z redoes, outside text fields only', () => {
    const log: string[] = [];
    const { getByLabelText, getByText } = render(<Bound log={log} />);
    fireEvent.keyDown(getByText('elsewhere'), { key: 'z', ctrlKey: true });
    fireEvent.keyDown(getByText('elsewhere'), { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(log).toEqual(['undo', 'redo']);
    // In a field, the field's own text undo applies.
    fireEvent.keyDown(getByLabelText('title'), { key: 'z', ctrlKey: true });
    fireEvent.keyDown(getByLabelText('notes'), { key: 'Z', ctrlKey: true, shiftKey: true });
    // A plain z is not undo.
    fireEvent.keyDown(getByText('elsewhere'), { key: 'z' });
    expect(log).toEqual(['undo', 'redo']);
  });

  it('are in the shortcuts sheet', () => {
    const general = shortcutGroups().find((g) => g.group === 'General')?.list ?? [];
    expect(general.map((s) => s.combo)).toEqual(expect.arrayContaining(['Mod+z', 'Mod+Shift+z']));
  });
});
