import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, noBrowser } from './support/browser';

describe.skipIf(noBrowser)('the app shell in a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('opens on the sign-in page at #/login', async () => {
    const page = await newPage(browser);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/login');
    await expect(page.getByRole('button', { name: 'Sign in' }).first().isVisible()).resolves.toBe(true);
    await page.context().close();
  });

  it('sends an unknown hash path to #/login', async () => {
    const page = await newPage(browser, '/no/such/page');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/login');
    await page.context().close();
  });

  it('loads without console errors and with the XSRF cookie set', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    const { e2e } = await import('./support/browser');
    await page.goto(`${e2e.baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name)).toContain('XSRF-TOKEN');
    expect(errors).toEqual([]);
    await context.close();
  });
});
