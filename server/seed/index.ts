import type { ServerDeps } from '../deps';
import { seedBench } from './bench';
import { seedDemo } from './demo';

export type Seed = { kind: 'empty' } | { kind: 'demo' } | { kind: 'bench'; tasks: number };

export const parseSeed = (value: string): Seed => {
  if (value === 'empty' || value === 'demo') return { kind: value };
  const m = /^bench:(\d{1,7})$/.exec(value);
  if (m) return { kind: 'bench', tasks: Number(m[1]) };
  throw new Error(`--seed ${value}: expected demo, empty or bench:N`);
};

/** Seeds once: a data directory that already holds orgs is left as it is. Returns a summary line. */
export const seedDatabase = (deps: ServerDeps, seed: Seed): string | null => {
  if (seed.kind === 'empty') return null;
  const existing = deps.db.prepare('SELECT COUNT(*) AS n FROM orgs').get() as { n: number };
  if (existing.n > 0) return `data already seeded (${existing.n} orgs); seeding skipped`;
  return seed.kind === 'demo' ? seedDemo(deps) : seedBench(deps, seed.tasks);
};
