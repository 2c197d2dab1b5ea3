import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import {
  fillStoreInfo,
  monthlyCharges,
  newMerchant,
  payUpfrontByCard,
  selectHardware,
  startOrder,
} from './support/order-flow';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * Taxes (issue 17 points 5 and 6, decision 127), as an admin works them from the navigation:
 *  - #/arizona: an Arizona store's order summary is taxed; once its TPT certificate is recorded, the summary of the
 *    same order shows no tax;
 *  - #/admin/taxes: a rate change scheduled from tomorrow leaves today's order summary at today's rate; a date in the
 *    past is refused.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/**
 * The order summary's tax row: 'Tax' when there is none, else named for the jurisdiction — 'Sales tax (AZ) 5.6%',
 * 'GST 5%', 'HST (ON) 13%' (decision 149).
 */
const TAX = /^(Tax|Sales tax\b.*|(GST|HST|PST|QST|RST)\b.*)$/;

/** The amount (in cents) of a totals row ('Subtotal', TAX, 'Total') of the order summary. */
async function totalsRow(page: Page, label: string | RegExp): Promise<number> {
  const table = main(page).getByRole('table', { name: /^Totals \((USD|CAD)\)/ });
  await table.waitFor();
  const row = table.getByRole('row').filter({ has: page.getByText(label, { exact: true }) });
  const text = (await row.first().textContent()) ?? '';
  const m = /\$([\d,]+\.\d{2})/.exec(text);
  if (!m) throw new Error(`no amount in the ${label} row: ${text}`);
  return Math.round(Number(m[1]!.replace(/,/g, '')) * 100);
}

