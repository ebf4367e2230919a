// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CustomField } from '../../shared/api/custom-fields';
import { taskFilter } from '../../shared/bridge';
import { FilterBuilder } from './filter-builder';
import { cleanFilter, type FilterValue } from './filter-model';

afterEach(cleanup);

const fields: CustomField[] = [
  { taskCustomFieldId: 1, fieldName: 'Launch', fieldType: 'DATE' },
  { taskCustomFieldId: 2, fieldName: 'Client', fieldType: 'TEXT' },
];

/** Holds the filter like the task list does, and exposes the last value to the test. */
function Harness({ seen }: { seen: { value: FilterValue } }) {
  const [value, setValue] = useState<FilterValue>({});
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

  it('builds a DATE range condition and keeps incomplete rows out of the query', async () => {
    const user = userEvent.setup();
    const seen = { value: {} as FilterValue };
    render(<Harness seen={seen} />);
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    // The first field is a DATE field: it offers date conditions only.
    const condition = screen.getByRole('combobox', { name: 'Condition 1: condition' });
    expect(Array.from((condition as HTMLSelectElement).options).map((o) => o.value)).toContain(
      'BETWEEN',
    );
    expect(Array.from((condition as HTMLSelectElement).options).map((o) => o.value)).not.toContain(
      'CONTAINS',
    );
    await user.selectOptions(condition, 'BETWEEN');
    expect(cleanFilter(seen.value).customFields).toBeUndefined();
    fireEvent.change(screen.getByLabelText('Condition 1: from'), {
      target: { value: '2026-03-01' },
    });
    expect(cleanFilter(seen.value).customFields).toBeUndefined();
    fireEvent.change(screen.getByLabelText('Condition 1: to'), {
      target: { value: '2026-03-31' },
    });
    const clean = cleanFilter(seen.value);
    expect(clean.customFields).toEqual([
      {
        field: 'Launch',
        condition: 'BETWEEN',
        value: [Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 31)],
      },
    ]);
    expect(taskFilter.parse(clean).customFields).toEqual([
      {
        field: 'Launch',
        condition: 'BETWEEN',
        value: [Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 31)],
      },
    ]);
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
