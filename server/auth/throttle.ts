/**
 * Failed sign-ins per account and peer: after `limit` failures within `windowMs`, further
 * tries wait (429 with Retry-After) until the oldest of them leaves the window. Per account
 * *and* peer: a guesser elsewhere cannot lock the owner out, and one peer cannot go on
 * guessing one account. In memory: a restart forgets, which costs a guesser a restart.
 */
export interface SignInThrottle {
  /** Seconds to wait before `key` may try again, or 0. */
  retryAfterSec(key: string, now: number): number;
  failed(key: string, now: number): void;
  succeeded(key: string): void;
}

export const createSignInThrottle = (
  limit = 5,
  windowMs = 60_000,
  maxKeys = 10_000,
): SignInThrottle => {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) =>
    (failures.get(key) ?? []).filter((t) => t > now - windowMs);
  return {
    retryAfterSec(key, now) {
      const times = recent(key, now);
      if (times.length < limit) return 0;
      const oldest = times[times.length - limit] ?? now;
      return Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    },
    failed(key, now) {
      const times = recent(key, now);
      times.push(now);
      failures.delete(key);
      failures.set(key, times.slice(-limit));
      // Bounded: the longest-quiet keys go first (a Map keeps insertion order).
      while (failures.size > maxKeys) {
        const first = failures.keys().next().value;
        if (first === undefined) break;
        failures.delete(first);
      }
    },
    succeeded(key) {
      failures.delete(key);
    },
  };
};
