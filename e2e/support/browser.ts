import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { instrumentBrowser } from './a11y';
import { CHROMIUM_ARGS } from './chromium';

export const e2e = inject('e2e');
/** Browser journeys skip (loudly, in global setup) when no Chromium is installed, unless E2E_REQUIRED=1. */
export const noBrowser = !e2e.chromium;

/** Chromium, its pages audited for accessibility after each navigation and at the end of each test. */
export async function launchBrowser(): Promise<Browser> {
  if (!e2e.chromium) throw new Error('no Chromium');
  const browser = await chromium.launch({ executablePath: e2e.chromium, headless: true, args: CHROMIUM_ARGS });
  // Every page the journey opens on the product is audited for accessibility (decision 136).
  return instrumentBrowser(browser, e2e.baseUrl);
}

/** A new page in a fresh context (its own storage and cookies), already on the product's origin. */
export async function newPage(browser: Browser, hash = ''): Promise<Page> {
  const context = await browser.newContext({ baseURL: e2e.baseUrl });
  const page = await context.newPage();
  await page.goto(`/${hash ? `#${hash}` : ''}`);
  return page;
}
