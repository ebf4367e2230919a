import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDemoSession, secondaryViews } from './demo-session';
import { type AppFixture, axe, reportFailure, screenshot, stopAll } from './support';

/**
 * Settings and the space overview in one demo session: the theme applies at once and comes
 * back after a reload, the sync interval reaches the host, the shortcut list is the key
 * table's; a space's overview counts its projects' tasks and links into each project; at
 * 1440×900 and 1024×768, light and dark, Settings, the overview and Spaces fit the width (in
 * test-results/settings-*.png, space-overview-*.png and spaces-*.png).
 */
describe.sequential('Settings and the space overview', () => {
  let app: AppFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  beforeAll(async () => {
    ({ app, browser, page, errors } = await openDemoSession());
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page)
      await reportFailure(page, `failed-settings-${ctx.task.name}`);
  });

  afterAll(() => stopAll(browser, app));

  const sidebar = () => page.getByRole('navigation', { name: 'Main' });
  const openSettings = async () => {
    await sidebar().getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  };
  const theme = () => page.evaluate(() => document.documentElement.getAttribute('data-theme'));
  const sideways = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
  const hostSettings = async () => {
    const r = await app.services.dispatcher.call('settings.get', {});
    if (!r.ok) throw new Error(r.error.message);
    return r.value as { theme: string; syncIntervalSeconds: number };
  };

  it('opens from the sidebar and from g then comma; the theme applies at once and persists', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press(',');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await openSettings();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(theme).toBe('dark');
    await expect.poll(async () => (await hostSettings()).theme).toBe('dark');
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    expect(await theme()).toBe('dark');
    await openSettings();
    expect(await page.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'System' }).check();
    await expect.poll(theme).toBeNull();
  });

  it('lists the shortcuts from the key table, shows the data folder, sets the sync interval', async () => {
    const keys = page.getByRole('region', { name: 'Keyboard shortcuts' });
    for (const label of ['Command palette', 'Go to Settings', 'Go to My tasks', 'New task'])
      await expect.poll(() => keys.getByText(label, { exact: true }).count()).toBe(1);
    expect(await page.getByTestId('data-folder').textContent()).toBe(app.dataDir);
    await page
      .getByLabel('Check the server for changes')
      .selectOption({ label: 'Every 5 minutes' });
    await expect.poll(async () => (await hostSettings()).syncIntervalSeconds).toBe(300);
    await page.getByRole('checkbox', { name: 'Due date reminders' }).check();
    await expect
      .poll(async () => ((await hostSettings()) as { notifyKinds?: string[] }).notifyKinds)
      .toEqual(['MENTION', 'ASSIGNED', 'DUE']);
    expect(await axe(page)).toEqual([]);
  });

  it('opens a space overview with its projects’ progress and follows a project link', async () => {
    await sidebar().getByRole('button', { name: 'Product', exact: true }).click();
    await page.getByRole('heading', { name: 'Product', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Projects of Product' });
    const row = table.locator('tr', { hasText: 'Mobile App Redesign' });
    const bar = row.getByRole('progressbar');
    const done = Number(await bar.getAttribute('aria-valuenow'));
    const total = Number(await bar.getAttribute('aria-valuemax'));
    expect(total).toBeGreaterThan(0);
    expect(done).toBeLessThanOrEqual(total);
    expect(await row.textContent()).toContain(`${done} of ${total} done`);
    expect(await page.getByRole('heading', { name: /^Members/ }).textContent()).toMatch(/\d+/);
    expect(await axe(page)).toEqual([]);
    await row.getByRole('button', { name: 'Mobile App Redesign' }).click();
    await page.getByRole('grid', { name: 'Mobile App Redesign' }).waitFor();
  });

  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    it(`fits at ${width}×${height}, light and dark`, async () => {
      await page.setViewportSize({ width, height });
      const bad: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        await openSettings();
        await page.getByRole('radio', { name: scheme === 'dark' ? 'Dark' : 'Light' }).check();
        await expect.poll(theme).toBe(scheme);
        if ((await sideways()) > 0) bad.push(`settings ${scheme}: ${await sideways()}px`);
        await screenshot(page, `settings-${width}-${scheme}`);
        await sidebar().getByRole('button', { name: 'Marketing', exact: true }).click();
        await page.getByRole('table', { name: 'Projects of Marketing' }).waitFor();
        if ((await sideways()) > 0) bad.push(`overview ${scheme}: ${await sideways()}px`);
        await screenshot(page, `space-overview-${width}-${scheme}`);
        await secondaryViews(page).spaces();
        if ((await sideways()) > 0) bad.push(`spaces ${scheme}: ${await sideways()}px`);
        await screenshot(page, `spaces-${width}-${scheme}`);
      }
      expect(bad).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});
