/**
 * Did the run's faults reach what they are meant to test? Each kind must have hit at least one
 * POST, one PUT and one DELETE (creates, updates, deletes), and latency all three, counted on
 * the server. Random cases reach most pairs; the rare ones (a fault on a DELETE is pending
 * only until the next heal) are made sure of by one planned case per kind, run first.
 */
import type { Case } from './scenario';
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

/** Per fault kind (and latency) a case whose create, update and delete each meet it. */
export const coverageCases = (): Case[] =>
  [...faultKinds, 'latency' as const].map((kind) => {
    const before = (method: (typeof methods)[number]) =>
      kind === 'latency'
        ? ({ a: 'latency' } as const)
        : ({ a: 'fault', kind, method, count: 1 } as const);
    return {
      quirky: false,
      offsetMs: 0,
      clientOffsetMs: 0,
      actions: [
        { a: 'task.create' },
        { a: 'item.create', i: 0 },
        { a: 'sync' },
        before('POST'),
        { a: 'task.create' },
        { a: 'sync' },
        before('PUT'),
        { a: 'task.title', i: 0 },
        { a: 'sync' },
        before('DELETE'),
        { a: 'item.delete', i: 0 },
        { a: 'sync' },
        { a: 'heal' },
        { a: 'sync' },
      ],
    };
  });
