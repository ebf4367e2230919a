/**
 * Parameters of the OpenAPI document: path ids, and query parameters. Most query fields of
 * the endpoint table parse `unknown` (paging, sort and the filters of shared/filters are
 * transforms from a raw query record), so the generator could only say `{}` for them; they
 * are documented here by the kind of value they carry on the wire, taken from the same
 * tables shared/filters parses with. A field whose zod input is a plain type is left to the
 * generator.
 */
import { z } from 'zod';
import { projectListQuery, taskListQuery } from '../../shared/api/index';
import { customFieldConditionNames } from '../../shared/filters/custom-fields';
import type { FieldKind } from '../../shared/filters/filter-query';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../shared/filters/paging';
import { projectFilterKinds } from '../../shared/filters/project-filter';
import { projectSortProperties, taskSortProperties } from '../../shared/filters/sql';
import { taskFilterKinds } from '../../shared/filters/task-filter';

/** Raw OpenAPI 3.1 pieces (the generator's types span 3.0 to 3.2; build-document casts once). */
export type JsonSchema = { [key: string]: unknown };
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema?: JsonSchema;
  content?: { [mediaType: string]: { schema: JsonSchema } };
}

export const int64 = { type: 'integer', format: 'int64' } as const;

/** A path parameter: the wire form of `pathId`. */
export const pathParam = (name: string): Parameter => ({
  name,
  in: 'path',
  required: true,
  schema: { ...int64, minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
});

/** How each query parameter with an opaque zod input travels, by name. */
const wireKinds: Record<string, FieldKind | 'page' | 'size' | 'sort'> = {
  ...taskFilterKinds,
  ...projectFilterKinds,
  unreadOnly: 'boolean',
  page: 'page',
  size: 'size',
  sort: 'sort',
};

const sortProperties = new Map<unknown, readonly string[]>([
  [taskListQuery, taskSortProperties],
  [projectListQuery, projectSortProperties],
]);

const customFieldsSchema: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['field', 'condition'],
    properties: {
      field: { type: 'string', description: 'Name of the custom field.' },
      condition: { type: 'string', enum: [...customFieldConditionNames] },
      value: {
        type: 'array',
        description:
          'Two values for BETWEEN/NOTBETWEEN, none for TODAY, TOMORROW, ISEMPTY, ' +
          'ISNOTEMPTY, else one. Dates in epoch ms.',
        items: {},
      },
    },
  },
};

const wireParam = (name: string, kind: string, query: unknown): Parameter => {
  const p = (schema: JsonSchema, description?: string): Parameter => ({
    name,
    in: 'query',
    required: false,
    ...(description ? { description } : {}),
    schema,
  });
  switch (kind) {
    case 'page':
      return p({ type: 'integer', minimum: 0, default: 0 }, 'Zero-based page index.');
    case 'size':
      return p(
        { type: 'integer', minimum: 1, default: DEFAULT_PAGE_SIZE },
        `Page size; a size over ${MAX_PAGE_SIZE} is clamped to ${MAX_PAGE_SIZE}.`,
      );
    case 'sort': {
      const props = sortProperties.get(query);
      return p(
        { type: 'array', items: { type: 'string' } },
        'Repeatable `property,(asc|desc)`, ascending by default; an unknown property is a 400.' +
          (props ? ` Properties: ${props.join(', ')}.` : ''),
      );
    }
    case 'text':
      return p({ type: 'string' }, 'Case-insensitive substring.');
    case 'strings':
      return p({ type: 'array', items: { type: 'string' } }, 'Matches any of the values.');
    case 'ints':
      return p({ type: 'array', items: { ...int64 } }, 'User ids; matches any of them.');
    case 'dateTime':
      return p({ type: 'string', format: 'date-time' }, 'Matches the same calendar day in UTC.');
    case 'boolean':
      return p({ type: 'boolean' });
    case 'customFields':
      return {
        name,
        in: 'query',
        required: false,
        description: 'JSON text: the conditions, ANDed.',
        content: { 'application/json': { schema: customFieldsSchema } },
      };
    default:
      throw new Error(`no wire form for query parameter ${name}`);
  }
};

/** The schema a query string's text is parsed from is unknown (or a union of wire forms). */
const isOpaqueInput = (schema: z.ZodType): boolean => {
  let s: z.core.$ZodType = schema;
  for (;;) {
    const def = s._zod.def;
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') {
      s = (def as unknown as { innerType: z.core.$ZodType }).innerType;
    } else if (def.type === 'pipe') {
      const { in: inner, out } = def as unknown as { in: z.core.$ZodType; out: z.core.$ZodType };
      s = inner._zod.def.type === 'transform' ? out : inner;
    } else {
      return ['unknown', 'any', 'transform', 'union'].includes(def.type);
    }
  }
};

/** The row's query object split into library-generated fields and hand-documented ones. */
/**
 * The parameters of a row's query schema: a `z.object`, or a `z.object(…).transform(…)` whose
 * object lists the raw parameters (the list queries parse paging and filters that way).
 */
export const queryShape = (query: z.ZodType): Record<string, z.ZodType> | undefined => {
  const def = query._zod.def as { type: string; in?: z.ZodType };
  if (query instanceof z.ZodObject) return query.shape as Record<string, z.ZodType>;
  if (def.type === 'pipe' && def.in) return queryShape(def.in);
  return undefined;
};

export const queryParams = (id: string, query: z.ZodType | undefined) => {
  if (!query) return { zodQuery: undefined, wire: [] as Parameter[] };
  const shape = queryShape(query);
  if (!shape) throw new Error(`${id}: query must be a z.object (or one piped into a transform)`);
  const plain: Record<string, z.ZodType> = {};
  const wire: Parameter[] = [];
  for (const [name, field] of Object.entries(shape)) {
    if (!isOpaqueInput(field)) plain[name] = field;
    else if (wireKinds[name]) wire.push(wireParam(name, wireKinds[name], query));
    else throw new Error(`${id}: query parameter ${name} has no input type and no wire kind`);
  }
  return { zodQuery: Object.keys(plain).length ? z.object(plain) : undefined, wire };
};

/**
 * The generator calls a field nullable when it accepts `null`, which every `z.coerce` field
 * does; a query string cannot carry null, so the wire schema drops it.
 */
export const dropNullFromQueryParameters = (doc: { paths?: object }): void => {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      for (const p of (op as { parameters?: Parameter[] }).parameters ?? []) {
        const schema = p.in === 'query' ? (p.schema as { type?: unknown } | undefined) : undefined;
        if (!schema || !Array.isArray(schema.type)) continue;
        const types = schema.type.filter((t) => t !== 'null');
        schema.type = types.length === 1 ? types[0] : types;
      }
    }
  }
};
