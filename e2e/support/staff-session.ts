import type { Browser, BrowserContext, Page } from 'playwright-core';
import { e2e } from './browser';
import { demoAccounts, signInThroughChooser, type DemoAccount } from './sign-in';

/** A browser context signed in as a staff user, and what its page reported as errors since the sign-in. */
export interface StaffSession {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions of the page; a test may clear what it caused on purpose. */
  readonly errors: string[];
}

let accounts: Promise<DemoAccount[]> | undefined;

/** The demo staff user with `email` among the accounts the local identity provider offers (asked once). */
export async function demoAccount(email: string): Promise<DemoAccount> {
  accounts ??= demoAccounts(e2e.baseUrl);
  const found = (await accounts).find((a) => a.email === email);
  if (!found) throw new Error(`the demo data has no staff user ${email}`);
  return found;
}

/**
 * A fresh context (its own storage and cookies) on the product, signed in as the demo staff user `email`
 * through the provider's chooser. Errors count from the signed-in page on: the chooser page is the
 * identity provider's, not the product's.
 */
export async function signInAsStaff(browser: Browser, email: string): Promise<StaffSession> {
  const context = await browser.newContext({ baseURL: e2e.baseUrl });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/#/login');
  await signInThroughChooser(page, await demoAccount(email));
  errors.length = 0;
  return { context, page, errors };
}

/** The session token the app keeps in session storage ('' when signed out). */
export function sessionToken(page: Page): Promise<string> {
  return page.evaluate(
    () => (JSON.parse(sessionStorage.getItem('sessionInfo') ?? '{}') as { token?: string }).token ?? '',
  );
}

/** The page's main landmark and its header (banner), where the journeys look. */
export const mainOf = (page: Page) => page.getByRole('main');
export const headerOf = (page: Page) => page.getByRole('banner');
