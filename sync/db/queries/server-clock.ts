/**
 * The server clock's estimated offset, kept in the replica (`replica_info`), so that a run
 * that starts offline still stamps times for the server in its clock (a timer started on a
 * plane lands at once when the laptop is online again).
 */
import { z } from 'zod';
import type { ClockEstimate } from '../../api';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';

const KEY = 'server_clock';
const stored = z.object({ offsetMs: z.number(), errorMs: z.number().min(0), at: z.number() });

/** A value kept under `key`, checked against `schema` (null: none, or not readable). */
const readKept = <T>(db: Sqlite, key: string, schema: z.ZodType<T>): T | null => {
  const row = stmt(db, 'SELECT value FROM replica_info WHERE key = ?').get(key) as
    | { value: string }
    | undefined;
  if (!row) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

export const readClockEstimate = (db: Sqlite): ClockEstimate | null => readKept(db, KEY, stored);

export const writeClockEstimate = (db: Sqlite, e: ClockEstimate): void => {
  stmt(db, 'INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)').run(
    KEY,
    JSON.stringify({ offsetMs: e.offsetMs, errorMs: e.errorMs, at: e.at }),
  );
};

const WATCH_KEY = 'server_clock_watch';
const watch = z.object({
  /** The process that kept it (its monotonic clock is comparable only within it). */
  origin: z.number(),
  reading: z.object({ local: z.number(), mono: z.number() }).nullable(),
  unsure: z
    .object({
      jumps: z.array(
        z.object({ before: z.number(), ms: z.number(), unseen: z.boolean().optional() }),
      ),
      offsetMs: z.number(),
      errorMs: z.number(),
    })
    .nullable(),
});
export type KeptWatch = z.infer<typeof watch>;

/** The watch of this machine's clock an earlier engine of this replica left (api/server-clock). */
export const readClockWatch = (db: Sqlite): KeptWatch | null => readKept(db, WATCH_KEY, watch);

export const writeClockWatch = (db: Sqlite, w: KeptWatch): void => {
  stmt(db, 'INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)').run(
    WATCH_KEY,
    JSON.stringify(w),
  );
};
