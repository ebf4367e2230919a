import { z } from 'zod';
import { cursor, dateTime, nullable, opt } from './common';

/** Successful answer: `{success:true, message, code, data?, timestamp}`; code mirrors HTTP. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.looseObject({
    success: z.literal(true),
    message: z.string(),
    code: z.number().int(),
    data,
    timestamp: dateTime,
  });

/** An envelope whose `data` is absent (or ignored). */
export const emptyEnvelope = z.looseObject({
  success: z.literal(true),
  message: z.string(),
  code: z.number().int(),
  data: z.unknown().optional(),
  timestamp: dateTime,
});

export const fieldError = z.looseObject({
  field: z.string(),
  message: z.string(),
  rejectedValue: z.unknown().optional(),
});
export type FieldError = z.infer<typeof fieldError>;

/** ApiError. `status` is parsed as any string: a real service may send constants we do not know. */
export const apiError = z.looseObject({
  success: z.literal(false),
  message: z.string(),
  code: z.number().int(),
  status: z.string(),
  path: opt(z.string()),
  timestamp: opt(dateTime),
  errors: opt(z.array(fieldError)),
});
export type ApiError = z.infer<typeof apiError>;

/** Spring's page object, the `data` of every paged list. */
export const page = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    content: z.array(item),
    totalElements: z.number().int().min(0),
    totalPages: z.number().int().min(0),
    size: z.number().int().min(0),
    number: z.number().int().min(0),
    first: z.boolean(),
    last: z.boolean(),
    numberOfElements: z.number().int().min(0),
    empty: z.boolean(),
  });

/** A page of the bulk export: `nextCursor` is null on the last page; serverTime is epoch ms. */
export const bulkPage = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    nextCursor: nullable(cursor),
    serverTime: z.number().int(),
  });
