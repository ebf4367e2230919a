import { z } from 'zod';

/**
 * Fault injection for tests and demos. Random faults come from rates (`--faults`), targeted
 * ones from rules set at run time through the admin route (deterministic: "the next 2 GETs
 * of /v1/bulk/tasks answer malformed JSON").
 *   5xx       answer 503 before the handler runs (nothing written)
 *   429       answer 429 with Retry-After (1 s unless told) before the handler runs
 *   reset     destroy the connection before the handler runs (nothing written)
 *   drop      run the handler, commit, then destroy the connection instead of answering
 *   malformed run the handler, then send the body cut in half (invalid JSON, status 200)
 *   gone      answer 410 before the handler runs: a cursor or modifiedSince the service no
 *             longer serves (a client falls back to a fresh bootstrap)
 *   hold      run the handler, commit, then send nothing until released through the admin
 *             route (or until the client's connection closes: the client died, so a test can
 *             kill a client between the server's commit and the client's record of it)
 *   late5xx   run the handler, commit, then answer 503: the write happened, the client is told
 *             it failed (a proxy's or a dying process's answer; a retry must not double it)
 *   latency   wait a random time in [min, max] ms first
 * Every fault that fires is counted by kind and method (`hits`), so a test can tell that a
 * random run did hit a create, an update and a delete with each kind. Requests begun and not
 * yet answered are counted too (`inFlight`): a test that kills a client can tell whether it
 * died with a request on its way.
 */
// New kinds go last: the rate roll walks this order, so a seeded run keeps its faults.
const faultKinds = ['5xx', '429', 'reset', 'drop', 'malformed', 'gone', 'hold', 'late5xx'] as const;
export type FaultKind = (typeof faultKinds)[number];

const rate = z.coerce.number().min(0).max(1);
// 0 is valid HTTP ("again at once") and keeps tests fast.
const retryAfterSec = z.coerce.number().int().min(0).max(3600);

export const faultRatesSchema = z.object({
  '5xx': rate.default(0),
  '429': rate.default(0),
  reset: rate.default(0),
  drop: rate.default(0),
  malformed: rate.default(0),
  gone: rate.default(0),
  hold: rate.default(0),
  late5xx: rate.default(0),
  /** Retry-After of the 429s that rates cause, in seconds. */
  retryAfter: retryAfterSec.default(1),
  latency: z
    .tuple([z.number().int().min(0), z.number().int().min(0)])
    .refine(([a, b]) => a <= b, 'min must not exceed max')
    .optional(),
  seed: z.coerce.number().int().optional(),
});
export type FaultRates = z.infer<typeof faultRatesSchema>;

export const faultRuleSchema = z.object({
  kind: z.enum(faultKinds),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']).optional(),
  /** Matches when the request path (no query) starts with it. */
  pathPrefix: z.string().startsWith('/').optional(),
  /** How many matching requests it hits; then it is spent. */
  count: z.number().int().min(1).max(10_000).default(1),
  /** Retry-After of a `429`, in seconds; 1 when not given. */
  retryAfterSec: z.number().int().min(0).max(3600).optional(),
});
export type FaultRule = z.infer<typeof faultRuleSchema>;

