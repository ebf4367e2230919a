import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { navButton, openDemoSession } from './demo-session';
import { type AppFixture, reportFailure, screenshot, stopAll } from './support';

/**
 * Undo in the window, checked on the server's own store: Ctrl+Z after a rename of a synced
 * task puts the old name on the server; a delete made offline and undone from its toast sends
 * nothing once the server is back.
 */
describe.sequential('Undo', () => {
  let app: AppFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ app, browser, page } = await openDemoSession());
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page)
      await reportFailure(page, `failed-undo-${ctx.task.name}`);
  });

  afterAll(() => stopAll(browser, app));

  const call = async (method: string, input: unknown) => {
    const r = await app.services.dispatcher.call(method, input);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value as Record<string, unknown>;
  };
  const onServer = (sql: string, ...params: unknown[]) =>
    app.server.server.deps.db.prepare(sql).get(...params) as Record<string, unknown> | undefined;
  const detail = () => page.getByRole('complementary', { name: /^Task:/ });
  const toast = (text: RegExp) => page.locator('.toast').filter({ hasText: text });

  /** A personal task made through the host and synced: its server id. */
  const syncedTask = async (title: string, item?: string) => {
    const made = await call('edits.apply', { kind: 'task.create', fields: { taskTitle: title } });
    await call('sync.now', {});
    const row = onServer('SELECT task_id FROM tasks WHERE title = ?', title);
    const id = Number(row?.task_id);
    expect(id).toBeGreaterThan(0);
    expect(made.id).toBeLessThan(0);
    if (item) {
      await call('edits.apply', { kind: 'checklist.create', taskId: id, name: item });
      await call('sync.now', {});
    }
    return id;
  };

  const open = async (title: string) => {
    await navButton(page, 'Personal tasks').click();
    await page.locator('[role="row"][data-task-id]').filter({ hasText: title }).first().click();
    await detail().getByRole('textbox', { name: 'Title' }).waitFor();
  };

  it('Ctrl+Z after renaming a synced task: the old name is on the server', async () => {
    const id = await syncedTask('Undo e2e: old name');
    await open('Undo e2e: old name');
    const title = detail().getByRole('textbox', { name: 'Title' });
    await title.fill('Undo e2e: new name');
    await title.press('Enter');
    await expect
      .poll(() => onServer('SELECT title FROM tasks WHERE task_id = ?', id)?.title, {
        timeout: 15_000,
      })
      .toBe('Undo e2e: new name');
    // Out of the field (in it, Ctrl+Z is the field's own text undo: keys.test.tsx).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await toast(/Undone: Renamed/).waitFor();
    await expect
      .poll(() => onServer('SELECT title FROM tasks WHERE task_id = ?', id)?.title, {
        timeout: 15_000,
      })
      .toBe('Undo e2e: old name');
    await expect
      .poll(() => detail().getByRole('textbox', { name: 'Title' }).inputValue())
      .toBe('Undo e2e: old name');
    await screenshot(page, 'undo-rename');
  }, 60_000);

  it('a delete made offline, undone from its toast, sends nothing', async () => {
    const id = await syncedTask('Undo e2e: deleted offline', 'Kept item');
    const before = onServer('SELECT modified_time, deleted FROM tasks WHERE task_id = ?', id);
    await open('Undo e2e: deleted offline');
    await app.server.stop();
    await detail().getByRole('button', { name: 'Delete task' }).click();
    await page.getByRole('button', { name: 'Delete task' }).last().click();
    await toast(/Deleted “Undo e2e: deleted offline”/)
      .getByRole('button', { name: 'Undo' })
      .click();
    await toast(/Undone: Deleted/).waitFor();
    await open('Undo e2e: deleted offline');
    await detail()
      .getByRole('checkbox', { name: /Kept item/ })
      .waitFor();
    expect((await call('sync.status', {})).pending).toBe(0);
    await app.server.start();
    await call('sync.now', {});
    expect(onServer('SELECT modified_time, deleted FROM tasks WHERE task_id = ?', id)).toEqual(
      before,
    );
    expect(onServer('SELECT name FROM checklist_items WHERE task_id = ?', id)).toEqual({
      name: 'Kept item',
    });
  }, 90_000);
});
