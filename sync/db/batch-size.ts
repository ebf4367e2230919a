const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(n)));

/**
 * The next batch size of work done a transaction at a time between yields to the event loop:
 * what fits the time budget at the last batch's pace, at most double, 50 to 5,000.
 */
export const nextBatchSize = (size: number, done: number, spentMs: number, budgetMs: number) =>
  done > 0 ? clamp(Math.min(size * 2, (done * budgetMs) / Math.max(spentMs, 1)), 50, 5000) : size;
