/**
 * A clock a test moves by hand, for an engine's `now` and `schedule` (issue 25): it runs with
 * real time, and `advance(ms)` moves it on at once, firing every armed wait that came due, so a
 * test does not wait out a pull interval in real time. A wait not moved past fires in real time.
 */
export interface SteppedClock {
  now(): number;
  schedule(run: () => void, delayMs: number): () => void;
  advance(ms: number): void;
}

interface Wait {
  at: number;
  run: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

export const steppedClock = (): SteppedClock => {
  let ahead = 0;
  const armed = new Set<Wait>();
  const now = () => Date.now() + ahead;
  const cancel = (w: Wait) => {
    clearTimeout(w.timer);
    return armed.delete(w);
  };
  const fire = (w: Wait) => {
    if (cancel(w)) w.run();
  };
  return {
    now,
    schedule(run, delayMs) {
      const w: Wait = { at: now() + delayMs, run };
      w.timer = setTimeout(() => fire(w), delayMs);
      armed.add(w);
      return () => void cancel(w);
    },
    advance(ms) {
      ahead += ms;
      for (const w of [...armed]) if (w.at <= now()) fire(w);
    },
  };
};
