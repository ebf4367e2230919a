/**
 * What a run of the model test keeps across cases (servers, the bundled child, the one
 * long-lived child and its spare, figures), and the state of one running case that its steps
 * and its end share.
 */
import type { EditCommand } from '../../../shared/edits/commands';
import { EngineChild } from './child';
import type { Model } from './model';
import type { UserSteps } from './model-history';
import type { EditAnswer } from './protocol';
import type { SecondClient } from './second-client';
import type { ModelServer, SeededOrg } from './server-side';

export interface RunStats {
  /** Cases run (shrinking's included). */
  cases: number;
  actions: number;
  kills: number;
  /** Kills that landed with a request begun and not yet answered, as the server counts. */
  killsInFlight: number;
  /** Edits the engine refused (e.g. of something its replica does not have yet). */
  refused: number;
  /** Actions that did something, by kind (`no-op`: an edit or write with nothing to act on). */
  byAction: Record<string, number>;
  /** Wall time per action kind and per phase of a case (seed, first open, end), ms. */
  msBy: Record<string, number>;
  /** Wall time of each case that passed, ms. */
  passedMs: number[];
}

export const newStats = (): RunStats => ({
  cases: 0,
  actions: 0,
  kills: 0,
  killsInFlight: 0,
  refused: 0,
  byAction: {},
  msBy: {},
  passedMs: [],
});

/** Adds the time since `t0` to `what`; answers now. */
export const clockIn = (stats: RunStats, what: string, t0: number): number => {
  const now = performance.now();
  stats.msBy[what] = (stats.msBy[what] ?? 0) + (now - t0);
  return now;
};

export interface RunContext {
  servers: { honours: ModelServer; ignores: ModelServer };
  script: string;
  workDir: string;
  child: EngineChild | null;
  /** The next child, started ahead: a kill's restart does not wait for node to load one. */
  spare: Promise<EngineChild> | null;
  /** The second client's process (second-client.ts), started at its first use. */
  writer: EngineChild | null;
  /** The server whose session the children use now (a refreshed pair goes there). */
  tokenSink: ModelServer | null;
  stats: RunStats;
  /** How long the end of a case waits for each org's outbox to empty. */
  drainMs: number;
}

const startChild = (ctx: RunContext): Promise<EngineChild> => {
  const p = EngineChild.spawn(ctx.script, (tokens) => {
    if (ctx.tokenSink) ctx.tokenSink.tokens = tokens;
  });
  // Awaited when taken: a failure to start shows then.
  p.catch(() => {});
  return p;
};

/** The spare child (started now if there is none), with the next spare started behind it. */
export const spawnChild = async (ctx: RunContext): Promise<EngineChild> => {
  const next = ctx.spare ?? startChild(ctx);
  ctx.spare = startChild(ctx);
  return next;
};

const signed = (n: number) => `${n >= 0 ? '+' : ''}${n}`;

/** A case's clocks against the real one, at its start and at its end, for a report. */
export const clocksOf = (
  server: number,
  client: number,
  now: { server: number; client: number },
): string =>
  `server clock ${signed(server)} ms, client clock ${signed(client)} ms` +
  (now.server === server && now.client === client
    ? ''
    : ` (at the end: server ${signed(now.server)}, client ${signed(now.client)})`);

export class CaseFailure extends Error {
  override readonly name = 'CaseFailure';
}

/** One running case. */
export interface CaseRun {
  ctx: RunContext;
  quirky: boolean;
  /**
   * The server's and the child's clocks against the real one, ms, now: the case's skews, moved
   * by sleeps (both) and steps (the child's) (clock.ts).
   */
  clocks: { server: number; client: number };
  /** The case's clocks at its start. */
  skews: { server: number; client: number };
  ms: ModelServer;
  prefix: string;
  orgs: SeededOrg[];
  model: Model;
  /** The model's own undo history of the user's steps. */
  steps: UserSteps;
  /** What the last action did, when its step says so itself (an undo: `undo` or `no-op`). */
  did: string | undefined;
  dataDir: string;
  /** The org open now (0 or 1), and those opened in this case. */
  current: number;
  opened: Set<number>;
  /** Every action with what it did, for the report. */
  log: string[];
  /** The last time the user and the writer touched each task (an item's: its task's). */
  touched: Record<'user' | 'writer', Map<string, number>>;
  second: SecondClient;
  /** Numbers the case's names: t3, c4, `<prefix>u5`. */
  n: number;
  child(): EngineChild;
  /** Opens an org's engine (awaiting its first fill the first time). */
  open(org: number): Promise<void>;
  close(): Promise<void>;
  /** A user edit through the child: its answer, or null when the engine refused it. */
  edit(command: EditCommand, what: string): Promise<EditAnswer | null>;
}
