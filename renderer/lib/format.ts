import type { UserRef } from '../../shared/api/common';

/** "Ada Lovelace", else the email, else "User 12". */
export const userName = (u: Pick<UserRef, 'userId' | 'firstName' | 'lastName' | 'email'>) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email || `User ${u.userId}`;

export const initials = (u: Pick<UserRef, 'userId' | 'firstName' | 'lastName' | 'email'>) => {
  const name = userName(u);
  const parts = name.split(/[\s@.]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '')).toUpperCase() || '?';
};

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
