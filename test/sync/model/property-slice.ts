/**
 * Issue 14's proof: no edit lost, ever. A model-based property test of the real engine (in a
 * child process, SIGKILLed at random moments) against the real reference server, with faults
 * on every method, the server's clock and this machine's skewed (this machine's stepping and
 * sleeping mid-queue, clock.ts), a second client (the other user's own engine, replica and
 * outbox, editing, creating and deleting the same entities online and offline) and org
 * switches mid-queue. Each case's end state is held to the model's rules (model.ts, check.ts).
 *
 *   MODEL_SEED=<seed> [MODEL_RUNS=n] [MODEL_PATH=<path>] npx vitest run test/sync/model
 *
 * replays a run (the seed is random per run and printed on failure, with fast-check's
 * counterexample path). `npm run soak -- --minutes N` runs fresh seeds for longer.
 *
 * One run is dealt to `SLICES` files (engine-model-<slice>.property.test.ts), so that two
 * workers share it and no file holds the suite (issue 25): all take the same seed and the same
 * cases, and case i is run by slice i mod SLICES, the others passing it untried. A replay by
 * path runs whole in the slice that owns its case. The checks over a whole run (every fault
 * kind met every method; a share of kills in flight) are made by the slice that ends last,
 * on the sum of every slice's figures.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { coverageCases, coverageGaps, totalHits } from './coverage';
import { failureReport, type Harness, modelProperty, startHarness } from './harness';

export const SLICES = 4;

const RUNS = Number(process.env.MODEL_RUNS ?? 200);
const PATH = process.env.MODEL_PATH;
const SHRINK_BUDGET_MS = Number(process.env.MODEL_SHRINK_S ?? 90) * 1000;

/** One seed for every slice of a run: drawn from the run's id (vitest.config.ts). */
const runSeed = (): number =>
  process.env.MODEL_SEED
    ? Number(process.env.MODEL_SEED)
    : createHash('sha256').update(inject('runId')).digest().readUInt32BE(0) % 2_147_483_647;

/** The slice that runs case `index` of the run. */
const ownerOf = (index: number) => index % SLICES;

/** What a slice tells the run of its part. */
interface Part {
  failed: boolean;
  hits: [string, number][];
  kills: number;
  killsInFlight: number;
}

/**
 * Keeps this slice's part; once every slice that runs has told its part (`parts` of them), the
 * one that takes the run's folder answers them all (the others, and the slices before, null).
 */
const partsOfWholeRun = (slice: number, part: Part, parts: number): Part[] | null => {
  const dir = join(tmpdir(), `worktray-model-${inject('runId')}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${slice}.json`), JSON.stringify(part));
  if (readdirSync(dir).length < parts) return null;
  const taken = `${dir}.whole-${slice}`;
  try {
    renameSync(dir, taken);
  } catch {
    return null; // another slice, ending at the same moment, took it
  }
  try {
    return readdirSync(taken).map((f) => JSON.parse(readFileSync(join(taken, f), 'utf8')) as Part);
  } finally {
    rmSync(taken, { recursive: true, force: true });
  }
};

/** The model test's slice `slice` (0 to SLICES − 1), as its file runs it. */
export const describeModelSlice = (slice: number): void => {
  const seed = runSeed();
  // A replay by path is one case and its shrinks, run whole in its owner; a run deals its cases.
  const runsHere = PATH ? ownerOf(Number(PATH.split(':')[0])) === slice : slice < RUNS;
  let harness: Harness | undefined;

  beforeAll(async () => {
    if (runsHere) harness = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await harness?.stop();
  });

  describe(`the engine against the model (issue 14), slice ${slice} of ${SLICES}`, () => {
    it.skipIf(!runsHere)(
      `holds every edit as the user left it, exactly once (${RUNS} cases a run)`,
      async () => {
        const ctx = harness?.ctx;
        if (!ctx) throw new Error('no harness');
        const started = Date.now();
        const owns = PATH ? undefined : (index: number) => ownerOf(index) === slice;
        const result = await fc.check(modelProperty(ctx, SHRINK_BUDGET_MS, owns), {
          numRuns: RUNS,
          seed,
          // The planned cases lead every full run, its replays by path included (a path counts
          // them); a soak's one-case replay (MODEL_RUNS=1) runs just the seed's case.
          ...(RUNS >= 200 ? { examples: coverageCases().map((c) => [c] as [typeof c]) } : {}),
          ...(PATH ? { path: PATH } : {}),
        });
        const s = ctx.stats;
        const figures = {
          seed,
          slice,
          cases: s.cases,
          actions: s.actions,
          actionsPerCase: Number((s.actions / Math.max(1, s.cases)).toFixed(1)),
          kills: s.kills,
          killsInFlight: s.killsInFlight,
          refusedEdits: s.refused,
          seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
        };
        const msBy = Object.fromEntries(
          Object.entries(s.msBy)
            .sort((a, b) => b[1] - a[1])
            .map(([k, v]) => [k, Math.round(v)]),
        );
        const hits = totalHits([ctx.servers.honours, ctx.servers.ignores]);
        console.log(
          [
            `engine model: ${JSON.stringify(figures)}`,
            `actions that did something: ${JSON.stringify(s.byAction)}`,
            `ms by action: ${JSON.stringify(msBy)}`,
            `faults the servers dealt: ${JSON.stringify(Object.fromEntries([...hits].sort()))}`,
          ].join('\n'),
        );
        const all = PATH
          ? null
          : partsOfWholeRun(
              slice,
              {
                failed: result.failed,
                hits: [...hits],
                kills: s.kills,
                killsInFlight: s.killsInFlight,
              },
              Math.min(SLICES, RUNS),
            );
        if (result.failed) throw new Error(failureReport(result, seed, RUNS));
        // The run's other slices passed too (a failed one has said why).
        if (!all || all.some((p) => p.failed)) return;
        const whole: typeof hits = new Map();
        for (const p of all) for (const [k, n] of p.hits) whole.set(k, (whole.get(k) ?? 0) + n);
        const kills = all.reduce((n, p) => n + p.kills, 0);
        const killsInFlight = all.reduce((n, p) => n + p.killsInFlight, 0);
        console.log(`engine model, whole run: ${JSON.stringify({ seed, kills, killsInFlight })}`);
        // Over a whole run (not a replay of one case) every fault kind hit every writing method.
        if (RUNS >= 200) expect(coverageGaps(whole)).toEqual([]);
        // Kills that land between a request and its answer are the ones that test the outbox's
        // records: a fair share of them must have.
        if (kills >= 20) expect(killsInFlight / kills).toBeGreaterThanOrEqual(0.1);
      },
      900_000,
    );
  });
};
