import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_MARK, frameCosts, measureFrames, type TraceEvent } from './frame-cost';
import { launchChromium } from './support';

const mark = (ts: number, tid = 1): TraceEvent => ({ name: FRAME_MARK, ph: 'I', ts, pid: 1, tid });
const task = (ts: number, dur: number, tdur = dur, tid = 1): TraceEvent => ({
  name: 'ThreadControllerImpl::RunTask',
  ph: 'X',
  ts,
  dur,
  tdur,
  pid: 1,
  tid,
});

describe('frameCosts', () => {
  it('sums the marking thread’s tasks between marks, a task across a mark shared by wall time', () => {
    const costs = frameCosts([
      mark(0),
      task(1_000, 4_000, 2_000),
      task(14_000, 4_000, 4_000), // 2 ms before the mark at 16 ms, 2 ms after
      mark(16_000),
      task(20_000, 1_000, 1_000, 2), // another thread: not this page's main thread
      mark(32_000),
    ]);
    expect(costs).toEqual([
      { wallMs: 6, cpuMs: 4 },
      { wallMs: 2, cpuMs: 2 },
    ]);
  });

  it('is empty without marks', () => {
    expect(frameCosts([task(0, 1_000)])).toEqual([]);
  });
});

describe('measureFrames in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a frame that works 20 ms as costing 20 ms, and an idle frame as nearly free', async () => {
    const page = await browser.newPage();
    await page.setContent(
      '<div id="s" style="height:200px;overflow:auto"><div style="height:90000px"></div></div>',
    );
    const idle = await measureFrames(browser, page, 40, null);
    await page.evaluate(() => {
      // Every frame burns 20 ms of script before it paints.
      const burn = () => {
        const end = performance.now() + 20;
        while (performance.now() < end) {
          /* busy */
        }
        requestAnimationFrame(burn);
      };
      requestAnimationFrame(burn);
    });
    const busy = await measureFrames(browser, page, 40, '#s', 100);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    expect(median(idle.costs.map((c) => c.cpuMs))).toBeLessThan(5);
    expect(median(busy.costs.map((c) => c.wallMs))).toBeGreaterThanOrEqual(19);
    // CPU time too (a loaded machine may take the core away, so a little under the wall time).
    expect(median(busy.costs.map((c) => c.cpuMs))).toBeGreaterThan(12);
    expect(busy.costs.length).toBeGreaterThan(30);
    await page.close();
  }, 60_000);
});
