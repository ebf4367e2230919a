import type { Clock } from './clock';
import type { Db } from './db/open';
import type { Faults } from './faults';

/**
 * Behaviours of real services the client must survive:
 * - project-task-create-returns-project: the create answers the project, not the task;
 * - ignore-idempotency-key: Idempotency-Key is not honoured (a resent POST creates again).
 */
export type Quirk = 'project-task-create-returns-project' | 'ignore-idempotency-key';
export const knownQuirks: readonly Quirk[] = [
  'project-task-create-returns-project',
  'ignore-idempotency-key',
];

/** What every route module gets: the store, the clock and the server's settings. */
export interface ServerDeps {
  db: Db;
  clock: Clock;
  faults: Faults;
  /** Where attachment files live (under the data dir, or a temp dir for an in-memory DB). */
  filesDir: string;
  quirks: ReadonlySet<Quirk>;
  accessTtlSec: number;
  refreshTtlSec: number;
  /** Check every answer against the contract (tests, demo); off for benchmarks. */
  checkResponses: boolean;
}
