/**
 * Query strings the Spring way: an array is a repeated parameter (`status=A&status=B`,
 * `sort=createdTime,desc&sort=taskId,asc`), undefined and null are left out, and a
 * structured value (the `customFields` conditions) travels as one JSON string.
 */

type Scalar = string | number | boolean | bigint;

const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint';

const scalarText = (v: Scalar | Date): string => (v instanceof Date ? v.toISOString() : String(v));

/** `?a=1&a=2&b=x`, or '' when nothing is left to send. */
export const serializeQuery = (query: unknown): string => {
  if (query === undefined || query === null || typeof query !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const items = value.filter((v) => v !== undefined && v !== null);
      if (items.every((v) => isScalar(v) || v instanceof Date))
        for (const v of items) params.append(key, scalarText(v as Scalar | Date));
      else params.append(key, JSON.stringify(items));
    } else if (value instanceof Date || isScalar(value)) {
      params.append(key, scalarText(value));
    } else {
      params.append(key, JSON.stringify(value));
    }
  }
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
};
