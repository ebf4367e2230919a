import type { Sqlite } from '../../sync/db/open';
import type { SyncEngine } from '../../sync/engine/engine-api';

/** What a read needs: the current org's replica, who is signed in, and one clock reading. */
export interface ReadContext {
  db: Sqlite;
  userId: number;
  now: number;
  engine: SyncEngine;
  /** The replica's own folder (cached attachments, staged upload copies). */
  filesDir: string;
}
