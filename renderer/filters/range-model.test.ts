import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../shared/api/custom-fields';
import { changeRowField, cleanFilter, type FilterValue, fieldRows } from './filter-model';
import {
  columnDateRule,
  dayContext,
  setColumnDateRule,
  withDateOp,
  withNumberOp,
} from './range-model';

const field = (id: number, fieldName: string, fieldType: string): CustomField => ({
  taskCustomFieldId: id,
  fieldName,
  fieldType,
});
const launch = field(1, 'Launch', 'DATE');
const budget = field(2, 'Budget', 'CURRENCY');
const score = field(3, 'Score', 'percent');
const client = field(4, 'Client', 'TEXT');

describe('day rules', () => {
  it('a new comparison keeps the days already picked', () => {
    const on = { column: 'dueDate' as const, op: 'on' as const, date: '2026-11-27' };
    expect(withDateOp(on, 'between')).toEqual({
      column: 'dueDate',
      op: 'between',
      from: '2026-11-27',
      to: '',
    });
    expect(withDateOp(withDateOp(on, 'between'), 'after')).toEqual({
      column: 'dueDate',
      op: 'after',
      date: '2026-11-27',
    });
    expect(withDateOp(on, 'thisWeek')).toEqual({ column: 'dueDate', op: 'thisWeek' });
    expect(withNumberOp({ field: 'Budget', op: 'gt', value: 5 }, 'between')).toEqual({
      field: 'Budget',
      op: 'between',
      from: 5,
      to: Number.NaN,
    });
  });

  it('the week starts where the locale starts it', () => {
    expect(dayContext('en-US').weekStartsOn).toBe(0);
    expect(dayContext('de-DE').weekStartsOn).toBe(1);
    expect(dayContext('not a locale').weekStartsOn).toBe(1);
  });

  it('a day saved before rules reads as "on" that day until replaced', () => {
    const old: FilterValue = { dueDate: Date.UTC(2026, 10, 27), startDate: Date.UTC(2026, 0, 2) };
    expect(columnDateRule(old, 'dueDate')).toEqual({
      column: 'dueDate',
      op: 'on',
      date: '2026-11-27',
    });
    const next = setColumnDateRule(old, 'dueDate', { column: 'dueDate', op: 'nextWeek' });
    expect(next).toEqual({
      startDate: Date.UTC(2026, 0, 2),
      dates: [{ column: 'dueDate', op: 'nextWeek' }],
    });
  });
});

describe('custom-field rows', () => {
  it('currency and percent fields are numbers; changing kind starts the row over', () => {
    let f: FilterValue = {
      customFields: [{ field: 'Client', condition: 'CONTAINS', value: ['Acme'] }],
    };
    f = changeRowField(f, { kind: 'text', index: 0 }, budget);
    expect(f.customFields).toEqual([]);
    expect(f.numbers).toEqual([{ field: 'Budget', op: 'gt', value: Number.NaN }]);
    f = changeRowField(f, { kind: 'number', index: 0 }, score);
    expect(f.numbers).toEqual([{ field: 'Score', op: 'gt', value: Number.NaN }]);
    f = changeRowField(f, { kind: 'number', index: 0 }, launch);
    expect(f.dates).toEqual([{ field: 'Launch', op: 'thisWeek' }]);
    f = changeRowField(f, { kind: 'date', index: 0 }, client);
    expect(f.customFields).toEqual([{ field: 'Client', condition: 'IS', value: [] }]);
    expect(fieldRows(f)).toEqual([{ kind: 'text', index: 0 }]);
  });

  it('built-in column rules are not custom-field rows; a saved zone is replaced by the reader', () => {
    const f: FilterValue = {
      dates: [
        { column: 'dueDate', op: 'today' },
        { field: 'Launch', op: 'none' },
      ],
      numbers: [{ column: 'completion', op: 'ge', value: 50 }],
      timeZone: 'Pacific/Kiritimati',
      weekStartsOn: 6,
    };
    expect(fieldRows(f)).toEqual([{ kind: 'date', index: 1 }]);
    const clean = cleanFilter(f);
    expect(clean.timeZone).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(clean.weekStartsOn).not.toBe(6);
    expect(cleanFilter({ timeZone: 'UTC' })).toEqual({});
  });
});
