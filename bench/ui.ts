/**
 * UI benchmark (issue 6): a 100k-task replica behind browser mode, measured in Chromium.
 * - first_list_ms: from opening the page to the first task row painted (the default view);
 *   floor: the first paint of an empty page in the same browser.
 * - scroll_p95_ms: requestAnimationFrame deltas while the list scrolls programmatically, with
 *   the frame-rate cap off so a delta is the frame's cost, not the display's 16.7 ms;
 *   floor: the same deltas on an idle page.
 * - toggle_p95_ms: from a click on a checklist item to the frame that shows it toggled.
 * Prints a table, then the JSON line last. `npm run bench:ui` builds the renderer first.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { localEndpoint } from '../main/bridge/endpoint';
import { createServices } from '../main/services/services';
import { fileTokenVault } from '../main/services/token-vault';
import { startWebBridge } from '../main/web/server';
import { startServer } from '../server/app';
import { openEngine } from '../sync/engine/engine';
import { chromiumArgs } from '../test/e2e/support';
import { tempDir } from '../test/sync/support';

const TASKS = Number(process.env.BENCH_UI_TASKS ?? 100_000);
const root = resolve(import.meta.dirname, '..');

const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] ?? 0;
};
const round = (n: number) => Math.round(n * 10) / 10;

const main = async () => {
  const serverDir = tempDir('wt-bench-ui-server-');
  const appDir = tempDir('wt-bench-ui-app-');
  const t0 = Date.now();
  const server = await startServer({
    dataDir: serverDir,
    port: 0,
    host: '127.0.0.1',
    seed: { kind: 'bench', tasks: TASKS },
  });
  console.log(`seeded ${TASKS} tasks in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const services = await createServices({
    dataDir: appDir,
    vault: fileTokenVault(join(appDir, 'session.json')),
    openEngine,
    demo: { start: async () => server.url, close: async () => {} },
    pullIntervalMs: 600_000,
    log: () => {},
  });
  const call = async (method: string, input: unknown) => {
    const r = await services.dispatcher.call(method, input);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value as Record<string, unknown>;
  };
  const t1 = Date.now();
  await call('session.startDemo', {});
  for (;;) {
    const s = await call('session.state', {});
    const st = await call('sync.status', {});
    if (!s.bootstrapping && st && !st.bootstrap) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(`bootstrapped the replica in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  const web = await startWebBridge({
    endpoint: localEndpoint(services.dispatcher, services.hub),
    staticDir: join(root, 'renderer/dist'),
  });

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    // Frames as fast as they can be made: a rAF delta is then the frame's own cost.
    args: [...chromiumArgs, '--disable-gpu-vsync', '--disable-frame-rate-limit'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  // tsx keeps function names with a `__name` helper the page does not have.
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });

  // Floor: first paint of an empty page, and rAF deltas of an idle page.
  const floorPaint: number[] = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(`${web.origin}/bridge/nothing-here`).catch(() => undefined);
    floorPaint.push(
      await page.evaluate(
        () =>
          new Promise<number>((r) =>
            requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)),
          ),
      ),
    );
  }
  const idleDeltas = await rafDeltas(page, 240, null);

  // First list: the page's own clock, from navigation start to the frame after a row exists.
  const firstList: number[] = [];
  for (let i = 0; i < 5; i++) {
    await page.addInitScript(() => {
      const w = window as unknown as { firstListAt?: number };
      const check = () => {
        if (document.querySelector('[role="row"][data-task-id]')) {
          requestAnimationFrame(() => {
            w.firstListAt ??= performance.now();
          });
          return true;
        }
        return false;
      };
      new MutationObserver((_, obs) => {
        if (check()) obs.disconnect();
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto(web.url);
    await page.waitForFunction(
      () => (window as unknown as { firstListAt?: number }).firstListAt !== undefined,
      null,
      { timeout: 30_000 },
    );
    firstList.push(
      await page.evaluate(() => (window as unknown as { firstListAt: number }).firstListAt),
    );
  }

  // Scroll: the biggest list (personal tasks hold most of the bench seed's rows per user).
  const biggest = await biggestList(page);
  const rows = Number(await page.locator('[role="grid"]').getAttribute('aria-rowcount'));
  const scrollDeltas = await rafDeltas(page, 600, '.tt-body');

  // Toggle: open a task with a checklist, click an item, wait for the frame that shows it.
  await page.locator('[role="row"][data-task-id] .tt-open').first().click();
  await page.locator('li[data-checklist-id]').first().waitFor({ timeout: 15_000 });
  const toggles: number[] = [];
  for (let i = 0; i < 40; i++) {
    toggles.push(
      await page.evaluate(
        () =>
          new Promise<number>((resolveToggle) => {
            const li = document.querySelector('li[data-checklist-id]');
            const box = li?.querySelector<HTMLInputElement>('input[type="checkbox"]');
            if (!li || !box) throw new Error('no checklist item');
            const was = li.classList.contains('is-done');
            const start = performance.now();
            const obs = new MutationObserver(() => {
              const now = document.querySelector('li[data-checklist-id]');
              if (now && now.classList.contains('is-done') !== was) {
                obs.disconnect();
                requestAnimationFrame(() => resolveToggle(performance.now() - start));
              }
            });
            obs.observe(li.parentElement ?? document.body, {
              subtree: true,
              attributes: true,
              childList: true,
            });
            box.click();
          }),
      ),
    );
    await page.waitForTimeout(120);
  }

  await browser.close();
  await web.close();
  await services.close();
  await server.close();
  rmSync(serverDir, { recursive: true, force: true });
  rmSync(appDir, { recursive: true, force: true });

  const out = {
    tasks: TASKS,
    first_list_ms: round(p95(firstList)),
    first_list_median_ms: round([...firstList].sort((a, b) => a - b)[2] ?? 0),
    first_list_floor_ms: round(p95(floorPaint)),
    scroll_list: biggest,
    scroll_rows: rows,
    scroll_p95_ms: round(p95(scrollDeltas)),
    scroll_floor_p95_ms: round(p95(idleDeltas)),
    toggle_p95_ms: round(p95(toggles)),
    toggle_median_ms: round(
      [...toggles].sort((a, b) => a - b)[Math.floor(toggles.length / 2)] ?? 0,
    ),
  };
  console.log(
    `first list painted: p95 ${out.first_list_ms} ms over 5 loads (floor, empty page: ${out.first_list_floor_ms} ms)`,
  );
  console.log(
    `scroll of "${biggest}" (${rows} rows): frame p95 ${out.scroll_p95_ms} ms (idle page floor ${out.scroll_floor_p95_ms} ms)`,
  );
  console.log(
    `checklist toggle to paint: p95 ${out.toggle_p95_ms} ms, median ${out.toggle_median_ms} ms`,
  );
  console.log(JSON.stringify(out));
};

/** rAF deltas over `frames` frames; with a selector, that element scrolls 240 px a frame (14,400 px/s at 60 Hz: a fast fling). */
async function rafDeltas(page: Page, frames: number, selector: string | null): Promise<number[]> {
  return page.evaluate(
    ({ frames: n, selector: sel }) =>
      new Promise<number[]>((done) => {
        const el = sel ? document.querySelector<HTMLElement>(sel) : null;
        const deltas: number[] = [];
        let last = performance.now();
        let dir = 1;
        const step = (t: number) => {
          deltas.push(t - last);
          last = t;
          if (el) {
            if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2) dir = -1;
            else if (el.scrollTop <= 0) dir = 1;
            el.scrollTop += dir * 240;
          }
          if (deltas.length >= n) done(deltas.slice(5));
          else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    { frames, selector },
  );
}

/** Goes to the list with the most rows among My tasks, Personal tasks and the first project. */
async function biggestList(page: Page): Promise<string> {
  const counts: { name: string; rows: number }[] = [];
  for (const name of ['My tasks', 'Personal tasks']) {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: new RegExp(`^${name}`) })
      .click();
    await page.getByRole('grid', { name }).waitFor();
    await page.locator('[role="row"][data-task-id]').first().waitFor();
    counts.push({
      name,
      rows: Number(await page.getByRole('grid', { name }).getAttribute('aria-rowcount')),
    });
  }
  const best = counts.sort((a, b) => b.rows - a.rows)[0]?.name ?? 'My tasks';
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${best}`) })
    .click();
  await page.getByRole('grid', { name: best }).waitFor();
  await page.locator('[role="row"][data-task-id]').first().waitFor();
  return best;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
