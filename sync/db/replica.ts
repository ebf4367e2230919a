import { serverDataTables } from './migrations';
import { openReplicaFile, openSqlite, type ReplicaKey, type Sqlite } from './open';

/**
 * The local replica of one (server, user, org): a cache of server data plus sync state.
 * Everything else in the file (the outbox, later) survives `wipeServerData`.
 */
export class Replica {
  private constructor(
    readonly db: Sqlite,
    readonly key: ReplicaKey | null,
  ) {}

  static open(dataDir: string, key: ReplicaKey): Replica {
    return new Replica(openReplicaFile(dataDir, key), key);
  }

  /** An unnamed replica in memory or at a path (tests, benchmarks). */
  static openFile(file: string): Replica {
    return new Replica(openSqlite(file), null);
  }

  /** Empties the server data and the sync state, in one transaction; nothing else is touched. */
  wipeServerData(): void {
    this.db.transaction(() => {
      for (const table of serverDataTables) this.db.prepare(`DELETE FROM ${table}`).run();
      this.db.prepare(`INSERT INTO tasks_fts(tasks_fts) VALUES ('delete-all')`).run();
    })();
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    this.db.close();
  }
}
