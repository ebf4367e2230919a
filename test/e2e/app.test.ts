import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readServerRows } from './server-rows';
import {
  type AppFixture,
  axe,
  launchChromium,
  reportFailure,
  screenshot,
  startApp,
  stopAll,
} from './support';

/**
 * The UI end to end: real Chromium on browser mode (host services, real engine and replica,
 * the web bridge serving the built renderer) against the reference server with the demo data.
 * The steps share one session, in order, like a user's morning.
 */
describe.sequential('the app in Chromium over browser mode', () => {
  let app: AppFixture;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 880 } });
    page.on('pageerror', (e) => errors.push(e.message));
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page)
      await reportFailure(page, `failed-${ctx.task.name}`);
  });

  afterAll(() => stopAll(browser, app));

  it('signs in to the demo and shows the first sync with counts', async () => {
    await page.goto(app.web.url);
    await page.getByRole('button', { name: 'Try the demo' }).waitFor();
    await screenshot(page, '01-sign-in');
    expect(await axe(page)).toEqual([]);
    // Slow answers so the first sync is long enough to watch.
    await app.server.admin('faults', { spec: 'latency=120-120' });
    await page.getByRole('button', { name: 'Try the demo' }).click();
    const bar = page.getByRole('progressbar', { name: 'First sync' });
    await bar.waitFor({ timeout: 15_000 });
    await page.getByTestId('bootstrap-counts').filter({ hasText: /\d/ }).waitFor();
    await screenshot(page, '02-first-sync');
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 60_000 });
    await app.server.admin('faults', { clear: true, spec: '' });
    await page.getByRole('grid', { name: 'My tasks' }).waitFor();
    await screenshot(page, '03-my-tasks');
    expect(errors).toEqual([]);
  }, 90_000);

  const nav = (name: string) =>
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: new RegExp(`^${name}`) });
  const detail = () => page.getByRole('complementary', { name: /^Task:/ });
  const syncedRow = (selector: string) => page.locator(`${selector}[data-sync="synced"]`);

  it('creates, edits and completes a task', async () => {
    await nav('Personal tasks').click();
    await page.getByRole('grid', { name: 'Personal tasks' }).waitFor();
    await page.keyboard.press('c');
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Write the e2e report');
    await dialog.getByRole('combobox', { name: 'Priority' }).selectOption('High');
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await detail().waitFor();
    const title = detail().getByRole('textbox', { name: 'Title' });
    await expect.poll(() => title.inputValue()).toBe('Write the e2e report');
    await title.fill('Write the e2e report, edited');
    await title.press('Enter');
    await detail().getByRole('combobox', { name: 'Status' }).selectOption('In Progress');
    await detail().getByRole('textbox', { name: 'Description' }).fill('Steps and screenshots.');
    await detail().getByRole('textbox', { name: 'Title' }).click();
    const row = page.getByRole('row', { name: /Write the e2e report, edited/ });
    await row.waitFor();
    await expect.poll(() => row.getByText('In Progress').count()).toBe(1);
    await detail().getByRole('button', { name: 'Complete' }).click();
    await expect.poll(() => row.getByRole('checkbox').isChecked()).toBe(true);
    // Sent: the row's mark goes from pending to synced.
    await syncedRow('[role="row"][data-task-id]')
      .filter({ hasText: 'Write the e2e report, edited' })
      .waitFor({ timeout: 20_000 });
    await screenshot(page, '04-task-detail');
    expect(await axe(page)).toEqual([]);
  }, 60_000);

  it('toggles a checklist item and keeps its assignee', async () => {
    await detail().getByRole('textbox', { name: 'New checklist item' }).fill('Attach screenshots');
    await detail().getByRole('textbox', { name: 'New checklist item' }).press('Enter');
    const assignee = detail().getByRole('combobox', { name: 'Assignee of Attach screenshots' });
    await assignee.waitFor();
    const firstUser = await assignee.locator('option').nth(1).getAttribute('value');
    await assignee.selectOption(firstUser ?? '');
    await syncedRow('li[data-checklist-id]')
      .filter({ has: page.locator(`option[value="${firstUser}"]:checked`) })
      .waitFor({ timeout: 20_000 });
    await detail().getByRole('checkbox', { name: 'Done: Attach screenshots' }).check();
    const item = page.locator('li[data-checklist-id]').filter({ hasText: '' }).first();
    await expect.poll(() => item.getByRole('checkbox').isChecked()).toBe(true);
    await syncedRow('li[data-checklist-id]').first().waitFor({ timeout: 20_000 });
    await expect.poll(() => assignee.inputValue()).toBe(firstUser);
  }, 60_000);

  it('uploads three files with progress and renames one keeping its extension', async () => {
    // Slow answers make the upload long enough to watch its bars.
    await page.evaluate(() => {
      const w = window as unknown as { sawProgress: number };
      w.sawProgress = 0;
      new MutationObserver(() => {
        if (document.querySelector('[role="progressbar"][aria-label^="Uploading"]'))
          w.sawProgress++;
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await app.server.admin('faults', { spec: 'latency=400-400' });
    const big = (n: number) => Buffer.alloc(n, 'x');
    await page.getByLabel('Attach files').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: big(600_000) },
      { name: 'data.csv', mimeType: 'text/csv', buffer: big(700_000) },
      { name: 'readme.md', mimeType: 'text/markdown', buffer: big(800_000) },
    ]);
    const files = detail().locator('li[data-attachment-id]');
    await expect.poll(() => files.count(), { timeout: 15_000 }).toBe(3);
    await expect
      .poll(() => syncedRow('li[data-attachment-id]').count(), { timeout: 30_000 })
      .toBe(3);
    await app.server.admin('faults', { clear: true, spec: '' });
    expect(
      await page.evaluate(() => (window as unknown as { sawProgress: number }).sawProgress),
    ).toBeGreaterThan(0);
    await detail().getByRole('button', { name: 'Rename notes.txt' }).click();
    const input = detail().getByRole('textbox', { name: 'New name for notes.txt' });
    await input.fill('meeting-notes');
    await input.press('Enter');
    await detail().getByRole('button', { name: 'meeting-notes.txt', exact: true }).waitFor();
    await syncedRow('li[data-attachment-id]')
      .filter({ hasText: 'meeting-notes.txt' })
      .waitFor({ timeout: 20_000 });
  }, 60_000);

  it('starts and stops a timer', async () => {
    await detail().getByRole('button', { name: 'Start timer' }).click();
    await detail().getByRole('button', { name: 'Pause' }).waitFor();
    await expect
      .poll(
        () =>
          detail()
            .getByRole('status', { name: 'Timer' })
            .or(detail().locator('output[aria-label="Timer"]'))
            .first()
            .textContent(),
        { timeout: 5_000 },
      )
      .not.toBe('0:00:00');
    await detail().getByRole('button', { name: 'Stop' }).click();
    await detail().getByRole('button', { name: 'Start timer' }).waitFor();
    await detail().getByRole('list', { name: 'Time entries' }).waitFor();
  }, 30_000);

  it('works offline and sends every edit when the server is back', async () => {
    const taskRow = page
      .locator('[role="row"][data-task-id]')
      .filter({ hasText: 'Write the e2e report, edited' });
    await app.server.stop();
    await nav('Sync').click();
    // The next background pull (every 2 s here) finds the server gone.
    await expect
      .poll(() => page.getByTestId('sync-state').textContent(), { timeout: 20_000 })
      .toBe('Offline');
    // Edits while offline: a rename, a reopen, a checklist toggle and a new task.
    await nav('Personal tasks').click();
    const title = detail().getByRole('textbox', { name: 'Title' });
    await title.fill('Write the e2e report, offline');
    await title.press('Enter');
    await detail().getByRole('button', { name: 'Reopen' }).click();
    await detail().getByRole('checkbox', { name: 'Done: Attach screenshots' }).uncheck();
    await page.keyboard.press('Escape');
    await page.keyboard.press('c');
    await page
      .getByRole('dialog', { name: 'New task' })
      .getByRole('textbox', { name: 'Title' })
      .fill('Made offline');
    await page
      .getByRole('dialog', { name: 'New task' })
      .getByRole('button', { name: 'Create task' })
      .click();
    await detail().waitFor();
    await page
      .locator('[role="row"][data-sync="pending"]')
      .filter({ hasText: 'Made offline' })
      .waitFor();
    expect(await taskRow.count()).toBe(0);
    await page
      .locator('[role="row"][data-sync="pending"]')
      .filter({ hasText: 'Write the e2e report, offline' })
      .waitFor();
    await page.getByTestId('offline-banner').waitFor();
    await nav('Sync').click();
    await expect
      .poll(async () =>
        Number((await page.getByTestId('pending-count').textContent())?.match(/\d+/)?.[0] ?? 0),
      )
      .toBeGreaterThanOrEqual(3);
    await screenshot(page, '05-sync-offline');
    await app.server.start();
    // Forced: the status line above the button changes while the engine retries.
    await page.getByRole('button', { name: 'Sync now' }).click({ force: true });
    await expect
      .poll(() => page.getByTestId('pending-count').textContent(), { timeout: 30_000 })
      .toBe('Everything is sent');
    await expect
      .poll(() => page.getByTestId('sync-state').textContent(), { timeout: 10_000 })
      .toBe('Online');
    await screenshot(page, '06-sync-done');
    // The server has them: the rows are synced, the new task has its server id.
    await nav('Personal tasks').click();
    await syncedRow('[role="row"][data-task-id]')
      .filter({ hasText: 'Made offline' })
      .waitFor({ timeout: 10_000 });
    await syncedRow('[role="row"][data-task-id]')
      .filter({ hasText: 'Write the e2e report, offline' })
      .waitFor();
    const id = Number(
      await page
        .locator('[role="row"]')
        .filter({ hasText: 'Made offline' })
        .getAttribute('data-task-id'),
    );
    expect(id).toBeGreaterThan(0);
    // Those marks are the client's own word: the server's database must hold each offline
    // edit exactly once (a lost one leaves the old title, Done or a checked item; a replayed
    // create leaves two tasks).
    const renamedId = Number(
      await page
        .locator('[role="row"]')
        .filter({ hasText: 'Write the e2e report, offline' })
        .getAttribute('data-task-id'),
    );
    const orgId = app.services.session.state().currentOrgId;
    expect(orgId).toBeGreaterThan(0);
    const stored = readServerRows(app.server.dataDir, {
      orgId: orgId ?? 0,
      titleLike: ['Write the e2e report%', 'Made offline%'],
      checklistOf: renamedId,
    });
    const open = { completed: 0, completedTime: null };
    expect(stored.tasks).toEqual([
      // Reopened back to where it was before Complete, not reset.
      { taskId: renamedId, title: 'Write the e2e report, offline', status: 'In Progress', ...open },
      { taskId: id, title: 'Made offline', status: 'To Do', ...open },
    ]);
    // Unchecked offline, and the assignee set online before is still there.
    expect(stored.checklist).toEqual([
      { name: 'Attach screenshots', completed: 0, assigneeId: expect.any(Number) },
    ]);
  }, 90_000);

  it('shows a server-refused edit with its error and discards it', async () => {
    const taskId = Number(
      await page
        .locator('[role="row"]')
        .filter({ hasText: 'Made offline' })
        .getAttribute('data-task-id'),
    );
    // A status the server does not know (statuses are learned from data, so the UI sends it).
    await page.evaluate(async (id) => {
      // The page took the secret off its URL into this tab's sessionStorage.
      const secret = sessionStorage.getItem('worktray.secret') ?? '';
      await fetch('/bridge/edits.apply', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-worktray-secret': secret },
        body: JSON.stringify({ kind: 'task.update', taskId: id, patch: { status: 'Blocked' } }),
      });
    }, taskId);
    await nav('Sync').click();
    await page.getByRole('button', { name: 'Sync now' }).click({ force: true });
    const failed = page.locator('.sync-panel li.failed-item[data-state="failed"]');
    // The open task says so too, beside its fields.
    await detail().locator('li.failed-item[data-state="failed"]').waitFor({ timeout: 20_000 });
    await failed.waitFor({ timeout: 20_000 });
    expect(await failed.textContent()).toMatch(/unknown status/i);
    await page
      .locator('[data-testid="sync-badge"]')
      .filter({ hasText: 'need attention' })
      .waitFor();
    await screenshot(page, '07-sync-failed');
    expect(await axe(page)).toEqual([]);
    await failed.getByRole('button', { name: 'Discard' }).click();
    await page.getByText('No failed edits.').waitFor({ timeout: 10_000 });
    await nav('Personal tasks').click();
    const row = page.locator('[role="row"]').filter({ hasText: 'Made offline' });
    await expect.poll(() => row.getAttribute('data-sync')).toBe('synced');
    expect(await row.getByText('Blocked').count()).toBe(0);
  }, 60_000);

  it('keeps the window and a typed draft while the server has the replica filled again', async () => {
    await page.keyboard.press('Escape');
    await nav('Personal tasks').click();
    await page.locator('[role="row"]').filter({ hasText: 'Made offline' }).click();
    await detail().waitFor();
    // What the open task's panel and the list say while the rows are gone, seen by a
    // MutationObserver.
    await page.evaluate(() => {
      const seen = new Set<string>();
      (window as unknown as { seen: Set<string> }).seen = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('aside.detail strong, .tt-body .empty strong'))
          seen.add(el.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.keyboard.press('c');
    const draft = page.getByRole('dialog', { name: 'New task' }).getByRole('textbox', {
      name: 'Title',
    });
    await draft.fill('A draft kept through a fresh bootstrap');
    const input = await draft.elementHandle();
    // The next pull of tasks hears that its export is gone (410): the engine wipes the server
    // data and fills it again. Slowed, so the fill lasts long enough to be seen.
    await app.server.admin('faults', {
      spec: 'latency=100-100',
      rules: [{ kind: 'gone', method: 'GET', pathPrefix: '/v1/bulk/tasks', count: 1 }],
    });
    const banner = page.getByTestId('rebuild-banner');
    await banner.waitFor({ timeout: 20_000 });
    await screenshot(page, '07b-fresh-bootstrap');
    await banner.waitFor({ state: 'detached', timeout: 60_000 });
    await app.server.admin('faults', { clear: true, spec: '' });
    // The very input typed into: never unmounted, still holding the draft.
    expect(await input?.evaluate((el) => el.isConnected)).toBe(true);
    expect(await draft.inputValue()).toBe('A draft kept through a fresh bootstrap');
    await draft.fill('');
    await page.keyboard.press('Escape');
    // The open task waited for its row, never saying it was gone, and shows it again.
    const seen = await page.evaluate(() => [...(window as unknown as { seen: Set<string> }).seen]);
    expect(seen).toContain('Copying this task from the server again');
    expect(seen).toContain('Copying your tasks from the server again');
    expect(seen).not.toContain('No tasks here');
    expect(seen).not.toContain('This task is no longer here');
    await page.getByRole('complementary', { name: 'Task: Made offline' }).waitFor();
    // Filled again from the server: the synced rows are back.
    await syncedRow('[role="row"][data-task-id]')
      .filter({ hasText: 'Made offline' })
      .waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
  }, 90_000);

  it('shows every main view (screenshots, axe)', async () => {
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Mobile App Redesign' }).click();
    await page.getByRole('grid', { name: 'Mobile App Redesign' }).waitFor();
    await page.getByRole('button', { name: /Filters/ }).click();
    await page.getByRole('region', { name: 'Filters' }).waitFor();
    await screenshot(page, '08-project-list-filters');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: /Filters/ }).click();
    await page
      .getByRole('radiogroup', { name: 'Layout' })
      .locator('label')
      .filter({ hasText: 'Board' })
      .click();
    await page.locator('.board-col').first().waitFor();
    await screenshot(page, '09-board');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: /^Inbox/ }).click();
    await page.getByRole('list', { name: 'Notifications' }).waitFor();
    await screenshot(page, '10-inbox');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Timesheet' }).click();
    await page.getByRole('img', { name: /Hours per day/ }).waitFor();
    await screenshot(page, '11-timesheet');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('heading', { name: 'Spaces and projects' }).waitFor();
    await screenshot(page, '12-spaces');
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    await page.keyboard.type('mobile');
    await screenshot(page, '13-palette');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await screenshot(page, '14-shortcuts');
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('button', { name: 'My tasks' }).click();
    await page.getByRole('grid', { name: 'My tasks' }).waitFor();
    await screenshot(page, '15-my-tasks-dark');
    expect(await axe(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);
});
