import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../sync/api';
import { demoClient } from '../sync/support';
import { navButton, openDemoSession } from './demo-session';
import { type AppFixture, axe, reportFailure, screenshot, stopAll } from './support';

/**
 * "Changes from sync" in the window: in Globex Labs (org 2, where the demo user and Alex Morgan
 * both work) the user renames a task while the server is away; Alex renames it too before the
 * user's edit is sent, and the server keeps Alex's later title. The window says so (a toast, a
 * badge on Sync), lists the change with both titles and who made theirs, and "Restore mine"
 * puts the user's title back on the server's own store. axe finds nothing on the list; at
 * 1440×900 and 1024×768 nothing scrolls sideways (test-results/sync-changes-*.png).
 */
describe.sequential('Changes from sync', () => {
  let app: AppFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];
  let theirs: ApiClient | undefined;
  let taskId = 0;

  const MINE = 'Analyze vibration data, offline edit';
  const THEIRS = 'Analyze vibration data (Alex)';

  beforeAll(async () => {
    ({ app, browser, page, errors } = await openDemoSession());
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page)
      await reportFailure(page, `failed-sync-changes-${ctx.task.name}`);
  });

  afterAll(async () => {
    await theirs?.close();
    await stopAll(browser, app);
  });

  const detail = () => page.getByRole('complementary', { name: /^Task:/ });
  const changes = () => page.getByRole('list', { name: 'Changes from sync' });
  const syncCount = () => navButton(page, 'Sync').getByTestId('nav-count');
  const sideways = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
  const serverTitle = () =>
    (
      app.server.server.deps.db.prepare('SELECT title FROM tasks WHERE task_id = ?').get(taskId) as
        | { title: string }
        | undefined
    )?.title;

  it('switches to Globex Labs, where the demo user and Alex both work', async () => {
    await page.getByRole('button', { name: 'Organization and account' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Globex Labs' }).click();
    await expect.poll(() => app.services.session.state().currentOrgId, { timeout: 10_000 }).toBe(2);
    await page.getByRole('grid', { name: 'My tasks' }).waitFor({ timeout: 60_000 });
    const me = app.services.session.state().user?.userId ?? 0;
    // An open project task of the user's, as the server's own store has it.
    const row = app.server.server.deps.db
      .prepare(
        `SELECT t.task_id AS taskId FROM tasks t
           JOIN task_owners o ON o.task_id = t.task_id AND o.user_id = ?
         WHERE t.org_id = 2 AND t.project_id IS NOT NULL AND t.parent_task_id IS NULL
           AND t.deleted = 0 AND t.completed = 0 AND t.title = 'Analyze vibration data'`,
      )
      .get(me) as { taskId: number } | undefined;
    taskId = row?.taskId ?? 0;
    expect(taskId).toBeGreaterThan(0);
  }, 90_000);

  it('lists a title Alex changed after the user’s offline edit, with both titles', async () => {
    await app.server.stop();
    await navButton(page, 'Sync').click();
    await expect
      .poll(() => page.getByTestId('sync-state').textContent(), { timeout: 20_000 })
      .toBe('Offline');
    // Before anything happened the list says what it is for.
    await page.getByText('Nothing changed your work while syncing.', { exact: false }).waitFor();

    await navButton(page, 'My tasks').click();
    await page.locator(`[role="row"][data-task-id="${taskId}"]`).click();
    const title = detail().getByRole('textbox', { name: 'Title' });
    await title.fill(MINE);
    await title.press('Enter');
    await page.keyboard.press('Escape');
    // Held back while the server comes back, so Alex's title is the later one.
    await navButton(page, 'Sync').click();
    await page.getByRole('button', { name: 'Pause sync' }).click({ force: true });
    await page.getByRole('button', { name: 'Resume sync' }).waitFor();
    await app.server.start();

    theirs = await demoClient(app.server.server, 2, 'other');
    const t = await theirs.ops.getTaskById({ path: { taskId } });
    await theirs.ops.updateProjectTask({
      path: { spaceId: t.spaceId ?? 0, projectId: t.projectId ?? 0, taskId },
      body: {
        taskTitle: THEIRS,
        ...(t.status ? { status: t.status } : {}),
        ...(t.priority ? { priority: t.priority } : {}),
        owners: (t.owners ?? []).map((o) => o.userId),
      },
    });
    expect(serverTitle()).toBe(THEIRS);

    // The user is elsewhere when the sync runs: a toast and the badge tell them.
    await navButton(page, 'My tasks').click();
    await page.getByRole('grid', { name: 'My tasks' }).waitFor();
    const resumed = await app.services.dispatcher.call('sync.resume', {});
    expect(resumed.ok).toBe(true);
    await app.services.dispatcher.call('sync.now', {});
    const toast = page.locator('.toast').filter({ hasText: 'Sync changed 1 of your edits' });
    await toast.waitFor({ timeout: 30_000 });
    await expect.poll(() => syncCount().textContent()).toBe('1 new change from sync');
    expect(serverTitle()).toBe(THEIRS);
    await screenshot(page, 'sync-changes-toast');

    await toast.getByRole('button', { name: 'Review' }).click();
    await changes().waitFor();
    // Opening the list is seeing it: the badge goes.
    await expect.poll(() => syncCount().count()).toBe(0);
    const item = changes().locator('li.change-item').first();
    const text = await item.textContent();
    expect(text).toContain('· Title');
    expect(text).toContain(`Yours:${MINE}`);
    expect(text).toContain(`Theirs:${THEIRS}`);
    expect(text).toMatch(/by Alex Morgan, (just now|\dm ago)/);
    expect(text).not.toMatch(/taskTitle|task:\d/);
    expect(await axe(page)).toEqual([]);
  }, 90_000);

  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    it(`fits at ${width}×${height}`, async () => {
      await page.setViewportSize({ width, height });
      await changes().scrollIntoViewIfNeeded();
      expect(await sideways()).toBe(0);
      // The list's own box stays inside its pane too (the pane may scroll, the page not).
      const overflow = await changes().evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBe(0);
      await screenshot(page, `sync-changes-${width}`);
    });
  }

  it('Restore mine puts the user’s title on the server; the row shows settled', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const item = changes().locator('li.change-item').first();
    await item.getByRole('button', { name: 'Restore mine' }).click();
    await expect.poll(serverTitle, { timeout: 20_000 }).toBe(MINE);
    await item.getByText('Settled', { exact: true }).waitFor();
    expect(await item.getByRole('button', { name: 'Restore mine' }).count()).toBe(0);
    await screenshot(page, 'sync-changes-settled');
    await item.getByRole('button', { name: 'Open' }).click();
    await expect
      .poll(() => detail().getByRole('textbox', { name: 'Title' }).inputValue())
      .toBe(MINE);
    expect(await axe(page)).toEqual([]);
    // Opening the task while the server was away: the browser logs the comments' 503 itself.
    expect(errors.filter((e) => !/status of 503 .*\/bridge\/comments\.list$/.test(e))).toEqual([]);
  }, 60_000);
});
