import type { Timesheet, TimesheetSummary } from '../../shared/api';
import type { Db } from '../db/open';
import { badRequest, notFound } from '../http/errors';
import { type TimerRow, timerColumns, timerDto } from './timers';

/**
 * Timesheets over the window [from, to) in epoch ms. An entry belongs to the window when it
 * starts in it or its span overlaps it; an open (running or paused) timer spans until now.
 * Totals add the entries' whole durations (not clipped to the window), so a sheet's total is
 * always the sum of the rows it shows.
 */
export interface Window {
  from: number;
  to: number;
}

export const checkWindow = (w: Window): Window => {
  if (w.from >= w.to)
    throw badRequest('invalid query parameters', [
      { field: 'to', message: 'must be after from', rejectedValue: w.to },
    ]);
  return w;
};

const overlaps = 'start_time < ? AND (start_time >= ? OR COALESCE(end_time, ?) > ?)';
const overlapArgs = (w: Window, now: number) => [w.to, w.from, now, w.from];

const sheet = (rows: TimerRow[], w: Window, now: number): Timesheet => {
  const entries = rows.map((r) => timerDto(r, now));
  return {
    from: w.from,
    to: w.to,
    totalSeconds: entries.reduce((n, e) => n + e.durationSeconds, 0),
    entries,
  };
};

/** The caller's own entries in the org. */
export const userTimesheet = (
  db: Db,
  who: { userId: number; orgId: number; now: number },
  w: Window,
): Timesheet => {
  const rows = db
    .prepare(
      `SELECT ${timerColumns} FROM timers WHERE org_id = ? AND user_id = ? AND ${overlaps} ORDER BY start_time, track_id`,
    )
    .all(who.orgId, who.userId, ...overlapArgs(w, who.now)) as TimerRow[];
  return sheet(rows, w, who.now);
};

const projectRows = (
  db: Db,
  orgId: number,
  projectId: number,
  w: Window,
  now: number,
): TimerRow[] => {
  const project = db
    .prepare('SELECT 1 FROM projects WHERE project_id = ? AND org_id = ? AND deleted = 0')
    .get(projectId, orgId);
  if (!project) throw notFound(`project ${projectId}`);
  return db
    .prepare(
      `SELECT ${timerColumns} FROM timers WHERE project_id = ? AND org_id = ? AND ${overlaps} ORDER BY start_time, track_id`,
    )
    .all(projectId, orgId, ...overlapArgs(w, now)) as TimerRow[];
};

/** Every user's entries on the project's tasks. */
export const projectTimesheet = (
  db: Db,
  orgId: number,
  projectId: number,
  w: Window,
  now: number,
): Timesheet => sheet(projectRows(db, orgId, projectId, w, now), w, now);

const ranked = <K extends string>(totals: Map<number, number>, key: K) =>
  [...totals]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id, seconds]) => ({ [key]: id, seconds }) as { [P in K]: number } & { seconds: number });

/** Totals of the project sheet; byUser and byTask largest first. */
export const projectTimesheetSummary = (
  db: Db,
  orgId: number,
  projectId: number,
  w: Window,
  now: number,
): TimesheetSummary => {
  const { entries, totalSeconds } = projectTimesheet(db, orgId, projectId, w, now);
  let billableSeconds = 0;
  const byUser = new Map<number, number>();
  const byTask = new Map<number, number>();
  for (const e of entries) {
    if (e.billingStatus === 'BILLABLE') billableSeconds += e.durationSeconds;
    byUser.set(e.userId, (byUser.get(e.userId) ?? 0) + e.durationSeconds);
    byTask.set(e.taskId, (byTask.get(e.taskId) ?? 0) + e.durationSeconds);
  }
  return {
    projectId,
    from: w.from,
    to: w.to,
    totalSeconds,
    billableSeconds,
    nonBillableSeconds: totalSeconds - billableSeconds,
    byUser: ranked(byUser, 'userId'),
    byTask: ranked(byTask, 'taskId'),
  };
};
