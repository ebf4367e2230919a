import { serverDataTables } from './migrations';
import { openReplicaFile, openSqlite, type ReplicaKey, type Sqlite } from './open';
import { writeTx } from './write-tx';

/**
 * The local replica of one (server, user, org): a cache of server data plus sync state.
 * Everything else in the file (the outbox, later) survives `wipeServerData`.
 */
/**
 * Runs at the end of every server-data transaction, inside it, with the entities the server
 * just wrote: the outbox re-applies pending edits on top (a pull never hides a local edit).
 */
export type ServerWriteHook = (
  db: Sqlite,
  touched: ReadonlySet<string>,
  /** Of those, the entities written from the answer to this engine's own edit. */
  own: ReadonlySet<string>,
) => void;

export class Replica {
  private readonly touched = new Set<string>();
  private readonly own = new Set<string>();
  private hook: ServerWriteHook | null = null;

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
    writeTx(this.db, () => {
      for (const table of serverDataTables) this.db.prepare(`DELETE FROM ${table}`).run();
      this.db.prepare(`INSERT INTO tasks_fts(tasks_fts) VALUES ('delete-all')`).run();
    });
  }

  /** Writes server data: call `noteServerWrite` inside for what changed. */
  transaction<T>(fn: () => T): T {
    try {
      return writeTx(this.db, () => {
        const result = fn();
        if (this.hook && this.touched.size > 0) this.hook(this.db, this.touched, this.own);
        return result;
      });
    } finally {
      this.touched.clear();
      this.own.clear();
    }
  }

  /**
   * Entity keys (`task:12`) the server wrote in this transaction; `task:*` for every one.
   * `own`: written from the answer to this engine's own edit (nobody else's values in it).
   */
  noteServerWrite(keys: Iterable<string>, options: { own?: boolean } = {}): void {
    for (const k of keys) {
      this.touched.add(k);
      if (options.own) this.own.add(k);
    }
  }

  onServerWrite(hook: ServerWriteHook | null): void {
    this.hook = hook;
  }

  close(): void {
    this.db.close();
  }
}
