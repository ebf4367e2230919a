/**
 * When background work runs. Reads and validation that follow an edit or prefetch rows must not
 * share a frame with what the user just did: they wait for the frame that paints it, then for
 * idle time (with a deadline, so a busy page still gets them).
 */
export type Cancel = () => void;

const hasIdle = () => typeof requestIdleCallback === 'function';

/** `run` when the main thread is idle, or after `timeoutMs` at the latest. */
export function whenIdle(run: () => void, timeoutMs = 300): Cancel {
  if (hasIdle()) {
    const id = requestIdleCallback(() => run(), { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 1);
  return () => clearTimeout(id);
}

/** `run` in a task after the next frame has painted (a timer set in rAF fires after paint). */
export function afterPaint(run: () => void): Cancel {
  if (typeof requestAnimationFrame !== 'function') {
    const id = setTimeout(run, 0);
    return () => clearTimeout(id);
  }
  let timer: ReturnType<typeof setTimeout> | null = null;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
  };
}

/** `run` after the next paint, in idle time. */
export function afterPaintWhenIdle(run: () => void, timeoutMs = 300): Cancel {
  let cancelIdle: Cancel | null = null;
  const cancelPaint = afterPaint(() => {
    cancelIdle = whenIdle(run, timeoutMs);
  });
  return () => {
    cancelPaint();
    cancelIdle?.();
  };
}
