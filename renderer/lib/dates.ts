/**
 * Every date and time the UI shows, in the user's locale and time zone.
 *
 * Two kinds of value: a moment (created, edited, a timer's start) is shown where the user is;
 * a calendar day (due, start, a date field) is stored as a UTC date (`dateInputToIso`) and is
 * the same day in every zone, the day its `<input type="date">` shows.
 * Locale, zone and "now" are parameters so tests are deterministic; the app passes none.
 */

export const DAY_MS = 86_400_000;

export interface DateOptions {
  locale?: string;
  timeZone?: string;
  now?: number;
}

type DateValue = string | number | null | undefined;

const userLocale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

// Building a formatter costs far more than using one, and a list formats hundreds of cells.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

/** The user's time zone, as the browser (or the OS, in the desktop app) reports it. */
export const userTimeZone = () => formatter(undefined, {}).resolvedOptions().timeZone;

const resolve = (o: DateOptions = {}) => ({
  locale: o.locale ?? userLocale(),
  timeZone: o.timeZone ?? userTimeZone(),
  now: o.now ?? Date.now(),
});

function toMs(value: DateValue): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** UTC midnight of the calendar day `ms` falls on in `timeZone`. */
function dayIn(ms: number, timeZone: string): number {
  const parts = formatter('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'));
}

/** The user's calendar day, as the UTC midnight of its date (the way due days are kept). */
export function todayIn(options?: DateOptions): number {
  const o = resolve(options);
  return dayIn(o.now, o.timeZone);
}

const sameYear = (a: number, b: number) =>
  new Date(a).getUTCFullYear() === new Date(b).getUTCFullYear();

/** "Dec 24" this year, "Dec 24, 2025" otherwise: the day of a UTC-midnight `day`. */
function dayText(day: number, today: number, locale: string | undefined): string {
  return formatter(locale, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
    ...(sameYear(day, today) ? {} : { year: 'numeric' }),
  }).format(day);
}

/** A moment's day where the user is: "Dec 24", "Mar 3, 2025"; nothing or garbage give "". */
export function formatMoment(value: DateValue, options?: DateOptions): string {
  const ms = toMs(value);
  if (ms === null) return '';
  const o = resolve(options);
  return dayText(dayIn(ms, o.timeZone), dayIn(o.now, o.timeZone), o.locale);
}

/** A moment's time of day where the user is: "2:05 PM", "14:05". */
export function formatTime(value: DateValue, options?: DateOptions): string {
  const ms = toMs(value);
  if (ms === null) return '';
  const o = resolve(options);
  return formatter(o.locale, { timeStyle: 'short', timeZone: o.timeZone }).format(ms);
}

const calendarDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** A calendar day (due, start, a date field): "Dec 24", "Dec 24, 2025", whatever the zone. */
export function formatCalendarDay(value: DateValue, options?: DateOptions): string {
  const ms = toMs(value);
  if (ms === null) return '';
  const o = resolve(options);
  return dayText(calendarDay(ms), dayIn(o.now, o.timeZone), o.locale);
}

/** A due date: "Today", "Tomorrow", "Yesterday" against the user's today, else the day. */
export function formatDue(value: DateValue, options?: DateOptions): string {
  const ms = toMs(value);
  if (ms === null) return '';
  const o = resolve(options);
  const today = dayIn(o.now, o.timeZone);
  const days = (calendarDay(ms) - today) / DAY_MS;
  if (Math.abs(days) > 1) return dayText(calendarDay(ms), today, o.locale);
  const words = new Intl.RelativeTimeFormat(o.locale, { numeric: 'auto' }).format(days, 'day');
  return words.charAt(0).toLocaleUpperCase(o.locale) + words.slice(1);
}

/**
 * Whether a due date's day is before the user's today: the rule My tasks' Overdue group and
 * its chip use (shared/due-groups.ts), so a task due today is not shown overdue until tomorrow.
 */
export function isPastDue(value: DateValue, options?: DateOptions): boolean {
  const ms = toMs(value);
  if (ms === null) return false;
  const o = resolve(options);
  return calendarDay(ms) < dayIn(o.now, o.timeZone);
}

/** Weekday and day of a UTC day (timesheet columns): "Mon 23". */
export function formatWeekday(day: number, options?: DateOptions): string {
  return formatter(resolve(options).locale, {
    weekday: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(day);
}

/** Two UTC days as one range, as the locale writes it: "Nov 23 – 29, 2026". */
export function formatWeek(first: number, last: number, options?: DateOptions): string {
  return formatter(resolve(options).locale, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).formatRange(first, last);
}

/** "just now", "2m ago", "3h ago", else the day. */
export function ago(ms: number | null, options?: DateOptions): string {
  if (ms === null) return 'never';
  const o = resolve(options);
  const s = Math.max(0, Math.round((o.now - ms) / 1000));
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
  return formatMoment(ms, o);
}

/** An `<input type="date">` value ("2026-03-04") for a stored calendar day. */
export const isoToDateInput = (iso: string | null | undefined) =>
  iso ? new Date(iso).toISOString().slice(0, 10) : '';

/** "2026-03-04" → ISO date-time at UTC noon (a calendar day survives every time zone). */
export const dateInputToIso = (value: string) => (value ? `${value}T12:00:00.000Z` : null);

/** "2026-03-04" → epoch ms of that UTC midnight; "" → undefined. */
export const dateInputToMs = (value: string) =>
  value ? Date.parse(`${value}T00:00:00.000Z`) : undefined;

export const msToDateInput = (ms: number | undefined) =>
  ms === undefined ? '' : new Date(ms).toISOString().slice(0, 10);
