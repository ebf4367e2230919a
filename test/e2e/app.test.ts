import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppFixture, axe, launchChromium, removeDir, screenshot, startApp } from './support';

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

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await app?.server.stop();
    if (app) {
      removeDir(app.dataDir);
      removeDir(app.server.dataDir);
    }
  });

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

  const detail = () => page.getByRole('complementary', { name: /^Task:/ });
  const syncedRow = (selector: string) => page.locator(`${selector}[data-sync="synced"]`);

  it('creates, edits and completes a task', async () => {
    await page.getByRole('button', { name: 'Personal tasks' }).click();
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
});
