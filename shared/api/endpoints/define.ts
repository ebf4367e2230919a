import { z } from 'zod';
import { pathId } from '../common';

export const tags = [
  'Auth',
  'Personal Tasks',
  'Personal Subtasks',
  'Spaces',
  'Projects',
  'Project Tasks',
  'Project Subtasks',
  'Tasks Checklist',
  'Task Attachments',
  'Project Attachments',
  'Notifications and Mentions',
  'Task Timer',
  'Task Comments',
  'Bulk Export',
] as const;
export type Tag = (typeof tags)[number];

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One row of the endpoint table: the contract of one operation as data. The client's
 * functions, the server's routes and the OpenAPI document are all driven by these rows.
 */
export interface EndpointDef {
  tag: Tag;
  method: Method;
  /** Path with `{name}` parameters, all integers. */
  path: string;
  summary: string;
  /** Where the path comes from: the spec, or the contract's fixed answer for a "not shown". */
  source: 'spec' | 'contract';
  /** Auth operations need neither a bearer nor X-Org-Id. */
  auth?: 'none';
  query?: z.ZodType;
  /** A JSON body schema, or a multipart upload under the field `files`. */
  body?: z.ZodType | 'multipart';
  /** Schema of the envelope's `data`; absent when the operation answers no data. */
  data?: z.ZodType;
  /** 204 answers carry no body at all. */
  status?: 200 | 204;
  /** Raw bytes (attachment content) instead of a JSON envelope. */
  produces?: 'binary';
}

export const endpoint = <const D extends EndpointDef>(d: D): D => d;

/** `{a}/{b}` → `'a' | 'b'` */
export type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamNames<Rest>
  : never;

export type PathParams<P extends string> = { [K in PathParamNames<P>]: number };

export const pathParamNames = (path: string): string[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

const pathSchemas = new Map<string, z.ZodObject<Record<string, typeof pathId>>>();

/**
 * The zod schema of a path's parameters: each an integer ≥ 1 (string in a URL, number in code).
 * One per path, kept: zod compiles a schema on its first parse, which costs far more than the
 * parse (a client checks the path of every request).
 */
export const pathParamsSchema = (path: string) => {
  let schema = pathSchemas.get(path);
  if (!schema) {
    schema = z.object(Object.fromEntries(pathParamNames(path).map((n) => [n, pathId])));
    pathSchemas.set(path, schema);
  }
  return schema;
};

/** Fills `{name}` placeholders; values are integers, so nothing needs escaping beyond String(). */
export const fillPath = (path: string, params: Record<string, number>): string =>
  path.replace(/\{(\w+)\}/g, (_, n: string) => {
    const v = params[n];
    if (v === undefined || !Number.isSafeInteger(v)) throw new Error(`missing path parameter ${n}`);
    return String(v);
  });
