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

export const readClockEstimate = (db: Sqlite): ClockEstimate | null => {
  const row = stmt(db, 'SELECT value FROM replica_info WHERE key = ?').get(KEY) as
    | { value: string }
    | undefined;
  if (!row) return null;
  try {
    const parsed = stored.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

export const writeClockEstimate = (db: Sqlite, e: ClockEstimate): void => {
  stmt(db, 'INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)').run(
    KEY,
    JSON.stringify({ offsetMs: e.offsetMs, errorMs: e.errorMs, at: e.at }),
  );
};
