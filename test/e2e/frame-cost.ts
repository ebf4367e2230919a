import type { Browser, Page } from 'playwright-core';

/**
 * The main-thread cost of each frame, from a Chrome trace. A headless Chromium's rAF delta
 * does not show a frame's own cost (an idle page's p95 delta is ~18 ms: the deltas wait on the
 * display compositor), so the page marks each rAF callback with `performance.mark(MARK)` and a
 * frame's cost is what the renderer's main thread ran between two marks: every top-level task
 * (`ThreadControllerImpl::RunTask`: script, React, style, layout, paint recording, input and
 * network callbacks) clipped to that window. `cpuMs` is the thread's CPU time in it (immune to
 * other processes taking the core), `wallMs` its wall time. Raster and compositing run on other
 * threads and are not counted.
 */
export const FRAME_MARK = 'wt-frame';

/** The categories the measurement needs, and no more (tracing costs time too). */
export const frameCostCategories = ['toplevel', 'blink.user_timing'];

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
}

export interface FrameCost {
  wallMs: number;
  cpuMs: number;
}

const TASK = 'ThreadControllerImpl::RunTask';

/** Per frame between consecutive marks, what the marking thread ran in it. */
export function frameCosts(events: readonly TraceEvent[], mark = FRAME_MARK): FrameCost[] {
  const marks = events.filter((e) => e.name === mark).sort((a, b) => a.ts - b.ts);
  const first = marks[0];
  if (!first) return [];
  // The marks come from the page's main thread: that is the thread measured.
  const tasks = events
    .filter(
      (e) => e.name === TASK && e.ph === 'X' && e.pid === first.pid && e.tid === first.tid && e.dur,
    )
    .sort((a, b) => a.ts - b.ts);
  const out: FrameCost[] = [];
  let from = 0;
  for (let i = 1; i < marks.length; i++) {
    const lo = marks[i - 1]?.ts ?? 0;
    const hi = marks[i]?.ts ?? 0;
    let wall = 0;
    let cpu = 0;
    // Tasks are sorted and (at top level) do not overlap: skip those that ended before lo.
    while (from < tasks.length && (tasks[from]?.ts ?? 0) + (tasks[from]?.dur ?? 0) <= lo) from++;
    for (let j = from; j < tasks.length; j++) {
      const t = tasks[j];
      if (!t || t.ts >= hi) break;
      const dur = t.dur ?? 0;
      const overlap = Math.min(hi, t.ts + dur) - Math.max(lo, t.ts);
      if (overlap <= 0) continue;
      wall += overlap;
      // CPU time is known for the whole task only: a task across a mark shares it by wall time.
      cpu += (t.tdur ?? dur) * (overlap / dur);
    }
    out.push({ wallMs: wall / 1000, cpuMs: cpu / 1000 });
  }
  return out;
}

export interface FrameRun {
  /** rAF deltas (the display's pacing plus the frame's cost). */
  deltas: number[];
  costs: FrameCost[];
}

/**
 * Runs `frames` animation frames with a trace on; with a selector, that element scrolls
 * `step` px a frame (bouncing at the ends). The first 5 frames are dropped (the trace starting).
 */
export async function measureFrames(
  browser: Browser,
  page: Page,
  frames: number,
  selector: string | null,
  step = 240,
): Promise<FrameRun> {
  await browser.startTracing(page, { categories: frameCostCategories });
  const deltas = await page.evaluate(
    ({ frames: n, selector: sel, step: px, mark }) =>
      new Promise<number[]>((done) => {
        const el = sel ? document.querySelector<HTMLElement>(sel) : null;
        const out: number[] = [];
        let last = performance.now();
        let dir = 1;
        const tick = (t: number) => {
          performance.mark(mark);
          out.push(t - last);
          last = t;
          if (el) {
            if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2) dir = -1;
            else if (el.scrollTop <= 0) dir = 1;
            el.scrollTop += dir * px;
          }
          if (out.length > n) done(out);
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    { frames, selector, step, mark: FRAME_MARK },
  );
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as
    | { traceEvents: TraceEvent[] }
    | TraceEvent[];
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  // deltas[0] is from the call to the first frame; costs[i] is the frame ending at mark i+1.
  return { deltas: deltas.slice(6), costs: frameCosts(events).slice(5) };
}
