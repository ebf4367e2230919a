/**
 * The model's time entries: started ones, which run on the user's moves (each at the user's
 * `at` in the server's clock: a sleep counts in a running timer, a step of the user's clock
 * does not), and ones whose start and duration the user gave (a range, manual time, or a stopped
 * entry corrected): a block that the server must hold to the millisecond.
 */
import { expectField, type FieldExpectation, type FieldHistory } from './field-rules';

export type TimerField = 'notes' | 'billing';
export type TimerState = 'RUNNING' | 'PAUSED' | 'STOPPED';
export type TimerMove = 'pause' | 'resume' | 'stop';

/** A start and duration the user gave, in server time; `startTime` null: the one it had. */
export interface TimerBlock {
  startTime: number | null;
  durationSeconds: number;
  /** Where it ends, when not at start + duration (an entry under a second made again: 1 ms). */
  endTime?: number;
}

export interface Timer {
  key: string;
  org: number;
  id: number;
  task: string;
  /** In the server's clock. */
  startAt: number;
  state: TimerState;
  accumulatedMs: number;
  runningSince: number | null;
  stopAt: number | null;
  /** Set by a range, manual time or a correction: the server's record is this block. */
  block: TimerBlock | null;
  deletedAt: number | null;
  /** Gone with its task, deleted by the second client. */
  goneAt: number | null;
  fields: Record<TimerField, FieldHistory>;
  userEdits: number[];
  /** What the entry was before each correction still in force, the last one last. */
  corrections: Array<Pick<Timer, 'block' | 'accumulatedMs'>>;
}

export interface TimerExpectation {
  key: string;
  org: number;
  id: number;
  task: string;
  alive: boolean;
  state: TimerState;
  durationSeconds: number;
  /** In server time (the user's `at` plus the server's offset then, or the start the user gave). */
  startTime: number;
  endTime: number | null;
  /** The user gave its duration (and maybe its start): the record is one block. */
  block: boolean;
  /** The start the user gave: to the millisecond. */
  exact: boolean;
  fields: Record<TimerField, FieldExpectation>;
}

export const newTimer = (
  t: Pick<Timer, 'key' | 'org' | 'id' | 'task' | 'startAt'> & {
    block?: TimerBlock;
    notes?: string | null;
    billing?: string;
  },
): Timer => ({
  key: t.key,
  org: t.org,
  id: t.id,
  task: t.task,
  startAt: t.startAt,
  state: t.block ? 'STOPPED' : 'RUNNING',
  accumulatedMs: t.block ? t.block.durationSeconds * 1000 : 0,
  runningSince: t.block ? null : t.startAt,
  stopAt: t.block ? t.startAt : null,
  block: t.block ?? null,
  deletedAt: null,
  goneAt: null,
  fields: {
    notes: { initial: t.notes ?? null, sets: [], writes: [] },
    billing: { initial: t.billing ?? 'BILLABLE', sets: [], writes: [] },
  },
  userEdits: [],
  corrections: [],
});

export const moveTimer = (t: Timer, move: TimerMove, at: number): void => {
  const ran = t.state === 'RUNNING' && t.runningSince !== null ? at - t.runningSince : 0;
  if (move === 'pause') {
    if (t.state !== 'RUNNING') throw new Error(`pause of a ${t.state} timer`);
    Object.assign(t, { state: 'PAUSED', accumulatedMs: t.accumulatedMs + ran, runningSince: null });
  } else if (move === 'resume') {
    if (t.state !== 'PAUSED') throw new Error(`resume of a ${t.state} timer`);
    Object.assign(t, { state: 'RUNNING', runningSince: at });
  } else {
    if (t.state === 'STOPPED') throw new Error('stop of a stopped timer');
    Object.assign(t, {
      state: 'STOPPED',
      accumulatedMs: t.accumulatedMs + ran,
      runningSince: null,
      stopAt: at,
    });
  }
};

/** A stopped entry's start and duration set by the user (either may be left as it was). */
export const correctTimer = (t: Timer, block: Partial<TimerBlock>): void => {
  if (t.state !== 'STOPPED') throw new Error(`correction of a ${t.state} timer`);
  const durationSeconds = block.durationSeconds ?? Math.floor(t.accumulatedMs / 1000);
  t.corrections.push({ block: t.block, accumulatedMs: t.accumulatedMs });
  t.block = {
    startTime: block.startTime === undefined ? (t.block?.startTime ?? null) : block.startTime,
    durationSeconds,
  };
  t.accumulatedMs = durationSeconds * 1000;
};

/**
 * A correction undone: the entry is what it was before it. The engine drops a correction not
 * yet sent, so the server keeps the record it had (a plain one ends when its stop arrived); one
 * sent is set back with the old values, a block the check accepts for a plain record too. The
 * values set back must be the old ones: anything else is the engine's mistake, not a reading.
 */
export const uncorrectTimer = (t: Timer, block: Partial<TimerBlock>): void => {
  const was = t.corrections.pop();
  if (!was) throw new Error(`undo of a correction of ${t.key} that the model never saw`);
  const seconds = Math.floor(was.accumulatedMs / 1000);
  if (block.durationSeconds !== undefined && block.durationSeconds !== seconds)
    throw new Error(
      `${t.key}: an undone correction set ${block.durationSeconds} s, was ${seconds} s`,
    );
  const start = was.block?.startTime;
  if (block.startTime !== undefined && start != null && block.startTime !== start)
    throw new Error(`${t.key}: an undone correction set start ${block.startTime}, was ${start}`);
  t.block = was.block;
  t.accumulatedMs = was.accumulatedMs;
};

export const timerDurationSeconds = (t: Timer): number => Math.floor(t.accumulatedMs / 1000);

/** Nobody else writes timers: each field is the user's last value. */
export const timerExpectation = (t: Timer, alive: boolean): TimerExpectation => {
  const never = () => false;
  const start = t.block?.startTime ?? t.startAt;
  const durationSeconds = timerDurationSeconds(t);
  return {
    key: t.key,
    org: t.org,
    id: t.id,
    task: t.task,
    alive,
    state: t.state,
    durationSeconds,
    startTime: start,
    endTime: t.block ? (t.block.endTime ?? start + durationSeconds * 1000) : t.stopAt,
    block: t.block !== null,
    exact: t.block !== null && t.block.startTime !== null,
    fields: {
      notes: expectField(t.fields.notes, t.userEdits, never),
      billing: expectField(t.fields.billing, t.userEdits, never),
    },
  };
};
