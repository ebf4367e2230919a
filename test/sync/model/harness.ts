/**
 * What the property test and the soak share: the two servers, the bundled child, the work
 * folder, and the property itself.
 */
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { tempDir } from '../support';
import { newStats, type RunContext } from './case-run';
import { bundleChild } from './child';
import { type Case, caseArb, runCase } from './scenario';
import { startModelServer } from './server-side';

/** Actions per case at most (a case is 3 to this many). */
export const MAX_ACTIONS = 24;
/**
 * How long the end of a case waits for each org's outbox to empty. A sound engine drains in
 * well under a second here (backoff capped at 100 ms, 429s ask for no wait); a case that
 * fails waits all of it, and shrinking meets many.
 */
export const DRAIN_MS = 10_000;

export interface Harness {
  ctx: RunContext;
  stop(): Promise<void>;
}

export const startHarness = async (): Promise<Harness> => {
  const [honours, ignores, bundle] = await Promise.all([
    startModelServer(false),
    startModelServer(true),
    bundleChild(),
  ]);
  const ctx: RunContext = {
    servers: { honours, ignores },
    script: bundle.script,
    workDir: tempDir('wt-model-'),
    child: null,
    spare: null,
    writer: null,
    tokenSink: null,
    stats: newStats(),
    drainMs: DRAIN_MS,
  };
  return {
    ctx,
    async stop() {
      await ctx.child?.stop().catch(() => ctx.child?.kill());
      const spare = await ctx.spare?.catch(() => null);
      await spare?.kill();
      await ctx.writer?.stop().catch(() => ctx.writer?.kill());
      await honours.server.close();
      await ignores.server.close();
      bundle.remove();
      rmSync(ctx.workDir, { recursive: true, force: true });
    },
  };
};

/**
 * The property over cases. Once a case failed, shrinking goes on for `shrinkBudgetMs`; past it
 * every further candidate passes untried, so the smallest failing case found is reported.
 * `owns` deals a run among files (property-slice.ts): a case of the run whose index it does not
 * own passes untried. Until a case fails fast-check calls with the run's cases in order; after
 * one failed, every call is a shrink of a case this file owns.
 */
export const modelProperty = (
  ctx: RunContext,
  shrinkBudgetMs: number,
  owns: (index: number) => boolean = () => true,
) => {
  let firstFailureAt: number | null = null;
  let index = 0;
  const without = (process.env.MODEL_WITHOUT ?? '').split(',').filter(Boolean);
  return fc.asyncProperty(caseArb(MAX_ACTIONS, without), async (one: Case) => {
    if (firstFailureAt === null && !owns(index++)) return;
    if (firstFailureAt !== null && Date.now() - firstFailureAt > shrinkBudgetMs) return;
    try {
      await runCase(ctx, one);
    } catch (error) {
      firstFailureAt ??= Date.now();
      throw error;
    }
  });
};

/** The failure of a run, told with how to replay it. */
export const failureReport = (result: fc.RunDetails<[Case]>, seed: number, runs: number): string =>
  [
    `the engine broke the model (seed ${seed}, after ${result.numRuns} cases, shrunk ${result.numShrinks} times)`,
    `replay the smallest case: MODEL_SEED=${seed} MODEL_PATH=${result.counterexamplePath} npx vitest run test/sync/model`,
    `replay the run: MODEL_SEED=${seed} MODEL_RUNS=${runs} npx vitest run test/sync/model`,
    `counterexample: ${JSON.stringify(result.counterexample?.[0])}`,
    '',
    result.errorInstance instanceof Error
      ? result.errorInstance.message
      : String(result.errorInstance),
  ].join('\n');
