// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChecklistRow } from '../../../shared/bridge';
import { type EditCommand, editCommand } from '../../../shared/edits/commands';
import { Checklist } from './checklist';

afterEach(cleanup);

const items: ChecklistRow[] = [
  {
    checklistId: 11,
    taskId: 5,
    name: 'Second',
    completed: false,
    assigneeId: 7,
    position: 1,
    sync: 'synced',
  },
  {
    checklistId: 10,
    taskId: 5,
    name: 'First',
    completed: true,
    assigneeId: null,
    position: 0,
    sync: 'pending',
  },
];
const users = [
  { userId: 7, firstName: 'Ada', lastName: 'Lovelace' },
  { userId: 8, firstName: 'Alan', lastName: 'Turing' },
];

const setup = () => {
  const sent: EditCommand[] = [];
  const onEdit = (cmd: EditCommand) => {
    // Every command the checklist makes is one the bridge accepts.
    sent.push(editCommand.parse(cmd));
  };
  render(<Checklist taskId={5} items={items} users={users} onEdit={onEdit} />);
  return { sent, user: userEvent.setup() };
};

describe('Checklist', () => {
  it('lists items in position order with the done count', () => {
    setup();
    const names = screen
      .getAllByRole('textbox', { name: /^Name of/ })
      .map((i) => (i as HTMLInputElement).value);
    expect(names).toEqual(['First', 'Second']);
    expect(screen.getByText('1/2')).toBeTruthy();
  });

  it('toggles with a patch of `completed` alone, so the assignee is kept', async () => {
    const { sent, user } = setup();
    await user.click(screen.getByRole('checkbox', { name: 'Done: Second' }));
    expect(sent).toEqual([
      { kind: 'checklist.update', checklistId: 11, patch: { completed: true } },
    ]);
    expect(sent[0]?.kind === 'checklist.update' && 'assigneeId' in sent[0].patch).toBe(false);
  });

  it('adds, renames, assigns, unassigns and deletes', async () => {
    const { sent, user } = setup();
    await user.type(screen.getByRole('textbox', { name: 'New checklist item' }), 'Third{Enter}');
    const rename = screen.getByRole('textbox', { name: 'Name of First' });
    await user.clear(rename);
    await user.type(rename, 'First, renamed{Enter}');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee of First' }), '8');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee of Second' }), '');
    await user.click(screen.getByRole('button', { name: 'Delete Second' }));
    expect(sent).toEqual([
      { kind: 'checklist.create', taskId: 5, name: 'Third' },
      { kind: 'checklist.update', checklistId: 10, patch: { name: 'First, renamed' } },
      { kind: 'checklist.update', checklistId: 10, patch: { assigneeId: 8 } },
      { kind: 'checklist.update', checklistId: 11, patch: { assigneeId: null } },
      { kind: 'checklist.delete', checklistId: 11 },
    ]);
  });

  it('sends nothing for a blank new item or an unchanged name, and Escape undoes a rename', async () => {
    const { sent, user } = setup();
    await user.type(screen.getByRole('textbox', { name: 'New checklist item' }), '   {Enter}');
    const rename = screen.getByRole('textbox', { name: 'Name of Second' });
    await user.click(rename);
    await user.tab();
    await user.type(rename, ' more{Escape}');
    expect((rename as HTMLInputElement).value).toBe('Second');
    expect(sent).toEqual([]);
  });

  it('marks an unsynced item', () => {
    setup();
    expect(screen.getByRole('img', { name: 'Not yet synced' })).toBeTruthy();
  });
});
