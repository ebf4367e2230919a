import type { Clock } from './clock';
import type { Db } from './db/open';
import type { Faults } from './faults';

export type Quirk = 'project-task-create-returns-project';
export const knownQuirks: readonly Quirk[] = ['project-task-create-returns-project'];

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
