import type { z } from 'zod';
import type { FieldError } from '../../shared/api';

const statusNames: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  421: 'MISDIRECTED_REQUEST',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

const statusName = (code: number): string => statusNames[code] ?? 'INTERNAL_SERVER_ERROR';

/** A refusal the handler means: it becomes an ApiError answer with this status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
    /** The handler's writes are committed before the refusal is answered. */
    readonly keepWrites = false,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fieldErrors: FieldError[] = []) =>
  new HttpError(400, message, fieldErrors);
export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const conflict = (message: string) => new HttpError(409, message);
export const unauthorized = (message: string) => new HttpError(401, message);

/** Fields whose value is a secret: a refusal names them but never echoes what was sent. */
const secretField = /pass(word)?|token|secret|authorization|api.?key/i;

/** Field errors from a zod failure; `prefix` names where the input came from. */
export const fieldErrorsOf = (error: z.ZodError, input: unknown): FieldError[] =>
  error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || '(root)';
    if (issue.path.some((key) => secretField.test(String(key))))
      return { field, message: issue.message };
    let rejected: unknown = input;
    for (const key of issue.path) {
      rejected =
        rejected !== null && typeof rejected === 'object'
          ? (rejected as Record<PropertyKey, unknown>)[key as PropertyKey]
          : undefined;
    }
    return rejected === undefined
      ? { field, message: issue.message }
      : { field, message: issue.message, rejectedValue: rejected };
  });

export const apiErrorBody = (
  code: number,
  message: string,
  path: string,
  now: number,
  errors?: FieldError[],
) => ({
  success: false as const,
  message,
  code,
  status: statusName(code),
  path,
  timestamp: new Date(now).toISOString(),
  ...(errors && errors.length > 0 ? { errors } : {}),
});
