import { z } from 'zod';

/**
 * Building blocks of the /v1 contract. Parsing is tolerant where the spec is silent
 * (unknown fields kept via looseObject, not-shown fields optional and nullable) and
 * strict where it speaks (types, enums it names).
 */

/** int64 identifiers; JSON numbers, safe-integer range. */
export const id = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** An ISO 8601 date-time; a Spring service may send it with an offset or as local time. */
export const dateTime = z.iso.datetime({ offset: true, local: true });

/** Epoch milliseconds, where the contract says so (timers, bulk cursors). */
export const epochMs = z.number().int();

/**
 * How every field of an answer that may be null is declared: `opt` or `nullable`, never
 * `.nullable()` alone. A service that leaves null members out (Spring's common NON_NULL
 * setting) sends nothing where the contract shows null, so absent must read as null; the
 * walk over every answer schema in shared/api/nullable-fields.test.ts holds every field to it.
 */

/** A field the spec names but does not promise in every answer: absent and null say the same. */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

/** A field the contract promises, null meaning something (the last bulk page): absent is null. */
export const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);

/** An opaque bulk cursor: what the server hands out is what the client can send back. */
export const cursor = z.string().min(1).max(500);

/** A path parameter: an integer in the URL, a number in code. */
export const pathId = z
  .union([z.number(), z.string().regex(/^\d{1,16}$/, 'must be a positive integer')])
  .transform((v) => Number(v))
  .pipe(z.number().int().min(1, 'must be a positive integer').max(Number.MAX_SAFE_INTEGER));

/** The user reference object (createdBy, modifiedBy, deletedBy, user, invitedBy). */
export const userRef = z.looseObject({
  userId: id,
  firstName: opt(z.string()),
  lastName: opt(z.string()),
  email: opt(z.string()),
  profilePicURL: opt(z.string()),
  profilePicName: opt(z.string()),
  profilePicColor: opt(z.string()),
  provider: opt(z.string()),
  newUser: opt(z.boolean()),
  isTourCompleted: opt(z.boolean()),
  about: opt(z.string()),
  updateTime: opt(dateTime),
  expiryDate: opt(dateTime),
  status: opt(z.string()),
  role: opt(z.looseObject({ orgRoleId: opt(id), roleName: opt(z.string()) })),
});
export type UserRef = z.infer<typeof userRef>;

/** `data` of a delete: an empty object (extra fields tolerated). */
export const emptyObject = z.looseObject({});
