/**
 * Did the run's faults reach what they are meant to test? Each kind must have hit at least one
 * POST, one PUT and one DELETE (creates, updates, deletes), and latency all three, counted on
 * the server.
 */
import { type FaultHits, faultHits, faultKinds, type ModelServer } from './server-side';

const methods = ['POST', 'PUT', 'DELETE'] as const;

/** The servers' own hit counters, summed. */
export const totalHits = (servers: readonly ModelServer[]): FaultHits => {
  const total: FaultHits = new Map();
  for (const s of servers) for (const [k, n] of faultHits(s)) total.set(k, (total.get(k) ?? 0) + n);
  return total;
};

/** `kind METHOD` pairs that never hit. */
export const coverageGaps = (hits: FaultHits): string[] =>
  [...faultKinds, 'latency'].flatMap((kind) =>
    methods.map((m) => `${kind} ${m}`).filter((k) => (hits.get(k) ?? 0) === 0),
  );
