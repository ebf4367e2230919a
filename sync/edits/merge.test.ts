import { describe, expect, it } from 'vitest';
import { changedFields, mergeFields, serverLater } from './merge';

const base = { a: 1, b: 1, c: 1 };
const merge = (over: Partial<Parameters<typeof mergeFields>[0]>) =>
  mergeFields({
    body: { a: 2, b: 2, c: 1 },
    base,
    server: { a: 1, b: 3, c: 3 },
    serverModified: 200,
    edited: { a: 100, b: 100 },
    sent: [],
    clock: null,
    ...over,
  });

describe('mergeFields', () => {
  it('keeps the user fields, takes the server ones, and the later writer of a field both changed', () => {
    expect(merge({}).body).toEqual({ a: 2, b: 3, c: 3 });
    expect(merge({}).edited).toEqual({ a: 100 });
    expect(merge({ serverModified: 50 }).body).toEqual({ a: 2, b: 2, c: 3 });
    expect(merge({ serverModified: 50 }).edited).toEqual({ a: 100, b: 100 });
  });

  it('a field the user set back to its old value is still the user’s', () => {
    // Toggled on (sent, its answer lost: the server holds it) and off again.
    const r = merge({
      body: { done: false },
      base: { done: false },
      server: { done: true },
      serverModified: 500,
      edited: { done: 300 },
      sent: [{ done: true }],
    });
    expect(r.body).toEqual({ done: false });
  });

  it('the engine’s own earlier write is never another writer, whatever the clocks say', () => {
    const r = merge({
      body: { priority: 'Urgent' },
      base: { priority: 'None' },
      server: { priority: 'High' },
      // The server's clock runs ten minutes ahead: its time is "later" than any edit here.
      serverModified: 1_000 + 600_000,
      edited: { priority: 2_000 },
      sent: [{ priority: 'High' }],
    });
    expect(r.body).toEqual({ priority: 'Urgent' });
  });

  it('judges "later" in the server clock, with the offset estimated', () => {
    const clock = { offsetMs: 600_000, errorMs: 5 };
    const foreign = {
      body: { t: 'mine' },
      base: { t: 'old' },
      server: { t: 'theirs' },
      edited: { t: 2_000 },
    };
    // Their write happened a second before the user's edit, though its stamp is minutes later.
    expect(merge({ ...foreign, serverModified: 601_000, clock }).body).toEqual({ t: 'mine' });
    // And a second after it.
    expect(merge({ ...foreign, serverModified: 603_000, clock }).body).toEqual({ t: 'theirs' });
    // Within the estimate's error the user's value stays.
    expect(merge({ ...foreign, serverModified: 602_004, clock }).body).toEqual({ t: 'mine' });
  });
});

describe('serverLater', () => {
  it('compares raw clocks only when no offset is known', () => {
    expect(serverLater(10, 5, null)).toBe(true);
    expect(serverLater(null, 5, null)).toBe(false);
    expect(serverLater(10, 5, { offsetMs: 10, errorMs: 0 })).toBe(false);
  });
});

describe('changedFields', () => {
  it('stamps the fields that differ from the state the user saw', () => {
    expect(changedFields({ a: 1, b: [2], c: null }, { a: 1, b: [3], c: null }, 7)).toEqual({
      b: 7,
    });
    expect(changedFields({ a: 1 }, null, 7)).toEqual({ a: 7 });
  });
});

describe('custom field values: merged per field', () => {
  const cf = (...pairs: [number, string | null][]) =>
    pairs.map(([taskCustomFieldId, value]) => ({ taskCustomFieldId, value }));

  it('the user’s field and another writer’s later change of another field both stay', () => {
    const r = mergeFields({
      body: { customFieldValues: cf([1, 'a'], [2, 'mine']) },
      base: { customFieldValues: cf([1, 'a'], [2, 'b']) },
      server: { customFieldValues: cf([1, 'theirs'], [2, 'b']) },
      serverModified: 500,
      edited: changedFields(
        { customFieldValues: cf([1, 'a'], [2, 'mine']) },
        { customFieldValues: cf([1, 'a'], [2, 'b']) },
        300,
      ),
      sent: [],
      clock: null,
    });
    expect(r.body).toEqual({ customFieldValues: cf([1, 'theirs'], [2, 'mine']) });
    expect(r.edited).toEqual({ 'customFieldValues[2]': 300 });
  });

  it('a field the user cleared stays cleared; one another writer added stays', () => {
    const before = { customFieldValues: cf([1, 'a'], [2, 'b']) };
    const body = { customFieldValues: cf([2, 'b']) };
    const edited = changedFields(body, before, 300);
    expect(edited).toEqual({ 'customFieldValues[1]': 300 });
    const r = mergeFields({
      body,
      base: before,
      server: { customFieldValues: cf([1, 'a'], [2, 'b'], [3, 'new']) },
      serverModified: 500,
      edited,
      sent: [],
      clock: null,
    });
    expect(r.body).toEqual({ customFieldValues: cf([2, 'b'], [3, 'new']) });
  });

  it('a row of an older build that marked the whole list keeps every field of it', () => {
    const r = mergeFields({
      body: { customFieldValues: cf([1, 'mine']) },
      base: { customFieldValues: cf([1, 'a']) },
      server: { customFieldValues: cf([1, 'a'], [2, 'theirs']) },
      serverModified: 500,
      edited: { customFieldValues: 300 },
      sent: [],
      clock: null,
    });
    // Their field 2 came later and is not the user's: both stay.
    expect(r.body).toEqual({ customFieldValues: cf([1, 'mine'], [2, 'theirs']) });
  });
});
