/**
 * Every field of every answer that may be null may also be absent, and then reads as nothing
 * (null or undefined): a service that leaves null members out (Spring's NON_NULL) parses like
 * one that sends them. Walks the answer schemas of the endpoint table, the envelope and the
 * error body, to every depth.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nullable } from './common';
import { type EndpointDef, endpoints } from './endpoints';
import { apiError, emptyEnvelope, envelope } from './envelope';

interface Field {
  where: string;
  schema: z.ZodType;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  getter?: () => z.ZodType;
};

/** Every object member reachable from `root`, with its path. */
const fieldsOf = (root: z.ZodType, at: string): Field[] => {
  const out: Field[] = [];
  const seen = new Set<z.ZodType>();
  const walk = (s: z.ZodType | undefined, where: string) => {
    if (!s || seen.has(s)) return;
    seen.add(s);
    const def = s._zod.def as unknown as Def;
    if (def.type === 'object')
      for (const [k, v] of Object.entries(def.shape ?? {})) {
        out.push({ where: `${where}.${k}`, schema: v });
        walk(v, `${where}.${k}`);
      }
    walk(def.element, `${where}[]`);
    walk(def.innerType, where);
    walk(def.in, where);
    walk(def.out, where);
    walk(def.left, where);
    walk(def.right, where);
    walk(def.valueType, `${where}{}`);
    walk(def.getter?.(), where);
    for (const o of [...(def.options ?? []), ...(def.items ?? [])]) walk(o, where);
  };
  walk(root, at);
  return out;
};

const rows = Object.entries(endpoints) as [string, EndpointDef][];
const answers: [string, z.ZodType][] = [
  ...rows.map(([id, row]): [string, z.ZodType] => [
    id,
    row.data ? envelope(row.data) : emptyEnvelope,
  ]),
  ['ApiError', apiError],
];
const nullableFields = answers.flatMap(([id, s]) =>
  fieldsOf(s, id).filter((f) => f.schema.safeParse(null).success),
);

describe('nullable fields of the answers', () => {
  it('are found across the endpoint table (the walk reaches them)', () => {
    const found = new Set(nullableFields.map((f) => f.where));
    expect(found).toContain('bulkTasks.data.nextCursor');
    expect(found).toContain('bulkTasks.data.items[].checklists[].assigneeId');
    expect(found).toContain('getTaskComments.data.content[].createdBy.lastName');
    expect(found).toContain('ApiError.errors');
    expect(found.size).toBeGreaterThan(100);
  });

  it.each(nullableFields.map((f) => [f.where, f] as const))('%s may be absent', (_, f) => {
    const absent = f.schema.safeParse(undefined);
    expect(absent.success).toBe(true);
    expect([null, undefined]).toContain(absent.data);
  });

  it('nullable() reads an absent member as null, in and out of an object', () => {
    const s = z.looseObject({ nextCursor: nullable(z.string()) });
    expect(s.parse({})).toEqual({ nextCursor: null });
    expect(s.parse({ nextCursor: null })).toEqual({ nextCursor: null });
    expect(s.parse({ nextCursor: 'c' })).toEqual({ nextCursor: 'c' });
    expect(s.safeParse({ nextCursor: 1 }).success).toBe(false);
  });
});
