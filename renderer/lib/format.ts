import type { UserRef } from '../../shared/api/common';

export const DAY_MS = 86_400_000;

/** "Ada Lovelace", else the email, else "User 12". */
export const userName = (u: Pick<UserRef, 'userId' | 'firstName' | 'lastName' | 'email'>) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email || `User ${u.userId}`;

export const initials = (u: Pick<UserRef, 'userId' | 'firstName' | 'lastName' | 'email'>) => {
  const name = userName(u);
  const parts = name.split(/[\s@.]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '')).toUpperCase() || '?';
};

const dateFmt = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const dateYearFmt = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});
const timeFmt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** "Mar 3" this year, "Mar 3, 2025" otherwise; null and bad input give "". */
export function shortDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return d.getFullYear() === new Date().getFullYear() ? dateFmt.format(d) : dateYearFmt.format(d);
}

export const clockTime = (ms: number) => timeFmt.format(new Date(ms));

/** "2m ago", "3h ago", else a date. */
export function ago(ms: number | null, now = Date.now()): string {
  if (ms === null) return 'never';
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
  return shortDate(ms);
}

/** 5400 → "1:30:00" (timers) */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
}

/** 5400 → "1h 30m" (sums); under a minute, seconds: 3 → "3s". */
export function hours(seconds: number): string {
  if (seconds > 0 && seconds < 60) return `${Math.floor(seconds)}s`;
  const m = Math.round(seconds / 60);
  const h = Math.floor(m / 60);
  return h ? `${h}h ${String(m % 60).padStart(2, '0')}m` : `${m}m`;
}

/** An `<input type="date">` value ("2026-03-04") for an ISO date-time, in UTC. */
export const isoToDateInput = (iso: string | null | undefined) =>
  iso ? new Date(iso).toISOString().slice(0, 10) : '';

/** "2026-03-04" → ISO date-time at UTC noon (a calendar day survives every time zone). */
export const dateInputToIso = (value: string) => (value ? `${value}T12:00:00.000Z` : null);

/** "2026-03-04" → epoch ms of that UTC midnight; "" → undefined. */
export const dateInputToMs = (value: string) =>
  value ? Date.parse(`${value}T00:00:00.000Z`) : undefined;

export const msToDateInput = (ms: number | undefined) =>
  ms === undefined ? '' : new Date(ms).toISOString().slice(0, 10);

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** "report.final.pdf" → ["report.final", "pdf"] */
export function splitExtension(fileName: string): [string, string] {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0) return [fileName, ''];
  return [fileName.slice(0, dot), fileName.slice(dot + 1)];
}

export const isCompleted = (t: { completion?: number | null; completedTime?: string | null }) =>
  (t.completion ?? 0) >= 100 || Boolean(t.completedTime);
