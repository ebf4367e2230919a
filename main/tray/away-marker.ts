import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AwaySpan } from './away-edits';

/**
 * A shutdown with a running timer: the process ends before the user can be asked, so the moment
 * is written to a small file and the question is asked at the next launch, if that timer still
 * runs. The file is outside input: it passes a schema or is ignored.
 */
export const AWAY_MARKER_FILE = 'away-marker.json';

export const awayMarker = z.object({
  trackId: z.number().int(),
  at: z.number().int().min(0),
});
export type AwayMarker = z.infer<typeof awayMarker>;

export const writeAwayMarker = (dir: string, marker: AwayMarker): void => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, AWAY_MARKER_FILE), JSON.stringify(awayMarker.parse(marker)));
};

/** Reads and removes the marker: it is asked about once. */
export const takeAwayMarker = (dir: string): AwayMarker | null => {
  const file = path.join(dir, AWAY_MARKER_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  rmSync(file, { force: true });
  try {
    const parsed = awayMarker.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/** The span to ask about at launch: only when the same timer is still running. */
export const spanFromMarker = (
  marker: AwayMarker | null,
  active: { trackId: number; state: 'RUNNING' | 'PAUSED' } | null,
  now: number,
): AwaySpan | null =>
  marker &&
  active &&
  active.trackId === marker.trackId &&
  active.state === 'RUNNING' &&
  now > marker.at
    ? { reason: 'shutdown', from: marker.at, to: now }
    : null;
