import { describe, expect, it } from 'vitest';
import { serializeQuery } from './query';

describe('serializeQuery', () => {
  it('repeats arrays, skips undefined and null, stringifies scalars', () => {
    expect(
      serializeQuery({ a: [1, 2], b: undefined, c: null, d: true, e: 'x y', f: [undefined, 'z'] }),
    ).toBe('?a=1&a=2&d=true&e=x+y&f=z');
  });
  it('sends structured values as one JSON string', () => {
    const conditions = [{ field: 'Due', condition: 'BEFORE', value: [5] }];
    const q = new URLSearchParams(serializeQuery({ customFields: conditions }));
    expect(JSON.parse(q.get('customFields') ?? '')).toEqual(conditions);
  });
  it('writes dates as ISO strings', () => {
    expect(serializeQuery({ dueDate: new Date(0) })).toBe('?dueDate=1970-01-01T00%3A00%3A00.000Z');
  });
  it('answers an empty string when nothing is left', () => {
    expect(serializeQuery(undefined)).toBe('');
    expect(serializeQuery({ a: undefined, b: [] })).toBe('');
  });
});
