import { describe, expect, it } from 'vitest';
import { nextScrollSpeed, type ScrollSpeed } from './fast-scroll';

/** Renders at `ms` intervals, moving `px` each, starting from a resting list. */
const run = (frames: number, px: number, ms: number, from: ScrollSpeed = rest) => {
  let s = from;
  const seen: boolean[] = [];
  for (let i = 1; i <= frames; i++) {
    s = nextScrollSpeed(s, s.offset + px, true, from.at + i * ms);
    seen.push(s.fast);
  }
  return { s, seen };
};
const rest: ScrollSpeed = { offset: 0, at: 1000, fast: false };

describe('nextScrollSpeed', () => {
  it('turns light for a fling, not for a slow wheel', () => {
    expect(run(20, 240, 16).s.fast).toBe(true);
    expect(run(40, 16, 16).seen.some(Boolean)).toBe(false);
  });

  it('judges over a window, so one short frame does not flip it', () => {
    // 32 px in a 4 ms frame is 8 px/ms, but over 50 ms the list moves slowly.
    let s = nextScrollSpeed(rest, 32, true, 1004);
    expect(s.fast).toBe(false);
    s = nextScrollSpeed(s, 40, true, 1060);
    expect(s.fast).toBe(false);
  });

  it('stays light while the scroll slows, and turns full when it stops', () => {
    const fling = run(10, 240, 16).s;
    const slowing = run(20, 4, 16, fling);
    expect(slowing.seen.every(Boolean)).toBe(true);
    expect(nextScrollSpeed(slowing.s, slowing.s.offset, false, slowing.s.at + 200).fast).toBe(
      false,
    );
  });
});
