import type { Browser, Page } from 'playwright-core';
import { type AppFixture, launchChromium, startApp } from './support';

/** A browser signed in to the demo through browser mode, and what went wrong on its page. */
export interface DemoSession {
  app: AppFixture;
  browser: Browser;
  page: Page;
  /** Page errors and console errors, with where they came from. */
  errors: string[];
}

/**
 * Starts the app, opens Chromium at a desk's window (1440×900) and signs in with "Try the
 * demo", returning once the main navigation shows: the set-up every e2e file of the views
 * shares.
 */
export const openDemoSession = async (): Promise<DemoSession> => {
  const app = await startApp();
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url}`);
  });
  await page.goto(app.web.url);
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 90_000 });
  return { app, browser, page, errors };
};

/** The sidebar's entry whose name starts with `name` (a count may follow it). */
export const navButton = (page: Page, name: string) =>
  page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${name}`) });

/** Opens each secondary view the way a user does, and waits for what shows it is there. */
export const secondaryViews = (page: Page) => ({
  inbox: async () => {
    await navButton(page, 'Inbox').click();
    await page.getByRole('list', { name: 'Notifications' }).waitFor();
  },
  timesheet: async () => {
    await navButton(page, 'Timesheet').click();
    await page.getByRole('img', { name: /Hours per day/ }).waitFor();
  },
  sync: async () => {
    await navButton(page, 'Sync').click();
    await page.getByTestId('sync-state').waitFor();
  },
  spaces: async () => {
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('heading', { name: 'Spaces and projects' }).waitFor();
  },
});
