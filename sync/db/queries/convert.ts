/** Conversions between the API's shapes and replica columns. */

/** ISO date-time (or null) → epoch ms (or null). Local times without an offset are UTC. */
export const toMs = (value: string | null | undefined): number | null => {
  if (value === null || value === undefined) return null;
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(t) ? null : t;
};

export const toIso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

export const bit = (v: boolean | null | undefined): number => (v ? 1 : 0);

/**
 * Fields of the server's answer that this version does not model, kept as JSON so that a
 * newer service's data survives a round trip through the replica. Null when there are none.
 */
export const extraOf = (
  obj: Record<string, unknown>,
  known: ReadonlySet<string>,
): string | null => {
  let extra: Record<string, unknown> | null = null;
  for (const key of Object.keys(obj)) {
    if (known.has(key)) continue;
    extra ??= {};
    extra[key] = obj[key];
  }
  return extra ? JSON.stringify(extra) : null;
};

export const parseExtra = (extra: string | null): Record<string, unknown> =>
  extra ? (JSON.parse(extra) as Record<string, unknown>) : {};
