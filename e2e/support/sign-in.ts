import type { AuthConfigInfo } from '@pos/domain';
import type { Page } from 'playwright-core';

export type DemoAccount = NonNullable<AuthConfigInfo['accounts']>[number];

/** The demo staff accounts the local identity provider offers (GET /api/auth/config). */
export async function demoAccounts(baseUrl: string): Promise<DemoAccount[]> {
  const config = (await (await fetch(`${baseUrl}/api/auth/config`)).json()) as { info: AuthConfigInfo };
  return config.info.accounts ?? [];
}

/** The Sign in button → the provider's chooser → "Sign in as <Name> (<email>)". */
export async function signInThroughChooser(page: Page, account: DemoAccount): Promise<void> {
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Choose a demo account' }).waitFor();
  await page.getByRole('button', { name: `Sign in as ${account.name} (${account.email})` }).click();
  await waitForSignedIn(page, account);
}

/**
 * After a sign-in: the session is stored and the app has left the sign-in pages for the landing page of rules
 * 1–7 — or, where that page is not built yet, came back to the sign-in page saying "You are signed in as …"
 * (decision 020).
 */
export async function waitForSignedIn(page: Page, account: Pick<DemoAccount, 'name' | 'email'>): Promise<void> {
  await page.waitForFunction(
    (text) =>
      sessionStorage.getItem('isLoggedIn') === 'true' &&
      ((!location.hash.startsWith('#/login') && !location.hash.startsWith('#/distributor')) ||
        (document.querySelector('main')?.textContent ?? '').includes(text)),
    `You are signed in as ${account.name} (${account.email}).`,
  );
}
