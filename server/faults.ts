import { z } from 'zod';

/**
 * Fault injection for tests and demos. Random faults come from rates (`--faults`), targeted
 * ones from rules set at run time through the admin route (deterministic: "the next 2 GETs
 * of /v1/bulk/tasks answer malformed JSON").
 *   5xx       answer 503 before the handler runs (nothing written)
 *   429       answer 429 with Retry-After: 1 before the handler runs
 *   reset     destroy the connection before the handler runs (nothing written)
 *   drop      run the handler, commit, then destroy the connection instead of answering
 *   malformed run the handler, then send the body cut in half (invalid JSON, status 200)
 *   gone      answer 410 before the handler runs: a cursor or modifiedSince the service no
 *             longer serves (a client falls back to a fresh bootstrap)
 *   latency   wait a random time in [min, max] ms first
 */
export const faultKinds = ['5xx', '429', 'reset', 'drop', 'malformed', 'gone'] as const;
export type FaultKind = (typeof faultKinds)[number];

const rate = z.coerce.number().min(0).max(1);

export const faultRatesSchema = z.object({
  '5xx': rate.default(0),
  '429': rate.default(0),
  reset: rate.default(0),
  drop: rate.default(0),
  malformed: rate.default(0),
  gone: rate.default(0),
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
});
export type FaultRule = z.infer<typeof faultRuleSchema>;

/** Parses `5xx=0.1,reset=0.05,429=0.05,latency=20-200,seed=7`. */
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
}

export interface Faults {
  decide(method: string, path: string): FaultDecision;
  setRates(rates: FaultRates): void;
  addRules(rules: FaultRule[]): void;
  clear(): void;
  state(): { rates: FaultRates; rules: FaultRule[] };
}

export const createFaults = (initial: FaultRates = faultRatesSchema.parse({})): Faults => {
  let rates = initial;
  let random = initial.seed === undefined ? Math.random : seeded(initial.seed);
  let rules: FaultRule[] = [];
  return {
    decide(method, path) {
      const latencyMs = rates.latency
        ? Math.round(rates.latency[0] + random() * (rates.latency[1] - rates.latency[0]))
        : 0;
      const rule = rules.find(
        (r) =>
          (!r.method || r.method === method) && (!r.pathPrefix || path.startsWith(r.pathPrefix)),
      );
      if (rule) {
        rule.count -= 1;
        if (rule.count <= 0) rules = rules.filter((r) => r !== rule);
        return { kind: rule.kind, latencyMs };
      }
      let roll = random();
      for (const kind of faultKinds) {
        if (roll < rates[kind]) return { kind, latencyMs };
        roll -= rates[kind];
      }
      return { kind: null, latencyMs };
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
    state: () => ({ rates, rules: rules.map((r) => ({ ...r })) }),
  };
};
