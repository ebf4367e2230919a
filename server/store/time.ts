/** Epoch ms (as stored) to the API's ISO 8601 date-time; null stays null. */
export const iso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

/** An API date-time (already validated by zod) to epoch ms; null/undefined to null. */
export const ms = (value: string | null | undefined): number | null => {
  if (value === null || value === undefined) return null;
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(t) ? null : t;
};
