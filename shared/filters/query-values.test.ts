import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  MAX_LIST_VALUES,
  parseBoolean,
  parseDateTime,
  parseIntList,
  parseStringList,
  parseText,
} from './query-values';

const value = <T>(r: { ok: true; value: T } | { ok: false; message: string }) => {
  if (!r.ok) throw new Error(`expected ok, got: ${r.message}`);
  return r.value;
};
const message = (r: { ok: boolean; message?: string }) => {
  expect(r.ok).toBe(false);
  return r.message;
};

describe('parseStringList', () => {
  it('accepts repeated and comma-separated values, trims, drops empties and repeats', () => {
    expect(value(parseStringList(['To Do, Done', ' In Review ', '', 'Done', ',,']))).toEqual([
      'To Do',
      'Done',
      'In Review',
    ]);
    expect(value(parseStringList('a'))).toEqual(['a']);
  });

  it('absent or blank means no filter', () => {
    expect(value(parseStringList(undefined))).toBeUndefined();
    expect(value(parseStringList(''))).toBeUndefined();
    expect(value(parseStringList([' , ']))).toBeUndefined();
  });

  it('caps the number of values', () => {
    const many = Array.from({ length: MAX_LIST_VALUES + 1 }, (_, i) => `s${i}`);
    expect(message(parseStringList(many))).toContain(`at most ${MAX_LIST_VALUES}`);
  });

  it('refuses objects', () => {
    expect(message(parseStringList([{}]))).toBe('expected a string');
  });
});

describe('parseIntList', () => {
  it('parses repeated and comma-separated int64 values', () => {
    expect(value(parseIntList(['1,2', '3', ' 2 ', '-4', '+5']))).toEqual([1, 2, 3, -4, 5]);
    expect(value(parseIntList(undefined))).toBeUndefined();
  });

  it.each([['1.5'], ['abc'], ['1e3'], ['0x10'], ['12345678901234567890']])('rejects %j', (bad) => {
    expect(message(parseIntList(['1', bad]))).toMatch(/is not an integer|out of range/);
  });
});

describe('parseBoolean', () => {
  it('accepts only true/false in any case', () => {
    expect(value(parseBoolean('true'))).toBe(true);
    expect(value(parseBoolean('FALSE'))).toBe(false);
    expect(value(parseBoolean(['True', 'false']))).toBe(true);
    expect(value(parseBoolean(undefined))).toBeUndefined();
  });

  it.each([['1'], ['yes'], [''], ['truthy']])('rejects %j', (bad) => {
    expect(message(parseBoolean(bad))).toContain('expected true or false');
  });
});

describe('parseDateTime', () => {
  it('parses ISO date-times with and without offsets, and dates, as UTC', () => {
    expect(value(parseDateTime('2025-06-15T12:00:00Z'))).toBe(Date.UTC(2025, 5, 15, 12));
    expect(value(parseDateTime('2025-06-15T12:00:00.123Z'))).toBe(
      Date.UTC(2025, 5, 15, 12, 0, 0, 123),
    );
    expect(value(parseDateTime('2025-06-15T12:00:00.123456789Z'))).toBe(
      Date.UTC(2025, 5, 15, 12, 0, 0, 123),
    );
    expect(value(parseDateTime('2025-06-15T14:30:00+02:00'))).toBe(Date.UTC(2025, 5, 15, 12, 30));
    expect(value(parseDateTime('2025-06-15T09:30-0230'))).toBe(Date.UTC(2025, 5, 15, 12, 0));
    expect(value(parseDateTime('2025-06-15T12:00'))).toBe(Date.UTC(2025, 5, 15, 12));
    expect(value(parseDateTime('2025-06-15'))).toBe(Date.UTC(2025, 5, 15));
    expect(value(parseDateTime('2024-02-29'))).toBe(Date.UTC(2024, 1, 29));
    expect(value(parseDateTime('0050-01-01'))).toBe(-60589296000000);
    expect(value(parseDateTime(undefined))).toBeUndefined();
  });

  it.each([
    ['2025-02-29'],
    ['2025-13-01'],
    ['2025-06-31'],
    ['2025-06-15T24:00:00Z'],
    ['2025-06-15T12:60Z'],
    ['2025-06-15 12:00'],
    ['15/06/2025'],
    ['1749988800000'],
    [''],
    ['2025-06-15T12:00+25:00'],
  ])('rejects %j', (bad) => {
    expect(message(parseDateTime(bad))).toContain('is not an ISO 8601 date-time');
  });

  it('formatDateTime round-trips', () => {
    const ms = Date.UTC(2025, 5, 15, 12, 34, 56, 789);
    expect(value(parseDateTime(formatDateTime(ms)))).toBe(ms);
  });
});

describe('parseText', () => {
  it('trims, blank means no filter, first value wins', () => {
    expect(value(parseText('  spec '))).toBe('spec');
    expect(value(parseText('   '))).toBeUndefined();
    expect(value(parseText(['a', 'b']))).toBe('a');
  });
});
