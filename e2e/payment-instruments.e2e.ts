import { customerRecord } from '@pos/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/auth-server';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * #/payment/instruments (issue 15 point 8, decision 115), as support@example.com works it: open Payment instruments
 * from the navigation, find a demo customer by its id, add the test card 4242 4242 4242 4242 (not as the default),
 * make it the default, and see it listed as the default. Customer 100011 of the demo data: no other journey uses it.
 */
const CUSTOMER_ID = 100011;

describe.skipIf(noBrowser)('payment instruments: find a customer, add a card, make it the default (issue 15)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  it('a staff user adds a test card for a demo customer and makes it the default', async () => {
    const { context, page, errors } = await signInAsStaff(browser, 'support@example.com');
    const token = await sessionToken(page);
    const customer = customerRecord.parse(
      await callApi(context, e2e.baseUrl, 'GET', `/api/customers/${CUSTOMER_ID}/${token}`),
    );

    await nav(page).getByRole('link', { name: 'Payment instruments' }).click();
    await main(page).getByRole('heading', { name: 'Payment instruments', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/payment/instruments');
    // The expiring-cards section is there from the start (whatever the demo data holds).
    await main(page).getByRole('heading', { name: 'Expiring cards (30 days)' }).waitFor();

    // Find the customer by its id and open it.
    await main(page).getByRole('searchbox', { name: 'Search customers' }).fill(String(CUSTOMER_ID));
    await main(page).getByRole('button', { name: 'Search', exact: true }).click();
    const results = main(page).getByRole('region', { name: 'Results' });
    await results.getByRole('link', { name: customer.legal_name }).first().click();
    await main(page).getByRole('heading', { name: customer.legal_name, level: 2 }).waitFor();
    expect(new URL(page.url()).hash).toContain(`customer=${CUSTOMER_ID}`);
    const table = main(page).getByRole('table', { name: /Payment instruments/ });
    await table.getByRole('row').nth(1).waitFor();

    // Add the test card, not as the default.
    const form = main(page).getByRole('form', { name: 'Card' });
    await form.getByLabel('Name on card').fill('Dana Test');
    await form.getByLabel('Card number').fill('4242 4242 4242 4242');
    await form.getByLabel('Expiry month').fill('12');
    await form.getByLabel('Expiry year').fill(String(new Date().getFullYear() + 3));
    await form.getByLabel('Security code').fill('123');
    await form.getByLabel('Make this the default payment method').uncheck();
    await form.getByRole('button', { name: 'Save card' }).click();
    await page.getByText(/Visa ending 4242 is saved\./).waitFor();

    // Make it the default: its row then says Default.
    const makeDefault = table.getByRole('button', { name: 'Make Visa ending 4242 the default' }).first();
    await makeDefault.waitFor();
    await makeDefault.click();
    await page.getByText('Visa ending 4242 is now the default.').waitFor();
    const isDefault = { has: page.getByText('Default', { exact: true }) };
    await table.getByRole('row', { name: 'Visa ending 4242' }).filter(isDefault).first().waitFor();
    // One default only: no other row of the customer carries the Default badge.
    expect(await table.locator('tbody tr').filter(isDefault).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
