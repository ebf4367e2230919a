import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { navButton, openDemoSession } from './demo-session';
import { type AppFixture, reportFailure, screenshot, stopAll } from './support';

const PROJECT = 'Mobile App Redesign';
const ZONE = 'America/Los_Angeles';
const DAY = 86_400_000;
const POINTS_ABOVE = 7;

/**
 * What the filters should show, read from the reference server's own SQLite file (not through
 * the app): the project's top-level tasks due this week for a user in Los Angeles whose weeks
 * start on Sunday (en-US), and those with more than POINTS_ABOVE story points. A due date is a
 * calendar day kept as its UTC date, the day the app shows.
 */
function expectedRows(serverDataDir: string, now: number) {
  const db = new Database(join(serverDataDir, 'server.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const rows = db
      .prepare(
        `SELECT t.task_id AS id, t.due_date AS due,
                (SELECT v.num FROM custom_field_values v JOIN custom_fields f ON f.field_id = v.field_id
                  WHERE v.task_id = t.task_id AND f.name = 'Story Points') AS points
           FROM tasks t JOIN projects p ON p.project_id = t.project_id
          WHERE p.project_name = ? AND t.parent_task_id IS NULL AND t.deleted = 0`,
      )
      .all(PROJECT) as { id: number; due: number | null; points: number | null }[];
    const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(now);
    const today = Date.parse(`${localDate}T00:00:00Z`);
    const sunday = today - new Date(today).getUTCDay() * DAY;
    const ids = (keep: (r: (typeof rows)[number]) => boolean) =>
      rows
        .filter(keep)
        .map((r) => r.id)
        .sort((a, b) => a - b);
    return {
      all: rows.length,
      dueThisWeek: ids((r) => r.due !== null && r.due >= sunday && r.due < sunday + 7 * DAY),
      pointsAbove: ids((r) => r.points !== null && r.points > POINTS_ABOVE),
    };
  } finally {
    db.close();
  }
}

/**
 * The filter panel in Chromium, in a zone west of UTC: "due this week" and "Story Points > 7"
 * set through the UI show exactly the rows the server's data says, they survive a saved view,
 * and the panel fits both window sizes without a sideways page scroll.
 */
describe.sequential('filters: date ranges and number comparisons', () => {
  let app: AppFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  beforeAll(async () => {
    ({ app, browser, page, errors } = await openDemoSession());
    // West of UTC: the zone the page's clock and Intl use, then a fresh start of the UI in it.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: ZONE });
    await cdp.send('Emulation.setLocaleOverride', { locale: 'en-US' });
    await page.reload();
    // The host keeps the session: the app comes back signed in, if slowly on a busy machine.
    await navButton(page, PROJECT).click({ timeout: 60_000 });
    await grid().locator('[data-task-id]').first().waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(ZONE);
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page)
      await reportFailure(page, `failed-filters-${ctx.task.name}`);
  });

  afterAll(() => stopAll(browser, app));

  const grid = () => page.getByRole('grid', { name: PROJECT });
  /** The list's total (the grid counts its header row) and the ids of the rows drawn. */
  const shown = async () => ({
    total: Number(await grid().getAttribute('aria-rowcount')) - 1,
    ids: (
      await grid()
        .locator('[data-task-id]')
        .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-task-id'))))
    ).sort((a, b) => a - b),
  });
  const expectRows = async (ids: number[]) => {
    await expect.poll(async () => (await shown()).total).toBe(ids.length);
    const drawn = (await shown()).ids;
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.filter((id) => !ids.includes(id))).toEqual([]);
  };
  const noSideScroll = () =>
    page.evaluate(() => {
      const root = document.documentElement;
      const panel = document.querySelector<HTMLElement>('#filter-panel');
      return {
        page: root.scrollWidth - root.clientWidth,
        panel: panel ? panel.scrollWidth - panel.clientWidth : -1,
      };
    });

  it('due this week, then Story Points > 7, show the rows the data says', async () => {
    const want = expectedRows(app.server.dataDir, Date.now());
    // The demo spreads due dates over the coming days: both filters narrow the list.
    expect(want.dueThisWeek.length).toBeGreaterThan(0);
    expect(want.dueThisWeek.length).toBeLessThan(want.all);
    expect(want.pointsAbove.length).toBeGreaterThan(0);
    await expect.poll(async () => (await shown()).total).toBe(want.all);

    await page.getByRole('button', { name: /^Filters/ }).click();
    const panel = page.getByRole('region', { name: 'Filters' });
    await expect.poll(() => panel.getByText('UTC').count()).toBe(0);
    const due = panel.getByRole('group', { name: 'Due date' });
    await due
      .getByRole('combobox', { name: 'Due date: when' })
      .selectOption({ label: 'This week' });
    await expectRows(want.dueThisWeek);
    await due.scrollIntoViewIfNeeded();
    await screenshot(page, 'filters-1440');
    expect(await noSideScroll()).toEqual({ page: 0, panel: 0 });

    await due.getByRole('combobox', { name: 'Due date: when' }).selectOption({ label: 'Any time' });
    await panel.getByRole('button', { name: 'Add condition' }).click();
    await panel.getByRole('combobox', { name: 'Condition 1: field' }).selectOption('Story Points');
    await panel
      .getByRole('combobox', { name: 'Condition 1: comparison' })
      .selectOption({ label: '> more than' });
    await panel.getByRole('spinbutton', { name: 'Condition 1: value' }).fill(String(POINTS_ABOVE));
    await expectRows(want.pointsAbove);

    await page.setViewportSize({ width: 1024, height: 768 });
    await expectRows(want.pointsAbove);
    expect(await noSideScroll()).toEqual({ page: 0, panel: 0 });
    await panel.getByRole('button', { name: 'Add condition' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'filters-1024');

    // Two days side by side still fit the panel, in the dark scheme too.
    await page.emulateMedia({ colorScheme: 'dark' });
    const start = panel.getByRole('group', { name: 'Start date' });
    await start.getByRole('combobox', { name: 'Start date: when' }).selectOption('between');
    await start.getByLabel('Start date: from').fill('2020-01-01');
    await start.getByLabel('Start date: to').fill('2040-12-31');
    await expect
      .poll(async () => (await shown()).total)
      .toBeLessThanOrEqual(want.pointsAbove.length);
    expect(await noSideScroll()).toEqual({ page: 0, panel: 0 });
    await start.scrollIntoViewIfNeeded();
    await screenshot(page, 'filters-1024-dark');
    await start.getByRole('combobox', { name: 'Start date: when' }).selectOption('');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectRows(want.pointsAbove);
  }, 40_000);

  it('a saved view keeps "this week" and the comparison', async () => {
    const want = expectedRows(app.server.dataDir, Date.now());
    const panel = page.getByRole('region', { name: 'Filters' });
    await panel
      .getByRole('group', { name: 'Due date' })
      .getByRole('combobox', { name: 'Due date: when' })
      .selectOption({ label: 'This week' });
    const both = want.dueThisWeek.filter((id) => want.pointsAbove.includes(id));
    await expect.poll(async () => (await shown()).total).toBe(both.length);

    await page.getByRole('button', { name: 'Saved views' }).click();
    await page.getByRole('menuitem', { name: 'Save this view…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save this view' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Big this week');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('button', { name: 'Clear all filters' }).click();
    await expect.poll(async () => (await shown()).total).toBe(want.all);

    await page.getByRole('button', { name: 'Saved views' }).click();
    await page.getByRole('menuitem', { name: 'Big this week', exact: true }).click();
    await expect.poll(async () => (await shown()).total).toBe(both.length);
    await expect
      .poll(() => panel.getByRole('combobox', { name: 'Due date: when' }).inputValue())
      .toBe('thisWeek');
    expect(await panel.getByRole('spinbutton', { name: 'Condition 1: value' }).inputValue()).toBe(
      String(POINTS_ABOVE),
    );
    expect(errors).toEqual([]);
  }, 30_000);
});
