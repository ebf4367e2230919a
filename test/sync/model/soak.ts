/**
 * The model test for as long as asked: one case per fresh random seed, each failure's seed
 * printed as it happens (with its report), and one JSON line of figures at the end.
 *   npm run soak -- --minutes N [--shrink SECONDS]
 * A failing seed replays (and shrinks) with `MODEL_SEED=<seed> MODEL_RUNS=1 npx vitest run
 * test/sync/model`.
 */
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { coverageGaps, totalHits } from './coverage';
import { failureReport, modelProperty, startHarness } from './harness';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, shrink: { type: 'string', default: '0' } },
});
const minutes = Number(values.minutes);
const shrinkMs = Number(values.shrink) * 1000;
if (!Number.isFinite(minutes) || minutes <= 0)
  throw new Error('--minutes must be a positive number');

const harness = await startHarness();
const deadline = Date.now() + minutes * 60_000;
let cases = 0;
const seeds: number[] = [];
let gaps: string[] = [];
try {
  while (Date.now() < deadline) {
    const seed = randomInt(2_147_483_647);
    cases++;
    const result = await fc.check(modelProperty(harness.ctx, shrinkMs), {
      numRuns: 1,
      seed,
      // Without a shrink budget a failure is told as it came.
      ...(shrinkMs > 0 ? {} : { endOnFailure: true }),
    });
    if (result.failed) {
      seeds.push(seed);
      console.log(
        `\nFAILED seed ${seed}: MODEL_SEED=${seed} MODEL_RUNS=1 npx vitest run test/sync/model`,
      );
      console.log(failureReport(result, seed, 1));
    } else process.stdout.write('.');
  }
} finally {
  const hits = totalHits([harness.ctx.servers.honours, harness.ctx.servers.ignores]);
  gaps = coverageGaps(hits);
  await harness.stop();
}
const s = harness.ctx.stats;
const passed = [...s.passedMs].sort((a, b) => a - b);
const median = passed[Math.floor(passed.length / 2)] ?? 0;
console.log(
  `\n${JSON.stringify({
    minutes,
    cases,
    failures: seeds.length,
    seeds,
    runs: s.cases,
    actions: s.actions,
    kills: s.kills,
    passedCaseMedianMs: Math.round(median),
    passedCaseMeanMs: Math.round(passed.reduce((a, b) => a + b, 0) / Math.max(1, passed.length)),
    faultsThatNeverHit: gaps,
    byAction: s.byAction,
  })}`,
);
process.exit(seeds.length > 0 ? 1 : 0);
