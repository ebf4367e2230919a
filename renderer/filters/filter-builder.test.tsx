// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CustomField } from '../../shared/api/custom-fields';
import { taskFilter } from '../../shared/bridge';
import { FilterBuilder } from './filter-builder';
import { activeFilterCount, cleanFilter, type FilterValue } from './filter-model';

afterEach(cleanup);

const fields: CustomField[] = [
  { taskCustomFieldId: 1, fieldName: 'Launch', fieldType: 'DATE' },
  { taskCustomFieldId: 2, fieldName: 'Client', fieldType: 'TEXT' },
  { taskCustomFieldId: 3, fieldName: 'Estimate', fieldType: 'NUMBER' },
];

/** Holds the filter like the task list does, and exposes the last value to the test. */
function Harness({ seen, initial = {} }: { seen: { value: FilterValue }; initial?: FilterValue }) {
  const [value, setValue] = useState<FilterValue>(initial);
  seen.value = value;
  return (
    <FilterBuilder
      value={value}
      onChange={setValue}
      statuses={['Open', 'In progress', 'Done']}
      priorities={['High', 'Low']}
      tags={['ops']}
      users={[{ userId: 7, firstName: 'Ada', lastName: 'Lovelace' }]}
      customFields={fields}
    />
  );
}

describe('FilterBuilder', () => {
  it('builds status, owner, flag and title filters the bridge accepts', async () => {
    const user = userEvent.setup();
    const seen = { value: {} as FilterValue };
    render(<Harness seen={seen} />);
    await user.click(screen.getByRole('checkbox', { name: 'In progress' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Owners' })).getByRole('checkbox', {
        name: 'Ada Lovelace',
      }),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Overdue' }), 'yes');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Has a due date' }), 'no');
    await user.type(screen.getByRole('textbox', { name: 'Title contains' }), 'report');
    const clean = cleanFilter(seen.value);
    expect(clean).toEqual({
      status: ['In progress'],
      owners: [7],
      overdue: true,
      dueDateSet: false,
      title: 'report',
    });
    expect(taskFilter.parse(clean)).toEqual(clean);
    await user.click(screen.getByRole('checkbox', { name: 'In progress' }));
    expect(cleanFilter(seen.value).status).toBeUndefined();
  });

  it('builds a day rule on a date field and keeps incomplete rows out of the query', async () => {
    const user = userEvent.setup();
    const seen = { value: {} as FilterValue };
    render(<Harness seen={seen} />);
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    // The first field is a DATE field: it offers day rules, no text conditions.
    const when = screen.getByRole('combobox', { name: 'Condition 1: when' });
    const offered = Array.from((when as HTMLSelectElement).options).map((o) => o.text);
    expect(offered).toEqual(expect.arrayContaining(['This week', 'Between', 'No date']));
    expect(offered.join(' ')).not.toMatch(/UTC|contains/i);
    expect(cleanFilter(seen.value).dates).toEqual([{ field: 'Launch', op: 'thisWeek' }]);
    await user.selectOptions(when, 'between');
    expect(cleanFilter(seen.value).dates).toBeUndefined();
    fireEvent.change(screen.getByLabelText('Condition 1: from'), {
      target: { value: '2026-03-01' },
    });
    expect(cleanFilter(seen.value).dates).toBeUndefined();
    fireEvent.change(screen.getByLabelText('Condition 1: to'), {
      target: { value: '2026-03-31' },
    });
    const clean = cleanFilter(seen.value);
    expect(clean.dates).toEqual([
      { field: 'Launch', op: 'between', from: '2026-03-01', to: '2026-03-31' },
    ]);
    expect(clean.timeZone).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(taskFilter.parse(clean).dates).toEqual(clean.dates);
  });

  it('due date this week and a number field above a value, in plain words', async () => {
    const user = userEvent.setup();
    const seen = { value: {} as FilterValue };
    render(<Harness seen={seen} />);
    expect(screen.queryByText(/UTC/)).toBeNull();
    const due = screen.getByRole('group', { name: 'Due date' });
    await user.selectOptions(within(due).getByRole('combobox', { name: 'Due date: when' }), [
      'thisWeek',
    ]);
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Condition 1: field' }),
      'Estimate',
    );
    const comparison = screen.getByRole('combobox', { name: 'Condition 1: comparison' });
    expect(Array.from((comparison as HTMLSelectElement).options).map((o) => o.value)).toEqual([
      'eq',
      'ne',
      'lt',
      'le',
      'gt',
      'ge',
      'between',
      'empty',
    ]);
    await user.type(screen.getByRole('spinbutton', { name: 'Condition 1: value' }), '2.5');
    const done = screen.getByRole('group', { name: 'Done %' });
    await user.selectOptions(within(done).getByRole('combobox'), 'empty');
    const clean = cleanFilter(seen.value);
    expect(clean).toMatchObject({
      dates: [{ column: 'dueDate', op: 'thisWeek' }],
      numbers: [
        { field: 'Estimate', op: 'gt', value: 2.5 },
        { column: 'completion', op: 'empty' },
      ],
    });
    expect(taskFilter.safeParse(clean).success).toBe(true);
    expect(activeFilterCount(seen.value)).toBe(3);
    await user.selectOptions(within(due).getByRole('combobox'), '');
    expect(cleanFilter(seen.value).dates).toBeUndefined();
  });

  it('shows a day saved before rules, and replaces it once changed', async () => {
    const user = userEvent.setup();
    const seen = { value: {} as FilterValue };
    render(<Harness seen={seen} initial={{ dueDate: Date.UTC(2026, 10, 27) }} />);
    const due = screen.getByRole('group', { name: 'Due date' });
    expect(within(due).getByRole('combobox')).toHaveProperty('value', 'on');
    expect(within(due).getByLabelText('Due date: day')).toHaveProperty('value', '2026-11-27');
    expect(cleanFilter(seen.value)).toEqual({ dueDate: Date.UTC(2026, 10, 27) });
    await user.selectOptions(within(due).getByRole('combobox'), 'today');
    expect(seen.value.dueDate).toBeUndefined();
    expect(cleanFilter(seen.value).dates).toEqual([{ column: 'dueDate', op: 'today' }]);
  });

  it('shows a date condition saved before day rules as it was saved', () => {
    const saved = {
      customFields: [{ field: 'Launch', condition: 'BEFORE', value: [Date.UTC(2026, 2, 1)] }],
    };
    const seen = { value: {} as FilterValue };
    render(<Harness seen={seen} initial={saved} />);
    expect(screen.getByRole('combobox', { name: 'Condition 1: condition' })).toHaveProperty(
      'value',
      'BEFORE',
    );
    expect(screen.getByLabelText('Condition 1: value')).toHaveProperty('value', '2026-03-01');
    expect(cleanFilter(seen.value)).toEqual(saved);
  });

  it('switches a condition to a text field with text conditions and removes it', async () => {
    const user = userEvent.setup();
    const seen = { value: {} as FilterValue };
    render(<Harness seen={seen} />);
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Condition 1: field' }),
      'Client',
    );
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Condition 1: condition' }),
      'CONTAINS',
    );
    await user.type(screen.getByRole('textbox', { name: 'Condition 1: value' }), 'Acme');
    expect(cleanFilter(seen.value).customFields).toEqual([
      { field: 'Client', condition: 'CONTAINS', value: ['Acme'] },
    ]);
    await user.click(screen.getByRole('button', { name: 'Remove condition 1' }));
    expect(seen.value.customFields).toEqual([]);
    expect(cleanFilter(seen.value)).toEqual({});
  });
});
