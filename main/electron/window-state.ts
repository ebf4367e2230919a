import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * Where the window was and how big, remembered across launches. The file is input from outside
 * the process (a user or a crash can leave anything there): it passes a schema, and bounds that
 * no longer fit any display (a monitor was unplugged) fall back to the default placement.
 */

const coordinate = z.number().int().min(-100_000).max(100_000);
const extent = z.number().int().min(1).max(100_000);

export const savedWindowState = z.object({
  x: coordinate,
  y: coordinate,
  width: extent,
  height: extent,
  maximized: z.boolean(),
});
export type SavedWindowState = z.infer<typeof savedWindowState>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowPlacement {
  /** Absent: let the OS centre the window. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const MIN_WIDTH = 720;
export const MIN_HEIGHT = 480;
export const DEFAULT_SIZE = { width: 1280, height: 820 } as const;
/** How much of the title bar must be on a display for saved bounds to be used as they are. */
const GRAB_MARGIN = 48;

const overlap = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/**
 * The placement for a new window: the saved bounds when their title bar is reachable on one of
 * the displays' work areas (shrunk to fit that display), else the default size, centred.
 */
export const placeWindow = (
  saved: SavedWindowState | null,
  workAreas: readonly Rect[],
): WindowPlacement => {
  const fallback = (area: Rect | undefined): WindowPlacement => ({
    width: Math.max(MIN_WIDTH, Math.min(DEFAULT_SIZE.width, area?.width ?? DEFAULT_SIZE.width)),
    height: Math.max(
      MIN_HEIGHT,
      Math.min(DEFAULT_SIZE.height, area?.height ?? DEFAULT_SIZE.height),
    ),
    maximized: saved?.maximized ?? false,
  });
  if (!saved) return fallback(workAreas[0]);
  const titleBar: Rect = { x: saved.x, y: saved.y, width: saved.width, height: GRAB_MARGIN };
  const host = workAreas.find((area) => overlap(titleBar, area) >= GRAB_MARGIN * GRAB_MARGIN);
  if (!host) return fallback(workAreas[0]);
  const width = Math.max(MIN_WIDTH, Math.min(saved.width, host.width));
  const height = Math.max(MIN_HEIGHT, Math.min(saved.height, host.height));
  const x = Math.min(Math.max(saved.x, host.x), host.x + host.width - Math.min(width, host.width));
  const y = Math.min(
    Math.max(saved.y, host.y),
    host.y + host.height - Math.min(height, host.height),
  );
  return { x, y, width, height, maximized: saved.maximized };
};

export const WINDOW_STATE_FILE = 'window-state.json';

/** The saved state, or null when there is none or it does not pass the schema. */
export const loadWindowState = (dir: string): SavedWindowState | null => {
  let text: string;
  try {
    text = readFileSync(path.join(dir, WINDOW_STATE_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = savedWindowState.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/** Written to a temporary file and renamed, so a crash mid-write leaves the old state. */
export const saveWindowState = (dir: string, state: SavedWindowState): void => {
  const valid = savedWindowState.parse(state);
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, WINDOW_STATE_FILE);
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(valid));
  renameSync(temp, target);
};

/** Rounds what Electron reports (fractional on scaled displays) into a savable state. */
export const windowStateOf = (bounds: Rect, maximized: boolean): SavedWindowState => ({
  x: Math.round(bounds.x),
  y: Math.round(bounds.y),
  width: Math.max(1, Math.round(bounds.width)),
  height: Math.max(1, Math.round(bounds.height)),
  maximized,
});
