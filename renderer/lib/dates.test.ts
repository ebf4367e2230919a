import { describe, expect, it } from 'vitest';
import {
  ago,
  formatCalendarDay,
  formatDue,
  formatMoment,
  formatTime,
  formatWeek,
  isPastDue,
} from './dates';

// 23:30 UTC on Dec 23 is already Dec 24 in Berlin and still Dec 23 in New York.
const lateUtc = Date.UTC(2026, 11, 23, 23, 30);
const berlin = { locale: 'en-US', timeZone: 'Europe/Berlin', now: lateUtc };
const newYork = { locale: 'en-US', timeZone: 'America/New_York', now: lateUtc };

describe('formatMoment (a point in time, in the user’s zone)', () => {
  it('names the day the moment falls on where the user is', () => {
    expect(formatMoment(lateUtc, berlin)).toBe('Dec 24');
    expect(formatMoment(lateUtc, newYork)).toBe('Dec 23');
  });

  it('adds the year for another year, and follows the locale', () => {
    expect(formatMoment('2025-03-03T10:00:00Z', berlin)).toBe('Mar 3, 2025');
    expect(formatMoment(lateUtc, { ...berlin, locale: 'de-DE' })).toBe('24. Dez.');
  });

  it('gives nothing for nothing or garbage', () => {
    expect(formatMoment(null, berlin)).toBe('');
    expect(formatMoment('', berlin)).toBe('');
    expect(formatMoment('not a date', berlin)).toBe('');
  });

  it('tells the time in the user’s zone', () => {
    expect(formatTime(lateUtc, berlin)).toBe('12:30 AM');
    expect(formatTime(lateUtc, { ...berlin, locale: 'en-GB' })).toBe('00:30');
  });
});

describe('formatCalendarDay (a due or start date: the same day in every zone)', () => {
  it('reads a stored day as that day whatever the zone', () => {
    const midnight = '2026-12-24T00:00:00.000Z';
    expect(formatCalendarDay(midnight, berlin)).toBe('Dec 24');
    expect(formatCalendarDay(midnight, newYork)).toBe('Dec 24');
    expect(formatCalendarDay(Date.UTC(2025, 11, 24, 12), newYork)).toBe('Dec 24, 2025');
  });
});

describe('formatDue (relative near today, where the user is)', () => {
  const due = '2026-12-24T12:00:00.000Z';

  it('says Today, Tomorrow, Yesterday against the user’s own today', () => {
    expect(formatDue(due, berlin)).toBe('Today');
    expect(formatDue(due, newYork)).toBe('Tomorrow');
    expect(formatDue('2026-12-23T12:00:00.000Z', berlin)).toBe('Yesterday');
  });

  it('gives the day further out, in the locale’s words near today', () => {
    expect(formatDue('2026-12-27T12:00:00.000Z', berlin)).toBe('Dec 27');
    expect(formatDue(due, { ...berlin, locale: 'de-DE' })).toBe('Heute');
    expect(formatDue(null, berlin)).toBe('');
  });
});

describe('isPastDue (the Overdue group’s rule: before the user’s today)', () => {
  it('holds a task due today not overdue, though its due moment has passed', () => {
    // Dec 23's due moment (noon UTC) is past in both zones; it is today only in New York.
    expect(isPastDue('2026-12-23T12:00:00.000Z', newYork)).toBe(false);
    expect(isPastDue('2026-12-23T12:00:00.000Z', berlin)).toBe(true);
    expect(isPastDue('2026-12-22T12:00:00.000Z', newYork)).toBe(true);
    expect(isPastDue(null, berlin)).toBe(false);
  });
});

describe('formatWeek and ago', () => {
  it('writes a week as one range', () => {
    expect(formatWeek(Date.UTC(2026, 10, 23), Date.UTC(2026, 10, 29), berlin)).toBe(
      // The locale's own spacing: thin spaces around the dash.
      'Nov 23\u2009–\u200929, 2026',
    );
  });

  it('says how long ago, then the day', () => {
    expect(ago(null, berlin)).toBe('never');
    expect(ago(lateUtc - 10_000, berlin)).toBe('just now');
    expect(ago(lateUtc - 5 * 60_000, berlin)).toBe('5m ago');
    expect(ago(lateUtc - 3 * 3_600_000, berlin)).toBe('3h ago');
    expect(ago(lateUtc - 3 * 86_400_000, berlin)).toBe('Dec 21');
  });
});
