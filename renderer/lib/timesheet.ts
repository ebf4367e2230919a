import type { TimesheetView } from '../../shared/bridge';
import { DAY_MS } from './dates';

/** Monday 00:00 UTC of the week holding `ms` (days are UTC, like the host's summary). */
export const weekStart = (ms: number) => {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return day - weekday * DAY_MS;
};

export interface WeekGrid {
  days: number[];
  /** One row per project (null id: personal tasks), seconds per day and in all. */
  rows: { projectId: number | null; name: string; perDay: number[]; total: number }[];
  dayTotals: number[];
  total: number;
}

/** Seconds per project per day, from the entries (an entry counts on the day it started). */
export function weekGrid(view: TimesheetView): WeekGrid {
  const days = Array.from(
    { length: Math.round((view.to - view.from) / DAY_MS) },
    (_, i) => view.from + i * DAY_MS,
  );
  const names = new Map(
    view.projects.map((p) => [p.projectId, p.projectName ?? 'Untitled project']),
  );
  const rows = new Map<number | null, number[]>();
  for (const e of view.entries) {
    const i = Math.floor((e.startTime - view.from) / DAY_MS);
    if (i < 0 || i >= days.length) continue;
    const key = e.projectId ?? null;
    const row = rows.get(key) ?? days.map(() => 0);
    row[i] = (row[i] ?? 0) + e.durationSeconds;
    rows.set(key, row);
  }
  const out = [...rows.entries()]
    .map(([projectId, perDay]) => ({
      projectId,
      name:
        projectId === null ? 'Personal tasks' : (names.get(projectId) ?? `Project ${projectId}`),
      perDay,
      total: perDay.reduce((a, b) => a + b, 0),
    }))
    .sort((a, b) => b.total - a.total);
  const dayTotals = days.map((_, i) => out.reduce((s, r) => s + (r.perDay[i] ?? 0), 0));
  return { days, rows: out, dayTotals, total: dayTotals.reduce((a, b) => a + b, 0) };
}

const csvCell = (v: string | number) => {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The week's table as CSV: one row per project, one column per day, hours with 2 decimals. */
export function weekCsv(grid: WeekGrid): string {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const h = (s: number) => (s / 3600).toFixed(2);
  const lines = [
    ['Project', ...grid.days.map(day), 'Total'],
    ...grid.rows.map((r) => [r.name, ...r.perDay.map(h), h(r.total)]),
    ['Total', ...grid.dayTotals.map(h), h(grid.total)],
  ];
  return `${lines.map((l) => l.map(csvCell).join(',')).join('\n')}\n`;
}
