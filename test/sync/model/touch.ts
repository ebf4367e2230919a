/**
 * Which of the user and the second client touched each task last, and when: a margin of real
 * time is kept between the two sides' changes of one task, so which came after is never in
 * doubt. And the small pick both sides choose their targets with.
 */
import type { CaseRun } from './case-run';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Real time kept between the two sides' changes of one task (or of items on it). */
const MARGIN_MS = 30;

/** The task a write or an edit concerns (an item's task): margins are kept per task. */
const taskOf = (run: CaseRun, key: string) => run.model.entities.get(key)?.task ?? key;

/** Sleeps until `MARGIN_MS` have passed since the other side last touched the task. */
export const margin = async (run: CaseRun, key: string, side: 'user' | 'writer') => {
  const other = run.touched[side === 'user' ? 'writer' : 'user'].get(taskOf(run, key));
  if (other === undefined) return;
  const wait = other + MARGIN_MS + 1 - Date.now();
  if (wait > 0) await sleep(wait);
};
export const mark = (run: CaseRun, key: string, side: 'user' | 'writer', at: number) =>
  run.touched[side].set(taskOf(run, key), at);

export const pickOf = <T>(xs: readonly T[], n: number): T | undefined =>
  xs.length === 0 ? undefined : xs[n % xs.length];
