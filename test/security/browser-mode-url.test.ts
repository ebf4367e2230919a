import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppFixture, launchChromium, removeDir, startApp } from '../e2e/support';

// Issue 15 item 3, in a real Chromium against browser mode serving the built UI: the secret
// the host printed leaves the address bar and the history as soon as the page loads, lives on
// in the tab's sessionStorage (a reload still works), and the page's calls carry it in a
// header, never in a URL.

describe('browser mode: the secret leaves the URL', () => {
  let app: AppFixture;
  let browser: Browser;
  beforeAll(async () => {
    app = await startApp();
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (app) removeDir(app.dataDir);
  });

  it('strips it from the address bar and history, keeps it for the tab, sends it as a header', async () => {
    const page = await browser.newPage();
    const calls: { url: string; method: string; header: string | undefined }[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/bridge/'))
        calls.push({ url: r.url(), method: r.method(), header: r.headers()['x-worktray-secret'] });
    });
    await page.goto(app.web.url);
    await page.getByRole('button', { name: 'Try the demo' }).waitFor();
    expect(page.url()).not.toContain('secret');
    expect(page.url()).toBe(`${app.web.origin}/`);
    const cdp = await page.context().newCDPSession(page);
    const history = (await cdp.send('Page.getNavigationHistory')) as {
      entries: { url: string }[];
    };
    for (const entry of history.entries) expect(entry.url).not.toContain(app.web.secret);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toContain(app.web.secret);

    // A reload (no secret in the URL now) still reaches the host.
    await page.reload();
    await page.getByRole('button', { name: 'Try the demo' }).waitFor();
    await expect(page.getByText('cannot reach its host').count()).resolves.toBe(0);

    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.length).toBeGreaterThan(1);
    for (const c of posts) {
      expect(c.url).not.toContain('secret');
      expect(c.header).toBe(app.web.secret);
    }
    await page.close();
  }, 60_000);
});
