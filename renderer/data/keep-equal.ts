/**
 * `next` with every part equal to the same part of `prev` replaced by `prev`'s object, and
 * `prev` itself when all of it is equal. A re-read that found nothing new then hands the views
 * the objects they already hold: memoized rows skip, and an unchanged answer renders nothing.
 */
export function keepEqual<T>(prev: unknown, next: T): T {
  if (Object.is(prev, next)) return prev as T;
  if (typeof prev !== 'object' || typeof next !== 'object' || prev === null || next === null)
    return next;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    let same = prev.length === next.length;
    const out = next.map((item: unknown, i) => {
      const kept = keepEqual(prev[i], item);
      if (kept !== prev[i]) same = false;
      return kept;
    });
    return (same ? prev : out) as T;
  }
  if (Array.isArray(prev)) return next;
  const p = prev as Record<string, unknown>;
  const n = next as Record<string, unknown>;
  let same = Object.keys(p).length === Object.keys(n).length;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(n)) {
    const kept = keepEqual(p[k], n[k]);
    out[k] = kept;
    if (kept !== p[k] || !Object.hasOwn(p, k)) same = false;
  }
  return (same ? prev : out) as T;
}