/** Parses `5xx=0.1,reset=0.05,429=0.05,retryAfter=0,latency=20-200,seed=7`. */
export const parseFaultSpec = (spec: string): FaultRates => {
  const raw: Record<string, unknown> = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [key, value] = part.split('=', 2);
    if (!key || value === undefined) throw new Error(`fault "${part}" is not key=value`);
    if (key === 'latency') {
      const m = /^(\d+)(?:-(\d+))?$/.exec(value);
      if (!m) throw new Error(`latency "${value}" is not MIN-MAX milliseconds`);
      raw.latency = [Number(m[1]), Number(m[2] ?? m[1])];
    } else raw[key] = value;
  }
  const parsed = faultRatesSchema.strict().safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `bad --faults "${spec}": ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
};

/** mulberry32: a small seeded generator so that a fault run can be repeated. */
const seeded = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export interface FaultDecision {
  kind: FaultKind | null;
  latencyMs: number;
  /** What a `429` sends as Retry-After. */
  retryAfterSec: number;
}

/** An answer a `hold` keeps back: sent on release, or its connection cut when dropped. */
export interface HeldAnswer {
  release(): void;
  drop(): void;
}

export interface FaultState {
  rates: FaultRates;
  rules: FaultRule[];
  /** Answers held right now. */
  held: number;
  /** Requests begun and not yet answered (or their connection closed) right now. */
  inFlight: number;
  /** Faults that fired since the server started, by `"kind METHOD"`; never reset. */
  hits: Record<string, number>;
}

export interface Faults {
  decide(method: string, path: string): FaultDecision;
  setRates(rates: FaultRates): void;
  addRules(rules: FaultRule[]): void;
  /** Resets rates and rules; held answers and the hit counters stay. */
  clear(): void;
  /** Keeps `answer` until release or drop; the answer calls the returned function when it ends. */
  hold(answer: HeldAnswer): () => void;
  /** A request began; the returned function ends it (once, however often called). */
  began(): () => void;
  /** Sends every held answer; answers how many. */
  release(): number;
  /** Cuts every held answer's connection (the server is closing); answers how many. */
  dropHeld(): number;
  state(): FaultState;
}

export const createFaults = (initial: FaultRates = faultRatesSchema.parse({})): Faults => {
  let rates = initial;
  let random = initial.seed === undefined ? Math.random : seeded(initial.seed);
  let rules: FaultRule[] = [];
  const held = new Set<HeldAnswer>();
  let inFlight = 0;
  const hits = new Map<string, number>();
  const hit = (kind: string, method: string) => {
    const key = `${kind} ${method}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
  };
  // Copied first: each answer leaves the set as it ends.
  const endAll = (end: (answer: HeldAnswer) => void) => {
    const all = [...held];
    for (const answer of all) end(answer);
    return all.length;
  };
  return {
    decide(method, path) {
      const latencyMs = rates.latency
        ? Math.round(rates.latency[0] + random() * (rates.latency[1] - rates.latency[0]))
        : 0;
      if (latencyMs > 0) hit('latency', method);
      const rule = rules.find(
        (r) =>
          (!r.method || r.method === method) && (!r.pathPrefix || path.startsWith(r.pathPrefix)),
      );
      if (rule) {
        rule.count -= 1;
        if (rule.count <= 0) rules = rules.filter((r) => r !== rule);
        hit(rule.kind, method);
        return { kind: rule.kind, latencyMs, retryAfterSec: rule.retryAfterSec ?? 1 };
      }
      let roll = random();
      for (const kind of faultKinds) {
        if (roll < rates[kind]) {
          hit(kind, method);
          return { kind, latencyMs, retryAfterSec: rates.retryAfter };
        }
        roll -= rates[kind];
      }
      return { kind: null, latencyMs, retryAfterSec: rates.retryAfter };
    },
    setRates(next) {
      rates = next;
      random = next.seed === undefined ? Math.random : seeded(next.seed);
    },
    addRules(next) {
      rules = [...rules, ...next.map((r) => ({ ...r }))];
    },
    clear() {
      rates = faultRatesSchema.parse({});
      rules = [];
    },
    hold(answer) {
      held.add(answer);
      return () => {
        held.delete(answer);
      };
    },
    began() {
      inFlight += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight -= 1;
      };
    },
    release: () => endAll((answer) => answer.release()),
    dropHeld: () => endAll((answer) => answer.drop()),
    state: () => ({
      rates,
      rules: rules.map((r) => ({ ...r })),
      held: held.size,
      inFlight,
      hits: Object.fromEntries(hits),
    }),
  };
};