/** From the order's store-information step (prefilled) to its summary: 1 terminal, card, $49.00 a month. */
async function toSummary(page: Page): Promise<void> {
  await main(page).getByRole('button', { name: 'Save and continue' }).click();
  await page.waitForURL(/#\/sale-summary\/\d+$/);
  await selectHardware(page, 1);
  await page.waitForURL(/#\/payment-plan-method\/\d+$/);
  await payUpfrontByCard(page, 'Pat Store');
  await page.waitForURL(/#\/charges\/\d+$/);
  await monthlyCharges(page, '49.00');
  await page.waitForURL(/#\/summary\/\d+$/);
}

describe.skipIf(noBrowser)('taxes: rates with effective dates and Arizona certificates (issue 17)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it("an Arizona certificate removes the tax from an Arizona store's order summary", async () => {
    const { page, errors, context } = await signInAsStaff(browser, 'admin@example.com');
    // An Arizona store of the demo data: one whose certificate is on file (the seed records some for Arizona stores).
    const token = await sessionToken(page);
    const listed = await context.request.get(`${e2e.baseUrl}/api/taxcertificates/${token}?expiring=365`);
    expect(listed.status()).toBe(200);
    const items = ((await listed.json()) as { info: { items: { store_id: number }[] } }).info.items;
    expect(items.length).toBeGreaterThan(0);
    const storeId = items[0]!.store_id;

    await nav(page).getByRole('link', { name: 'Tax certificate' }).click();
    await main(page).getByRole('heading', { name: 'Arizona tax certificates', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/arizona');
    await main(page).getByRole('textbox', { name: 'Store' }).fill(String(storeId));
    await main(page)
      .getByRole('radio', { name: new RegExp(`\\(store ${storeId},`) })
      .click();
    // Chosen: the form names the store.
    await main(page).getByRole('button', { name: 'Change store' }).waitFor();
    // Its certificates: revoke those on file, so its sale is taxed again.
    const mine = main(page).getByRole('table', { name: /^Certificates of / });
    await mine.getByRole('row').nth(1).waitFor();
    // The Revoke buttons come with the permission check (only customer editors may revoke).
    await mine
      .getByRole('button', { name: /^Revoke certificate / })
      .or(mine.getByText('Revoked'))
      .first()
      .waitFor();
    while ((await mine.getByRole('button', { name: /^Revoke certificate / }).count()) > 0) {
      await mine
        .getByRole('button', { name: /^Revoke certificate / })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: 'Revoke the certificate?' });
      await dialog.getByRole('button', { name: 'Revoke certificate' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await mine.getByText('Revoked').first().waitFor();

    // An order for this store: its summary is taxed at the Arizona rate.
    await main(page).getByRole('link', { name: 'New order for this store' }).click();
    await main(page).getByRole('heading', { name: 'New order', level: 1 }).waitFor();
    await main(page).getByRole('radio', { name: 'POS (hardware and software)' }).check();
    await main(page).getByRole('button', { name: 'Start order' }).click();
    await page.waitForURL(/#\/store-info\/\d+$/);
    await toSummary(page);
    const summaryUrl = page.url();
    await main(page)
      .getByRole('row', { name: /^(Tax|Sales tax)/ })
      .waitFor();
    await expect.poll(() => totalsRow(page, TAX)).toBeGreaterThan(0);
    const subtotal = await totalsRow(page, 'Subtotal');

    // Record the store's TPT certificate (valid a year) with its file.
    await nav(page).getByRole('link', { name: 'Tax certificate' }).click();
    await main(page).getByRole('textbox', { name: 'Store' }).fill(String(storeId));
    await main(page)
      .getByRole('radio', { name: new RegExp(`\\(store ${storeId},`) })
      .click();
    // Chosen: the form names the store.
    await main(page).getByRole('button', { name: 'Change store' }).waitFor();
    const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    await main(page).getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Arizona TPT license' });
    await main(page).getByRole('textbox', { name: 'Certificate number' }).fill('TPT-20261122');
    await main(page).getByLabel('Expires on').fill(nextYear);
    await main(page)
      .getByLabel('Certificate file')
      .setInputFiles({
        name: 'tpt-license.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
      });
    await main(page).getByRole('button', { name: 'Record certificate' }).click();
    await page.getByText('Certificate recorded').waitFor();
    await main(page)
      .getByRole('table', { name: /^Certificates of / })
      .getByText('TPT-20261122')
      .waitFor();

    // Back to the order (browser history): no tax, the total is the subtotal.
    while (page.url() !== summaryUrl) await page.goBack();
    await main(page).getByRole('status').filter({ hasText: 'No sales tax' }).waitFor();
    expect(await totalsRow(page, TAX)).toBe(0);
    expect(await totalsRow(page, 'Total')).toBe(subtotal);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a tax rate change applies only from its effective date', async () => {
    const { page, errors, context } = await signInAsStaff(browser, 'admin@example.com');
    await nav(page).getByRole('link', { name: 'Tax rates' }).click();
    await main(page).getByRole('heading', { name: 'Tax rates', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/admin/taxes');
    const rates = main(page).getByRole('table', { name: /^Rates on / });
    const texas = rates.getByRole('row', { name: /^Texas \(TX\)/ });
    await texas.waitFor();
    expect(await texas.textContent()).toContain('6.25 %');

    const form = main(page).getByRole('form', { name: 'Schedule a rate change' });
    await form.getByRole('combobox', { name: 'Country' }).selectOption({ label: 'United States' });
    await form.getByRole('combobox', { name: 'State' }).selectOption({ label: 'Texas (TX)' });
    await form.getByRole('textbox', { name: 'State sales tax (%)' }).fill('7.5');
    // The past is not edited.
    const today = (await form.getByLabel('Effective from').getAttribute('min'))!;
    const day = (iso: string, n: number) =>
      new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel('Effective from').fill(day(today, -1));
    await form.getByRole('button', { name: 'Schedule rate' }).click();
    await form.getByText(/or later: past rates are not changed/).waitFor();
    errors.length = 0; // the refused request's 400 in the console

    // From tomorrow: scheduled, today's rate unchanged.
    const tomorrow = day(today, 1);
    await form.getByLabel('Effective from').fill(tomorrow);
    await form.getByRole('button', { name: 'Schedule rate' }).click();
    await page.getByText('Tax rate scheduled').waitFor();
    await expect.poll(async () => texas.textContent()).toMatch(/7\.50 % from /);
    expect(await texas.textContent()).toMatch(/^Texas \(TX\)US6\.25 %/);

    // Today's order summary for a Texas merchant is taxed at 6.25 %, not 7.5 %.
    await nav(page).getByRole('link', { name: 'Orders' }).click();
    await startOrder(page, { type: 'POS', country: 'US' });
    await fillStoreInfo(page, newMerchant('US'));
    await page.waitForURL(/#\/sale-summary\/\d+$/);
    await selectHardware(page, 1);
    await page.waitForURL(/#\/payment-plan-method\/\d+$/);
    await payUpfrontByCard(page, 'Maya Reyes');
    await page.waitForURL(/#\/charges\/\d+$/);
    await monthlyCharges(page, '49.00');
    await page.waitForURL(/#\/summary\/\d+$/);
    await expect.poll(() => totalsRow(page, TAX)).toBeGreaterThan(0);
    const subtotal = await totalsRow(page, 'Subtotal');
    expect(await totalsRow(page, TAX)).toBe(Math.floor((subtotal * 625 + 5000) / 10000));
    expect(errors).toEqual([]);
    await context.close();
  });
});
