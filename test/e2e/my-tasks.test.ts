import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { navButton, openDemoSession } from './demo-session';
import { type AppFixture, axe, reportFailure, screenshot, stopAll } from './support';

const sizes = [
  [1440, 900],
  [1024, 768],
] as const;
const groupOrder = ['Overdue', 'Today', 'Upcoming', 'Later', 'No date'];

/**
 * A comment of the demo org that mentions someone by email, on a task whose title no other
 * task has (the test opens it by searching for that title), read from the server's own file.
 */
const mentionOnServer = (serverDataDir: string) => {
  const db = new Database(join(serverDataDir, 'server.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const row = db
      .prepare(
        `SELECT t.title AS title, c.content AS content, u.email AS email,
                u.first_name || ' ' || u.last_name AS name
         FROM comments c
         JOIN tasks t ON t.task_id = c.task_id AND t.deleted = 0
         JOIN users u ON c.content LIKE '@' || u.email || ' %'
         WHERE c.org_id = 1
           AND (SELECT COUNT(*) FROM tasks o WHERE o.org_id = 1 AND o.title = t.title) = 1
         ORDER BY c.comment_id LIMIT 1`,
      )
      .get();
    return z
      .object({ title: z.string(), content: z.string(), email: z.string(), name: z.string() })
      .parse(row);
  } finally {
    db.close();
  }
};

/**
 * My tasks as someone who lives in it meets it, in one demo session at a desk's and a
 * laptop's window: grouped by due day with counts, each task's project path, the keyboard
 * walking across groups; the detail's path leading to the parent, project and space; a long
 * title wrapping; a mention by name. Screenshots in test-results/my-tasks-*.png.
 */
describe.sequential('My tasks: due groups, paths, the detail’s path, long titles, mentions', () => {
  let app: AppFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  beforeAll(async () => {
    ({ app, browser, page, errors } = await openDemoSession());
    await grid().locator('[data-task-id]').first().waitFor();
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page)
      await reportFailure(page, `failed-my-tasks-${ctx.task.name}`);
  });

  afterAll(() => stopAll(browser, app));

  const grid = () => page.getByRole('grid', { name: 'My tasks' });
  const detail = () => page.getByRole('complementary', { name: /^Task:/ });
  const titleBox = () => detail().getByRole('textbox', { name: 'Title' });
  const pageScroll = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
  const openMyTasks = async () => {
    await page.keyboard.press('Escape');
    await navButton(page, 'My tasks').click();
    await grid().locator('[data-task-id]').first().waitFor();
  };

  /** The rows and group headers on screen, top to bottom. */
  const listed = () =>
    grid().evaluate((g) =>
      [...g.querySelectorAll<HTMLElement>('.tt-group, [data-task-id]')]
        .map((el) => ({
          top: el.getBoundingClientRect().top,
          group: el.classList.contains('tt-group')
            ? {
                name: el.querySelector('.tt-group-name')?.textContent ?? '',
                count: el.querySelector('.tt-group-count')?.firstChild?.textContent ?? '',
              }
            : null,
          id: el.getAttribute('data-task-id'),
        }))
        .sort((a, b) => a.top - b.top),
    );

  it('groups by due day with counts, shows each task’s path, walks rows across groups', async () => {
    for (const [width, height] of sizes) {
      await page.setViewportSize({ width, height });
      await openMyTasks();
      // The groups' counts arrive with their own read.
      await expect
        .poll(async () => (await listed()).filter((x) => x.group?.count).length)
        .toBeGreaterThan(1);
      const shown = await listed();
      const groups = shown.flatMap((x) => (x.group ? [x.group] : []));
      expect(groups.map((g) => groupOrder.indexOf(g.name))).toEqual(
        groups.map((g) => groupOrder.indexOf(g.name)).sort((a, b) => a - b),
      );
      expect(groups.every((g) => groupOrder.includes(g.name))).toBe(true);
      // A group whose next header is on screen holds as many rows as its header says.
      const first = shown.findIndex((x) => x.group);
      const second = shown.findIndex((x, i) => i > first && x.group);
      expect(second).toBeGreaterThan(first);
      expect(String(second - first - 1)).toBe(shown[first]?.group?.count);

      const headers = await grid().getByRole('columnheader').allTextContents();
      expect(headers).toContain('Project');
      expect(headers).not.toContain('Owners');
      const at = headers.indexOf('Project');
      const paths = await grid()
        .locator('[data-task-id]')
        .evaluateAll((rows, i) => rows.map((r) => r.children[i]?.textContent ?? ''), at);
      expect(paths.filter((p) => p.includes('›')).length).toBeGreaterThan(0);
      expect(paths.filter((p) => p === '')).toEqual([]);
      expect(await pageScroll()).toBeLessThanOrEqual(0);
      await screenshot(page, `my-tasks-${width}`);
    }
    expect(await axe(page)).toEqual([]);

    // Scrolled down to rows drawn for the first time, the rows sit where their headers leave
    // room: none overlaps the one above (a click lands on the row it aims at).
    await grid()
      .locator('.tt-body')
      .evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
    await expect
      .poll(() =>
        grid().evaluate((g) => {
          const boxes = [...g.querySelectorAll('[data-task-id]')]
            .map((r) => r.getBoundingClientRect())
            .sort((a, b) => a.top - b.top);
          return boxes.filter((b, i) => i > 0 && b.top < (boxes[i - 1]?.bottom ?? 0) - 1).length;
        }),
      )
      .toBe(0);
    await grid()
      .locator('.tt-body')
      .evaluate((el) => el.scrollTo({ top: 0 }));

    // j walks from the last row of the first group to the first row of the next.
    const shown = await listed();
    const first = shown.findIndex((x) => x.group);
    const second = shown.findIndex((x, i) => i > first && x.group);
    const lastOfFirst = shown[second - 1]?.id;
    const firstOfNext = shown[second + 1]?.id;
    await grid().locator(`[data-task-id="${lastOfFirst}"]`).click();
    await expect
      .poll(() => grid().locator('[aria-selected="true"]').getAttribute('data-task-id'))
      .toBe(lastOfFirst);
    await page.keyboard.press('j');
    await expect
      .poll(() => grid().locator('[aria-selected="true"]').getAttribute('data-task-id'))
      .toBe(firstOfNext);
    await page.keyboard.press('k');
    await expect
      .poll(() => grid().locator('[aria-selected="true"]').getAttribute('data-task-id'))
      .toBe(lastOfFirst);
    await page.keyboard.press('Enter');
    const title = await grid().locator(`[data-task-id="${lastOfFirst}"] .tt-open`).textContent();
    await expect.poll(() => titleBox().inputValue()).toBe(title);
  }, 40_000);

  it('the detail’s path leads to the parent task, the project and the space', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openMyTasks();
    const sub = grid()
      .locator('[data-task-id]')
      .filter({ has: page.locator('.tt-path-part.is-parent') })
      .first();
    const parts = await sub
      .locator('.tt-path-part')
      .evaluateAll((els) => els.map((e) => e.lastChild?.textContent ?? ''));
    expect(parts).toHaveLength(3);
    const [space, project, parent] = parts as [string, string, string];
    await sub.locator('.tt-open').click();
    const path = detail().getByRole('navigation', { name: 'Where this task is' });
    // The panel paints its task once read (CI: read at once, the list was empty): polled.
    await expect.poll(() => path.getByRole('button').allTextContents()).toEqual(parts);
    await screenshot(page, 'my-tasks-detail-path');
    expect(await axe(page)).toEqual([]);
    await path.getByRole('button', { name: parent, exact: true }).click();
    await expect.poll(() => titleBox().inputValue()).toBe(parent);
    await expect.poll(() => path.getByRole('button').allTextContents()).toEqual([space, project]);
    await path.getByRole('button', { name: project, exact: true }).click();
    await page.getByRole('grid', { name: project }).waitFor();
    await path.getByRole('button', { name: space, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: space }).waitFor();
    expect(await pageScroll()).toBeLessThanOrEqual(0);
  }, 30_000);

  it('a 300-character title wraps over several lines and stays a single line of text', async () => {
    const long = `${'Plan the quarterly review with every team lead and '.repeat(6)}end`.slice(
      0,
      300,
    );
    expect(long).toHaveLength(300);
    await openMyTasks();
    await grid().locator('[data-task-id] .tt-open').first().click();
    const box = titleBox();
    await box.fill(long);
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe(long);
    // Escape puts back what was saved; Enter never made a newline.
    await box.fill(`${long} more`);
    await box.press('Escape');
    await expect.poll(() => box.inputValue()).toBe(long);
    for (const [width, height] of sizes) {
      await page.setViewportSize({ width, height });
      const fit = await box.evaluate((el) => {
        const style = getComputedStyle(el);
        const rect = el.getBoundingClientRect();
        const pane = el.closest('.detail')?.getBoundingClientRect();
        return {
          lines: Math.round(el.clientHeight / Number.parseFloat(style.lineHeight)),
          clipped: el.scrollHeight - el.clientHeight,
          wide: el.scrollWidth - el.clientWidth,
          inPane: pane ? rect.right <= pane.right + 1 && rect.left >= pane.left - 1 : false,
        };
      });
      expect(fit.lines).toBeGreaterThanOrEqual(3);
      expect(fit.clipped).toBeLessThanOrEqual(1);
      expect(fit.wide).toBeLessThanOrEqual(0);
      expect(fit.inPane).toBe(true);
      expect(await pageScroll()).toBeLessThanOrEqual(0);
      await screenshot(page, `my-tasks-long-title-${width}`);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'my-tasks-long-title-1024-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // An emptied title still says so beside the field and saves nothing.
    await box.fill('');
    await box.press('Enter');
    await expect.poll(() => detail().getByRole('alert').textContent()).toMatch(/needs a title/i);
    await box.press('Escape');
    await expect.poll(() => box.inputValue()).toBe(long);
  }, 30_000);

  it('a comment mentioning someone names them', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const m = mentionOnServer(app.server.dataDir);
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.getByRole('searchbox', { name: 'Search tasks' }).fill(m.title);
    const results = page.getByRole('list', { name: 'Results' });
    await results.getByRole('button').filter({ hasText: m.title }).first().click();
    await expect.poll(() => titleBox().inputValue()).toBe(m.title);
    const mention = detail().locator('.comment .mention').first();
    await expect.poll(() => mention.textContent()).toBe(`@${m.name}`);
    const comments = await detail().locator('.comment p').allTextContents();
    expect(comments.filter((c) => c.includes(`@${m.email}`))).toEqual([]);
    await mention.scrollIntoViewIfNeeded();
    await screenshot(page, 'my-tasks-mention');
    expect(errors).toEqual([]);
  }, 30_000);
});
