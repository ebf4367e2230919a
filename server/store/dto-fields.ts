import type { UserRef } from '../../shared/api';
import type { JsonWriter } from './json-writer';
import { iso } from './time';

/**
 * An answer's fields as a table, one per entity (./tasks-dto, ./projects-dto): every key of
 * the DTO in its order, and where its value comes from. A column of the row, shown as it is
 * (`num`, `str`), as an ISO date (`iso`), a 0/1 flag (`flag`) or a user reference (`ref`,
 * `refOrNull`); or a part the caller supplies (lists, counts, what is computed). The same
 * table builds the DTO objects of the other answers (`toDto`) and writes the bulk export's
 * JSON bytes (`fieldWriter`), so the two cannot list different fields or columns.
 */
export type Shown = 'num' | 'str' | 'iso' | 'flag' | 'ref' | 'refOrNull';

export type Field<Row, Part extends string> =
  | { key: string; column: keyof Row & string; shown: Shown }
  | { key: string; part: Part };

export type Fields<Row, Part extends string> = readonly Field<Row, Part>[];

/** The columns a query selects for `fields`, in their order, then `extra` (read by parts). */
export const columnsOf = <Row>(
  fields: Fields<Row, string>,
  extra: readonly (keyof Row & string)[],
): (keyof Row & string)[] => [
  ...new Set([...fields.flatMap((f) => ('column' in f ? [f.column] : [])), ...extra]),
];

/** Each column's position in a raw row selected with `columns`. */
export const positionsOf = <C extends string>(columns: readonly C[]): Record<C, number> =>
  Object.fromEntries(columns.map((c, i) => [c, i])) as Record<C, number>;

/** Due before now and not complete: computed at read time, never stored. */
export const isOverdue = (dueDate: number | null, completed: number, now: number): boolean =>
  dueDate !== null && dueDate < now && completed !== 1;

/** The DTO of one row: `parts` answer the part fields, `ref` the user references. */
export const toDto = <Row, Part extends string>(
  fields: Fields<Row, Part>,
  row: Row,
  parts: Record<Part, (row: Row) => unknown>,
  ref: (userId: number) => UserRef,
): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if ('part' in f) {
      out[f.key] = parts[f.part](row);
      continue;
    }
    const v = row[f.column] as number | string | null;
    switch (f.shown) {
      case 'iso':
        out[f.key] = iso(v as number | null);
        break;
      case 'flag':
        out[f.key] = v === 1;
        break;
      case 'ref':
        out[f.key] = ref(v as number);
        break;
      case 'refOrNull':
        out[f.key] = v === null ? null : ref(v as number);
        break;
      default:
        out[f.key] = v;
    }
  }
  return out;
};

/** How each kind of column is written, as code after `w.ascii(key)`; `v` reads the value. */
const valueCode: Record<Shown, (v: string) => string> = {
  num: (v) => `.num(${v});`,
  str: (v) => `.str(${v});`,
  iso: (v) => `.iso(${v});`,
  flag: (v) => `.bool(${v} === 1);`,
  ref: (v) => `.bytes(refs.of(${v}));`,
  refOrNull: (v) => `; if (${v} === null) w.ascii('null'); else w.bytes(refs.of(${v}));`,
};

/** A row's JSON written by the code `writerOf` compiles: one statement per field. */
export type FieldWriter<Part extends string> = (
  w: JsonWriter,
  row: readonly unknown[],
  parts: Record<Part, (w: JsonWriter, row: readonly unknown[]) => void>,
  refs: { of(userId: number): Uint8Array },
) => void;

/**
 * Compiles the writer of a table: one row as the JSON object of `fields`, to the bytes
 * JSON.stringify of `toDto`'s object would give, each value from its position in the raw row
 * (`columns`, the order the page query selected) or from its part writer. Compiled once per
 * table from the table alone (keys, positions, part names: no outside input): a loop over the
 * table that switched on each field's kind, with call sites shared by every table, made the
 * task export 7-10% slower than the hand-written writer it replaces; this is as fast.
 */
export const writerOf = <Row, Part extends string>(
  fields: Fields<Row, Part>,
  columns: readonly (keyof Row & string)[],
): FieldWriter<Part> => {
  const lines = fields.map((f, i) => {
    const key = `w.ascii(${JSON.stringify(`${i === 0 ? '{' : ','}${JSON.stringify(f.key)}:`)})`;
    if ('part' in f) return `${key}; parts[${JSON.stringify(f.part)}](w, row);`;
    const at = columns.indexOf(f.column);
    if (at < 0) throw new Error(`${f.key}: column ${f.column} is not selected`);
    return `${key}${valueCode[f.shown](`row[${at}]`)}`;
  });
  return new Function(
    'w',
    'row',
    'parts',
    'refs',
    `${lines.join('\n')}\nw.ascii('}');`,
  ) as FieldWriter<Part>;
};
