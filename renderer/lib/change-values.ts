/**
 * A value of "Changes from sync" (the user's or the server's, as the request held it) in the
 * words a person reads: days as days, people by name, Yes/No, "empty", long text clipped.
 */
import type { UserRef } from '../../shared/api/common';
import { type DateOptions, formatCalendarDay, formatMoment, formatTime } from './dates';
import { hours, userName } from './format';

export interface ValueWords {
  text: string;
  /** The whole value when `text` is clipped (a tooltip). */
  full: string | null;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A row of the list has room for about this much before it wraps a third time. */
export const CLIP_AT = 80;

const dayFields = new Set(['startDate', 'dueDate']);
const momentFields = new Set(['startTime']);
const peopleFields = new Set(['owners', 'assigneeId', 'members']);
const htmlFields = new Set(['description', 'notes']);
// A calendar day as the API carries it: a date, or that date at UTC noon (dates.ts).
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}(T12:00:00(\.0+)?Z)?$/;

export interface ValueContext {
  /** The request's field (`dueDate`, `customFieldValues[7]`): it says how to read the value. */
  field: string | null;
  users?: ReadonlyMap<number, Pick<UserRef, 'userId' | 'firstName' | 'lastName' | 'email'>>;
  dates?: DateOptions;
}

const person = (value: Json, ctx: ValueContext): string => {
  const id =
    typeof value === 'number'
      ? value
      : value !== null && typeof value === 'object' && !Array.isArray(value)
        ? value.userId
        : null;
  if (typeof id !== 'number') return 'someone';
  const u = ctx.users?.get(id);
  return u ? userName(u) : 'someone not in this organization';
};

const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

const words = (value: Json, ctx: ValueContext): string => {
  const field = ctx.field ?? '';
  if (value === null || value === '') return 'empty';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'empty';
    return value.map((v) => words(v, ctx)).join(', ');
  }
  if (peopleFields.has(field)) return person(value, ctx);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field === 'billingStatus' && typeof value === 'string')
    return value === 'BILLABLE' ? 'Billable' : 'Not billable';
  if (typeof value === 'number') {
    if (field === 'durationSeconds') return hours(value);
    if (field === 'completion') return `${value}%`;
    if (momentFields.has(field))
      return `${formatMoment(value, ctx.dates)}, ${formatTime(value, ctx.dates)}`;
    if (field === 'contactId') return 'a contact';
    return value.toLocaleString(ctx.dates?.locale);
  }
  if (typeof value === 'string') {
    if (dayFields.has(field) || CALENDAR_DAY.test(value))
      return formatCalendarDay(value, ctx.dates) || value;
    if (momentFields.has(field))
      return `${formatMoment(value, ctx.dates)}, ${formatTime(value, ctx.dates)}`;
    return htmlFields.has(field) ? plain(value) : value;
  }
  // A whole object is no single field's value; its name is what a person knows it by.
  for (const key of ['name', 'title', 'taskTitle', 'value'])
    if (typeof value[key] === 'string' || typeof value[key] === 'number')
      return words(value[key] as Json, ctx);
  return 'changed';
};

/** One value in words, with newlines and runs of spaces made one space, clipped if long. */
export const valueWords = (value: unknown, ctx: ValueContext): ValueWords => {
  const text =
    words(value as Json, ctx)
      .replace(/\s+/g, ' ')
      .trim() || 'empty';
  if (text.length <= CLIP_AT) return { text, full: null };
  return { text: `${text.slice(0, CLIP_AT - 1).trimEnd()}…`, full: text };
};
