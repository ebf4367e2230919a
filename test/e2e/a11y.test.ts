import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { navButton, openDemoSession, secondaryViews } from './demo-session';
import { readServerRows } from './server-rows';
import { type AppFixture, axe, reportFailure, screenshot, stopAll } from './support';

/**
 * Accessibility in one demo session: axe (WCAG A/AA, serious and critical) on every main
 * view with the palette and a dialog open, at a desk's and a laptop's window, light and
 * dark (screenshots test-results/a11y-*.png); then the palette, a menu's dialog and the
 * board driven from the keyboard alone.
 */
describe.sequential('accessibility of the main views', () => {
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
      await reportFailure(page, `a11y-failed-${ctx.task.name}`);
  });

  afterAll(() => stopAll(browser, app));

  const project = 'Mobile App Redesign';
  const nav = (name: string) => navButton(page, name);
  const detail = () => page.getByRole('complementary', { name: /^Task:/ });
  const layout = (name: 'List' | 'Board') =>
    page.getByRole('radiogroup', { name: 'Layout' }).locator('label').filter({ hasText: name });
  const palette = () => page.getByRole('dialog', { name: 'Command palette' });
  const closeAll = async () => {
    // A view's own Escape (the task detail) or a leftover overlay; twice closes both.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
  };

  /** Built once signed in: the openers hold the page. */
  const mainViews = (): { name: string; open: () => Promise<void> }[] => [
    {
      name: 'my-tasks',
      open: async () => {
        await closeAll();
        await nav('My tasks').click();
        await page.getByRole('grid', { name: 'My tasks' }).waitFor();
      },
    },
    {
      name: 'project-list',
      open: async () => {
        await nav(project).click();
        await layout('List').click();
        await page.getByRole('grid', { name: project }).locator('[data-task-id]').first().waitFor();
      },
    },
    {
      name: 'task-detail',
      open: async () => {
        await page.getByRole('grid', { name: project }).locator('.tt-open').first().click();
        await detail().waitFor();
      },
    },
    {
      name: 'board',
      open: async () => {
        await closeAll();
        await layout('Board').click();
        await page.locator('.board-col [data-task-id]').first().waitFor();
      },
    },
    ...Object.entries(secondaryViews(page)).map(([name, open]) => ({ name, open })),
    {
      name: 'palette',
      open: async () => {
        await page.keyboard.press('Control+k');
        await palette().getByRole('option').first().waitFor();
        await page.keyboard.type('mobile');
        await palette().getByRole('group', { name: 'Projects' }).waitFor();
      },
    },
    {
      name: 'dialog',
      open: async () => {
        await closeAll();
        await page.keyboard.press('c');
        await page.getByRole('dialog', { name: 'New task' }).waitFor();
      },
    },
  ];

  it('axe finds nothing on any main view, at 1440×900 and 1024×768, light and dark', async () => {
    const found: string[] = [];
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        for (const v of mainViews()) {
          await v.open();
          for (const x of await axe(page))
            found.push(`${width} ${scheme} ${v.name}: ${x.id} ${x.targets.join(' ')}`);
          await screenshot(page, `a11y-${width}-${scheme}-${v.name}`);
        }
        await closeAll();
      }
    }
    expect(found).toEqual([]);
    expect(errors).toEqual([]);
    // 40 axe runs and screenshots: 46-69 s measured at load average 9-13 on 2 cores.
  }, 150_000);

  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return `${el?.tagName} ${el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? ''}`;
    });

  it('the palette works from the keyboard and gives focus back', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await nav('My tasks').focus();
    const before = await focused();
    await page.keyboard.press('Control+k');
    const input = palette().getByRole('combobox');
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    const selected = () => palette().locator('[role="option"][aria-selected="true"]').innerText();
    const first = await selected();
    await page.keyboard.press('ArrowDown');
    expect(await selected()).not.toBe(first);
    await page.keyboard.press('ArrowUp');
    expect(await selected()).toBe(first);
    await page.keyboard.type('go to inbox');
    await expect.poll(selected).toContain('Inbox');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Notifications' }).waitFor();
    await palette().waitFor({ state: 'detached' });
    expect(await focused()).toBe(before);
    // Escape closes it with nothing run, focus back where it was.
    await page.keyboard.press('Control+k');
    await input.waitFor();
    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
    expect(await focused()).toBe(before);
  }, 30_000);

  it('a menu opens a dialog from the keyboard; Escape gives focus back to the menu button', async () => {
    await nav(project).click();
    await layout('List').click();
    const views = page.getByRole('button', { name: 'Saved views' });
    await views.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Saved views' });
    await menu.waitFor();
    // Arrows move through the items; the last one is the dialog's.
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await expect.poll(focused).toContain('Save this view');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Save this view' });
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
    // Tab stays within the dialog, however far it goes.
    for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('BUTTON Saved views');
  }, 30_000);

  it('moves a board card by keyboard (Space, arrow, Space), Alt+arrow and pointer, one edit each', async () => {
    await layout('Board').click();
    const columns = page.locator('.board-col');
    const card = columns.nth(0).locator('[data-task-id]').first();
    const id = await card.getAttribute('data-task-id');
    const title = (await card.locator('.card-title').innerText()).trim();
    const from = (await columns.nth(0).locator('h2').innerText()).trim();
    const to = (await columns.nth(1).locator('h2').innerText()).trim();
    const inColumn = (n: number) => columns.nth(n).locator(`[data-task-id="${id}"]`);
    const live = page.locator('[role="status"][aria-live="assertive"]');
    const serverStatus = () =>
      readServerRows(app.server.dataDir, {
        orgId: app.services.session.state().currentOrgId ?? 0,
        titleLike: [title],
        checklistOf: 0,
      }).tasks.find((t) => String(t.taskId) === id)?.status;

    await card.locator('button').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => live.innerText()).toContain(`Picked up ${title}`);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => live.innerText()).toContain(`is over ${to}`);
    await page.keyboard.press('Space');
    await inColumn(1).waitFor();
    await expect.poll(() => live.innerText()).toContain(`moved to ${to}`);
    await expect.poll(serverStatus, { timeout: 15_000 }).toBe(to);

    await inColumn(1).locator('button').focus();
    await page.keyboard.press('Alt+ArrowLeft');
    await inColumn(0).waitFor();
    await expect.poll(serverStatus, { timeout: 15_000 }).toBe(from);

    // The pointer: press, travel past the click threshold, let go over the next column. The
    // card is pressed where it rests: the re-read after the last move's answer may still
    // re-order its column (a slow machine), so its box is read until it holds still.
    let start = await inColumn(0).boundingBox();
    for (let i = 0; i < 20; i++) {
      await page.waitForTimeout(150);
      const again = await inColumn(0).boundingBox();
      if (JSON.stringify(again) === JSON.stringify(start)) break;
      start = again;
    }
    const target = await columns.nth(1).boundingBox();
    if (!start || !target) throw new Error('the board is not laid out');
    await page.mouse.move(start.x + 20, start.y + 10);
    await page.mouse.down();
    await page.mouse.move(start.x + 40, start.y + 20, { steps: 4 });
    await page.mouse.move(target.x + target.width / 2, target.y + 80, { steps: 8 });
    await page.mouse.up();
    await inColumn(1).waitFor();
    await expect.poll(serverStatus, { timeout: 15_000 }).toBe(to);
    expect(errors).toEqual([]);
  }, 45_000);
});
