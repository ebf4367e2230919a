import { useRef } from 'react';

/**
 * Faster than this (px per ms, about a row per 16 ms frame) a list draws light rows: nobody
 * reads a row that is on screen for a frame or two, and a full row costs the frame it mounts in.
 */
export const FAST_PX_PER_MS = 2;
/** The speed is taken over at least this long: single frames are too uneven. */
export const SPEED_WINDOW_MS = 50;

export interface ScrollSpeed {
  offset: number;
  at: number;
  fast: boolean;
}

/**
 * The next state after a render at `offset`. Once fast, it stays fast until the scroll stops:
 * flipping every row between light and full mid-scroll would cost more than either.
 */
export function nextScrollSpeed(
  s: ScrollSpeed,
  offset: number,
  scrolling: boolean,
  now: number,
): ScrollSpeed {
  if (!scrolling) return { offset, at: now, fast: false };
  if (now - s.at < SPEED_WINDOW_MS) return s;
  const fast = s.fast || Math.abs(offset - s.offset) / (now - s.at) > FAST_PX_PER_MS;
  return { offset, at: now, fast };
}

/** Whether the list is moving faster than rows can be read (each scroll event renders once). */
export function useFastScroll(offset: number, scrolling: boolean): boolean {
  const state = useRef<ScrollSpeed>({ offset, at: 0, fast: false });
  state.current = nextScrollSpeed(state.current, offset, scrolling, performance.now());
  return state.current.fast;
}
