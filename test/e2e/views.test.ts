import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatDue } from '../../renderer/lib/dates';
import { openDemoSession } from './demo-session';
import { type AppFixture, reportFailure, screenshot, stopAll } from './support';

/**
 * The main views as a demanding user meets them, in one demo session: at the two sizes a desk
 * and a laptop give the window, light and dark, every view fits (no page scroll, no header
 * cut off) with the filter panel and a task open too (screenshots in test-results/); then
 * picked columns, inline title errors, toasts, option names, the palette and a quiet sign-out.
 */
describe.sequential('the main views: layout, inline errors, option names', () => {
  let app: AppFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  beforeAll(async () => {
    ({ app, browser, page, errors } = await openDemoSession());
    await page.getByRole('grid', { name: 'My tasks' }).waitFor();
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page)
      await reportFailure(page, `failed-layout-${ctx.task.name}`);
  });

  afterAll(() => stopAll(browser, app));

  const nav = (name: string) =>
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: new RegExp(`^${name}`) });
  const detail = () => page.getByRole('complementary', { name: /^Task:/ });
  const saveView = async (name: string) => {
    await page.getByRole('button', { name: 'Saved views' }).click();
    await page.getByRole('menuitem', { name: 'Save this view…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save this view' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('button', { name: 'Save' }).click();
  };

  /** How far the page and each task grid's cells reach past their boxes. */
  const overflow = () =>
    page.evaluate(() => {
      const root = document.documentElement;
      const cut: string[] = [];
      // A cell whose right edge is past its grid's visible edge is cut off, not scrollable.
      for (const grid of document.querySelectorAll<HTMLElement>('.task-table')) {
        const box = grid.getBoundingClientRect();
        for (const th of grid.querySelectorAll<HTMLElement>('[role="columnheader"]'))
          if (th.getBoundingClientRect().right > box.right + 1 && grid.scrollWidth <= box.width)
            cut.push(th.textContent ?? '');
      }
      return {
        page: root.scrollWidth - root.clientWidth,
        pageY: root.scrollHeight - root.clientHeight,
        cut,
      };
    });

  const views: { name: string; open: () => Promise<void> }[] = [
    {
      name: 'my-tasks',
      open: async () => {
        await nav('My tasks').click();
        await page
          .getByRole('grid', { name: 'My tasks' })
          .locator('[data-task-id]')
          .first()
          .waitFor();
      },
    },
    {
      name: 'personal',
      open: async () => {
        await nav('Personal tasks').click();
        await page.getByRole('grid', { name: 'Personal tasks' }).waitFor();
      },
    },
    {
      name: 'project-list',
      open: async () => {
        await nav('Mobile App Redesign').click();
        const grid = page.getByRole('grid', { name: 'Mobile App Redesign' });
        await grid.locator('[data-task-id]').first().waitFor();
      },
    },
    {
      name: 'project-filters-task',
      open: async () => {
        await nav('Mobile App Redesign').click();
        const grid = page.getByRole('grid', { name: 'Mobile App Redesign' });
        await grid.locator('[data-task-id]').first().waitFor();
        const filters = page.getByRole('button', { name: /^Filters/ });
        if ((await filters.getAttribute('aria-expanded')) !== 'true') await filters.click();
        await page.locator('#filter-panel').waitFor();
        await grid.locator('[data-task-id] .tt-open').first().click();
        await detail().waitFor();
      },
    },
    {
      name: 'board-task',
      open: async () => {
        await page
          .getByRole('radiogroup', { name: 'Layout' })
          .locator('label')
          .filter({ hasText: 'Board' })
          .click();
        await page.locator('.board-col').first().waitFor();
        await detail().waitFor();
      },
    },
    {
      name: 'inbox',
      open: async () => {
        await page.keyboard.press('Escape');
        await nav('Inbox').click();
        await page.getByRole('list', { name: 'Notifications' }).waitFor();
      },
    },
    {
      name: 'timesheet',
      open: async () => {
        await nav('Timesheet').click();
        await page.getByRole('img', { name: /Hours per day/ }).waitFor();
      },
    },
    {
      name: 'spaces',
      open: async () => {
        await page.getByRole('button', { name: 'Manage' }).click();
        await page.getByRole('heading', { name: 'Spaces and projects' }).waitFor();
      },
    },
    {
      name: 'sync',
      open: async () => {
        await nav('Sync').click();
        await page.getByTestId('sync-state').waitFor();
      },
    },
    {
      name: 'search',
      open: async () => {
        await page.keyboard.press('/');
        const box = page.getByRole('searchbox', { name: 'Search tasks' });
        await box.fill('design');
        await page.getByRole('list', { name: 'Results' }).waitFor();
      },
    },
  ];

  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`fits at ${width}×${height}, ${scheme}`, async () => {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        const bad: string[] = [];
        for (const v of views) {
          await v.open();
          const o = await overflow();
          if (o.page > 0) bad.push(`${v.name}: page scrolls ${o.page}px sideways`);
          // The panes scroll, never the window (that left a blank band under the sidebar).
          if (o.pageY > 0) bad.push(`${v.name}: page scrolls ${o.pageY}px down`);
          if (o.cut.length) bad.push(`${v.name}: columns cut off: ${o.cut.join(', ')}`);
          if (scheme === 'light') await screenshot(page, `layout-${width}-${v.name}`);
        }
        expect(bad).toEqual([]);
      }, 60_000);
    }
  }

  it('keeps picked columns with a saved view; a wide pick scrolls in its pane, header and rows together', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.keyboard.press('Escape');
    await nav('Mobile App Redesign').click();
    await page.locator('.segmented label').filter({ hasText: 'List' }).click();
    const grid = page.getByRole('grid', { name: 'Mobile App Redesign' });
    await grid.locator('[data-task-id]').first().waitFor();
    const headers = () => grid.getByRole('columnheader').allTextContents();
    // Fitted: the default set loses columns to the width, never its title and status.
    expect(await headers()).not.toContain('Needs QA');
    const display = page.getByRole('button', { name: 'Display' });
    await display.click();
    const menu = page.getByRole('menu', { name: 'Display' });
    await menu.getByRole('menuitemcheckbox', { name: 'Tags column' }).click();
    await menu.getByRole('menuitemcheckbox', { name: 'Needs QA column' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(headers).toContain('Needs QA');
    expect(await headers()).not.toContain('Tags');
    await grid.locator('[data-task-id] .tt-open').first().click();
    await detail().waitFor();
    // Wider than the pane: the rows scroll sideways and the header with them; the page not.
    const body = grid.locator('.tt-body');
    expect(await body.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await body.evaluate((el) => el.scrollTo({ left: 200 }));
    await expect
      .poll(() => grid.locator('.tt-head-pane').evaluate((el) => el.scrollLeft))
      .toBe(200);
    expect((await overflow()).page).toBe(0);
    await screenshot(page, 'layout-1024-project-wide-columns');
    await saveView('QA columns');
    // Back to the fitted set, then the saved view brings the picked columns again.
    await display.click();
    await menu.getByRole('menuitemcheckbox', { name: 'Fit columns to the window' }).click();
    await expect.poll(headers).toEqual(['Title', 'Status']);
    await page.getByRole('button', { name: 'Saved views' }).click();
    await page.getByRole('menuitem', { name: 'QA columns', exact: true }).click();
    await expect.poll(headers).toContain('Needs QA');
    expect(await headers()).not.toContain('Tags');
    expect(errors).toEqual([]);
  }, 60_000);

  it('keeps an over-long new title in the dialog with a plain error, and a cleared title says so', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.keyboard.press('Escape');
    await nav('Personal tasks').click();
    await page.keyboard.press('c');
    const dialog = page.getByRole('dialog', { name: 'New task' });
    const title = dialog.getByRole('textbox', { name: 'Title' });
    const long = 'A title that goes on '.repeat(25);
    await title.fill(long);
    await dialog.getByRole('button', { name: 'Create task' }).click();
    // The field's own alert (the toast region's live alerts sit in an open modal too).
    await dialog
      .getByRole('alert')
      .filter({ hasText: /at most 500 characters/ })
      .waitFor();
    expect(await title.inputValue()).toBe(long);
    expect(await page.locator('.toast').count()).toBe(0);
    await screenshot(page, 'views-title-too-long');
    await title.fill('Short enough');
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await dialog.waitFor({ state: 'detached' });
    const field = detail().getByRole('textbox', { name: 'Title' });
    await expect.poll(() => field.inputValue()).toBe('Short enough');
    // Cleared: an error beside the field, the old title back on Escape, nothing saved.
    await field.fill('');
    await field.press('Enter');
    await expect.poll(() => detail().getByRole('alert').textContent()).toMatch(/needs a title/i);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.press('Escape');
    await expect.poll(() => field.inputValue()).toBe('Short enough');
    await expect.poll(() => detail().getByRole('alert').count()).toBe(0);
    expect(await page.locator('.toast').count()).toBe(0);
  }, 60_000);

  it('lets no toast linger on the next screen', async () => {
    await page.keyboard.press('Escape');
    await nav('Personal tasks').click();
    await saveView('Mine');
    await page.locator('.toast').filter({ hasText: 'Saved view' }).waitFor();
    await nav('Inbox').click();
    await page.getByRole('list', { name: 'Notifications' }).waitFor();
    expect(await page.locator('.toast').count()).toBe(0);
  }, 30_000);

  it('every custom-field cell shows its option name, in the list, the detail and the filters', async () => {
    await page.keyboard.press('Escape');
    await nav('Mobile App Redesign').click();
    const grid = page.getByRole('grid', { name: 'Mobile App Redesign' });
    await grid.locator('[data-task-id]').first().waitFor();
    // Component picked (not only fitted), so it stays with a task and the filters open.
    await page.getByRole('button', { name: 'Display' }).click();
    const component = page.getByRole('menuitemcheckbox', { name: 'Component column' });
    if ((await component.getAttribute('aria-checked')) === 'true') await component.click();
    await expect.poll(() => component.getAttribute('aria-checked')).toBe('false');
    await component.click();
    await expect.poll(() => component.getAttribute('aria-checked')).toBe('true');
    await page.keyboard.press('Escape');
    const headers = await grid.getByRole('columnheader').allTextContents();
    const at = headers.indexOf('Component');
    expect(at).toBeGreaterThan(0);
    const cells = await grid
      .locator('[data-task-id]')
      .evaluateAll((rows, i) => rows.map((r) => r.children[i]?.textContent ?? ''), at);
    // The options, as the task detail offers them.
    await grid.locator('[data-task-id] .tt-open').first().click();
    const select = detail().getByRole('combobox', { name: 'Component' });
    const names = (await select.locator('option').allTextContents()).filter((n) => n !== '—');
    expect(names.length).toBeGreaterThan(1);
    const filled = cells.filter((c) => c !== '');
    expect(filled.length).toBeGreaterThan(0);
    expect(filled.filter((c) => !names.includes(c))).toEqual([]);
    // The detail shows the same name the row does.
    const withValue = cells.findIndex((c) => c !== '');
    const cell = cells[withValue] ?? '';
    await grid.locator('[data-task-id]').nth(withValue).locator('.tt-open').click();
    await expect
      .poll(() => select.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text))
      .toBe(cell);
    // A filter on the field picks among the options.
    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByRole('combobox', { name: 'Condition 1: field' }).selectOption('Component');
    const value = page.getByRole('combobox', { name: 'Condition 1: value' });
    expect((await value.locator('option').allTextContents()).filter((n) => n)).toEqual(
      expect.arrayContaining(names),
    );
    await value.selectOption(cell);
    await expect
      .poll(() =>
        grid
          .locator('[data-task-id]')
          .evaluateAll((rows, i) => [...new Set(rows.map((r) => r.children[i]?.textContent))], at),
      )
      .toEqual([cell]);
    await page.getByRole('button', { name: 'Clear all filters' }).click();
  }, 60_000);

  it('keeps the task title in sight while checklist items are added', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const input = detail().getByRole('textbox', { name: 'New checklist item' });
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five', 'Six']) {
      await input.fill(`Step ${name}`);
      await input.press('Enter');
      await expect.poll(() => input.inputValue()).toBe('');
    }
    const title = await detail().getByRole('textbox', { name: 'Title' }).inputValue();
    const head = detail().locator('.detail-head');
    const titleBox = await detail().getByRole('textbox', { name: 'Title' }).boundingBox();
    const headBox = await head.boundingBox();
    const titleInSight = (titleBox?.y ?? -1) >= (headBox?.y ?? 0) + (headBox?.height ?? 0) - 1;
    if (!titleInSight) await expect.poll(() => head.textContent()).toContain(title);
    await screenshot(page, 'views-1024-checklist-added');
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 30_000);

  it('My tasks hides done tasks and its chips filter the list', async () => {
    await page.keyboard.press('Escape');
    await nav('My tasks').click();
    const grid = page.getByRole('grid', { name: 'My tasks' });
    await grid.locator('[data-task-id]').first().waitFor();
    expect(await grid.locator('[data-task-id].is-done').count()).toBe(0);
    const overdue = page.getByRole('button', { name: /overdue$/ });
    const n = Number((await overdue.textContent())?.match(/\d+/)?.[0]);
    expect(n).toBeGreaterThan(0);
    await overdue.click();
    expect(await overdue.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => grid.getAttribute('aria-rowcount')).toBe(String(n + 1));
    await overdue.click();
    await expect.poll(() => grid.getAttribute('aria-rowcount')).not.toBe(String(n + 1));
  }, 30_000);

  it('says a due date the same in the list as in the task detail', async () => {
    const grid = page.getByRole('grid', { name: 'My tasks' });
    const at = (await grid.getByRole('columnheader').allTextContents()).indexOf('Due');
    expect(at).toBeGreaterThan(0);
    // By task id: rows move while the list settles, so a row's place is no handle.
    const rows = await grid
      .locator('[data-task-id]')
      .evaluateAll(
        (els, i) =>
          els.map((r) => [r.getAttribute('data-task-id') ?? '', r.children[i]?.textContent ?? '']),
        at,
      );
    const dated = rows.filter(([, cell]) => cell);
    expect(
      dated.filter(([, c]) => /^(Today|Tomorrow|Yesterday)$/.test(c ?? '')).length,
    ).toBeGreaterThan(0);
    const [locale, timeZone] = await page.evaluate(() => [
      navigator.language,
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    ]);
    const due = detail().getByLabel('Due', { exact: true });
    // Every dated row: its detail's date input, said the app's way, is what the row says.
    // Clicked again while it does not match: under load a click can land while the list
    // re-renders, and the detail then still shows the task before.
    for (const [id, cell] of dated) {
      await expect
        .poll(
          async () => {
            await grid.locator(`[data-task-id="${id}"] .tt-open`).click();
            return formatDue(`${await due.inputValue()}T12:00:00.000Z`, { locale, timeZone });
          },
          { timeout: 15_000 },
        )
        .toBe(cell);
    }
  }, 60_000);

  it('names palette commands once, each group together', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const options = palette.getByRole('option');
    await options.first().waitFor();
    const items = await options.evaluateAll((els) =>
      els.map((el) => ({
        group:
          document.getElementById(
            el.closest('[role="group"]')?.getAttribute('aria-labelledby') ?? '',
          )?.textContent ?? '',
        label: el.querySelector('.grow')?.textContent ?? '',
      })),
    );
    expect(items.filter((i) => i.label.startsWith(i.group))).toEqual([]);
    const groups = items.map((i) => i.group).filter((g, i, all) => g !== all[i - 1]);
    expect(groups).toEqual([...new Set(groups)]);
    await page.keyboard.type('go to inbox');
    await expect.poll(() => options.first().textContent()).toContain('Inbox');
    await page.keyboard.press('Escape');
  }, 30_000);

  it('signs out quietly: no console error in the whole walk, no calls after', async () => {
    expect(errors).toEqual([]);
    const calls: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 401) calls.push(r.url());
    });
    await page.getByRole('button', { name: 'Organization and account' }).click();
    await page.getByRole('menuitem', { name: /^Sign out/ }).click();
    await page.getByRole('button', { name: 'Try the demo' }).waitFor();
    await screenshot(page, 'views-signed-out');
    // The host pulled every 2 s while signed in: three periods show it has stopped.
    const since = Date.now();
    await expect
      .poll(() => Date.now() - since, { interval: 500, timeout: 10_000 })
      .toBeGreaterThan(6_000);
    expect(calls).toEqual([]);
    expect(errors).toEqual([]);
    // The two ways in line up: same left edge, same width.
    const box = (name: string) =>
      page.getByRole('button', { name, exact: true }).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return [Math.round(r.left), Math.round(r.width)];
      });
    expect(await box('Sign in')).toEqual(await box('Try the demo'));
  }, 30_000);
});
