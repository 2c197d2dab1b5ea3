import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, signInAsStaff } from './support/staff-session';

/*
 * Breath of life (#/breathoflife; issue 18 part 4, decision 131), as Customer Care works it: open Breath of life from
 * the navigation, show the new cases of lapsed licenses (the demo seed's suspended stores lapsed), open one, log a
 * call, offer to waive the reactivation fee, reactivate it (confirm): the toast says the payment link was sent, the
 * case is won, and the store leaves the list of new cases (it shows under "Won").
 */
describe.skipIf(noBrowser)('breath of life: lapsed store → call → fee waived → reactivate (issue 18)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('a Customer Care user wins back a lapsed store from the work list', async () => {
    const { page, errors, context } = await signInAsStaff(browser, 'care@example.com');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Breath of life' }).click();
    await main(page).getByRole('heading', { name: 'Breath of life', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/breathoflife');
    expect(await nav.getByRole('link', { name: 'Breath of life' }).getAttribute('aria-current')).toBe('page');

    // The new cases of lapsed licenses.
    const filters = main(page).getByRole('search', { name: 'Filter the win-back list' });
    await filters.getByRole('combobox', { name: 'Reason' }).selectOption('lapsed');
    await filters.getByRole('combobox', { name: 'Win-back status' }).selectOption('new');
    const listed = page.waitForResponse((r) => /\/api\/breathoflife\/[^/?]+\?.*status=new/.test(r.url()) && r.ok());
    await filters.getByRole('button', { name: 'Apply' }).click();
    await listed;
    const table = main(page).getByRole('table', { name: /^Win-back list — [\d,]+ stores?$/ });
    const rows = table.locator('tbody tr').filter({ hasText: 'License lapsed on' });
    await rows.first().waitFor();
    const opener = rows.first().getByRole('link', { name: /^Open the case of / });
    const storeName = ((await opener.textContent()) ?? '').trim();
    expect(storeName).not.toBe('');
    await opener.click();
    // The open case is in the address (a link to it opens it).
    await page.waitForURL(/store=\d+/);

    const drawer = page.getByRole('dialog', { name: /^Win-back case of store \d+$/ });
    await drawer.getByRole('heading', { name: storeName }).waitFor();
    await drawer.getByLabel('Status: New').waitFor();

    // Log a call.
    await drawer.getByRole('textbox', { name: 'What was said' }).fill('Spoke with the owner; wants to come back');
    await drawer.getByRole('button', { name: 'Log' }).click();
    await drawer
      .getByRole('table', { name: 'Activity history' })
      .getByText(/wants to come back/)
      .waitFor();
    await drawer.getByLabel('Status: Contacted').waitFor();

    // Offer to waive the reactivation fee.
    await drawer.getByRole('combobox', { name: 'Offer' }).selectOption('fee_waived');
    await drawer.getByRole('button', { name: 'Make offer' }).click();
    await drawer.getByLabel('Status: Offer made').waitFor();
    await drawer.getByText('No reactivation fee.').waitFor();

    // Reactivate, after confirming.
    await drawer.getByRole('button', { name: 'Reactivate' }).click();
    const confirm = page.getByRole('dialog', { name: `Reactivate ${storeName}?` });
    await confirm.waitFor();
    const [response] = await Promise.all([
      page.waitForResponse((r) => /\/api\/breathoflife\/\d+\/reactivate\//.test(r.url())),
      confirm.getByRole('button', { name: 'Reactivate' }).click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().headers()['idempotency-key']).toBeTruthy();
    const info = ((await response.json()) as { info: { fee_invoice_number: string | null } }).info;
    expect(info.fee_invoice_number).toBeNull();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Store reactivated' })
      .getByText(/Payment link sent to /)
      .waitFor();
    await drawer.getByLabel('Status: Won').waitFor();

    // The store leaves the list of new cases, and shows as won.
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await page.waitForURL((url) => !/store=/.test(url.href));
    await table.getByRole('link', { name: `Open the case of ${storeName}` }).waitFor({ state: 'detached' });
    await filters.getByRole('combobox', { name: 'Win-back status' }).selectOption('won');
    await filters.getByRole('button', { name: 'Apply' }).click();
    const won = table
      .locator('tbody tr')
      .filter({ has: page.getByRole('link', { name: `Open the case of ${storeName}` }) });
    await won.waitFor();
    expect(await won.textContent()).toContain('Won');

    expect(errors).toEqual([]);
    await context.close();
  });
});
