import { describe, expect, it } from 'vitest';
import type { UserRef } from '../../shared/api';
import { columnsOf, type Fields, toDto, writerOf } from './dto-fields';
import { JsonWriter } from './json-writer';

interface Row {
  id: number;
  name: string | null;
  due: number | null;
  done: number;
  by: number;
  gone_by: number | null;
  hidden: number;
}
const fields = [
  { key: 'id', column: 'id', shown: 'num' },
  { key: 'name', column: 'name', shown: 'str' },
  { key: 'tags', part: 'tags' },
  { key: 'due', column: 'due', shown: 'iso' },
  { key: 'done', column: 'done', shown: 'flag' },
  { key: 'createdBy', column: 'by', shown: 'ref' },
  { key: 'deletedBy', column: 'gone_by', shown: 'refOrNull' },
] as const satisfies Fields<Row, 'tags'>;
const columns = columnsOf<Row>(fields, ['hidden']);
const users = new Map<number, UserRef>([[7, { userId: 7, firstName: 'Zoë "Z"' }]]);
const ref = (id: number): UserRef => users.get(id) ?? { userId: id };

describe('dto-fields: one table, two writers', () => {
  it('selects the fields’ columns in order, then the extra ones', () => {
    expect(columns).toEqual(['id', 'name', 'due', 'done', 'by', 'gone_by', 'hidden']);
  });

  it('writes the bytes of JSON.stringify of the DTO the same table builds', () => {
    const tags = (r: Row) => (r.id % 2 === 0 ? ['a', 'ü'] : []);
    const write = writerOf(fields, columns);
    for (const row of [
      { id: 1, name: 'plain', due: 0, done: 1, by: 7, gone_by: null, hidden: 5 },
      {
        id: 2,
        name: 'tab\tand “quotes”',
        due: 1_767_225_600_123,
        done: 0,
        by: 8,
        gone_by: 7,
        hidden: 0,
      },
      { id: 3, name: null, due: null, done: 0, by: 7, gone_by: 9, hidden: 0 },
    ] satisfies Row[]) {
      const dto = toDto(fields, row, { tags }, ref);
      const w = new JsonWriter(16);
      write(
        w,
        columns.map((c) => row[c]),
        { tags: (w) => w.json(JSON.stringify(tags(row))) },
        { of: (id) => Buffer.from(JSON.stringify(ref(id))) },
      );
      expect(w.done().toString()).toBe(JSON.stringify(dto));
    }
  });

  it('refuses a table whose column the query does not select', () => {
    expect(() => writerOf(fields, ['id'])).toThrow(/name: column name is not selected/);
  });
});
