import { describe, expect, it } from 'vitest';
import { valueWords } from './change-values';

const dates = { locale: 'en-US', timeZone: 'America/New_York', now: Date.UTC(2026, 10, 22, 8) };
const words = (field: string | null, value: unknown) =>
  valueWords(value, { field, dates, users: new Map([[8, { userId: 8, firstName: 'Alex' }]]) }).text;

describe('a changed value in words', () => {
  it('says days as the day, whatever the zone, and moments where the user is', () => {
    expect(words('dueDate', '2026-03-04T12:00:00.000Z')).toBe('Mar 4');
    expect(words('customFieldValues[7]', '2025-12-24')).toBe('Dec 24, 2025');
    expect(words('startTime', Date.UTC(2026, 10, 20, 14, 5))).toBe('Nov 20, 9:05 AM');
  });

  it('says numbers, people and flags the way the panes do', () => {
    expect(words('durationSeconds', 5400)).toBe('1h 30m');
    expect(words('completion', 40)).toBe('40%');
    expect(words('assigneeId', 8)).toBe('Alex');
    expect(words('owners', [8, 99])).toBe('Alex, someone not in this organization');
    expect(words('billingStatus', 'NON_BILLABLE')).toBe('Not billable');
    expect(words('public', false)).toBe('No');
    expect(words('tags', [])).toBe('empty');
    expect(words('title', '')).toBe('empty');
  });

  it('reads rich text as its words', () => {
    expect(words('description', '<p>Check the&nbsp;<b>bench</b></p>\n<p>then log it</p>')).toBe(
      'Check the bench then log it',
    );
  });
});
