import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, signInAsStaff } from './support/staff-session';

/*
 * Catalogue management (issue 17 point 4, decision 126), on the demo data: an admin opens the catalogue through the
 * navigation, changes a billing item's USD price and adds a retire reason; both show at once.
 */
describe.skipIf(noBrowser)('catalogue management (issue 17)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it("an admin changes a billing item's USD price and adds a retire reason", async () => {
    const { context, page, errors } = await signInAsStaff(browser, 'admin@example.com');
    const adminNav = page.getByRole('navigation', { name: 'Main' }).getByRole('group', { name: 'Admin' });
    await adminNav.getByRole('link', { name: 'Catalogue' }).click();
    await main(page).getByRole('heading', { name: 'Catalogue', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/admin/catalogue');

    // Billing items: find the shipping item, change its USD price.
    const items = main(page).getByRole('table', { name: 'Billing items' });
    await main(page).getByLabel('Filter billing items').fill('Shipping');
    const row = items.getByRole('row').filter({ hasText: 'Shipping' }).first();
    await row.waitFor();
    const name = (await row.getByRole('cell').nth(1).textContent())!.trim();
    await row.getByRole('button', { name: /^Edit / }).click();
    const dialog = page.getByRole('dialog', { name: /Edit billing item/ });
    const usd = dialog.getByLabel('USD ($) price');
    const before = await usd.inputValue();
    const next = before === '31.75' ? '32.25' : '31.75';
    await usd.fill(next);
    await dialog.getByRole('button', { name: 'Save billing item' }).click();
    await page.getByText(`Billing item ${name.replace(/Recurring|Feature/g, '')} saved.`).waitFor();
    await row.getByText(`$${next}`).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // Lists: add a retire reason.
    await main(page).getByRole('tab', { name: 'Lists' }).click();
    const reasons = main(page).getByRole('table', { name: 'Retire reasons' });
    await reasons.waitFor();
    const code = `E2E${Date.now().toString(36).toUpperCase()}`;
    await main(page).getByRole('button', { name: 'Add entry' }).click();
    const add = page.getByRole('dialog', { name: /Add to Retire reasons/ });
    await add.getByRole('textbox', { name: /^Code/ }).fill(code);
    await add.getByRole('textbox', { name: /^Label/ }).fill(`Water damage ${code}`);
    await add.getByRole('button', { name: 'Save entry' }).click();
    await reasons
      .getByRole('row')
      .filter({ hasText: `Water damage ${code}` })
      .waitFor();
    expect(await reasons.getByRole('row').filter({ hasText: code }).getByText('Active').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
