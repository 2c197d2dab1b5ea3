import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * Receipts (issue 16 point 3, decision 119), as an AR user works it: open Receipts from the navigation, record a
 * check from a US merchant with the check's image, follow the link to apply it, spread it over two of the
 * merchant's open invoices (all of the first, part of the second) and see the balances drop and the rest stay on
 * the receipt. The merchant is one of the demo data's with two open USD invoices (looked up through the API).
 */

interface InvoiceRow {
  id: number;
  invoice_number: string;
  customer_id: number;
  legal_name: string;
  currency: string;
  balance_cents: number;
  status: string;
}

async function getJson<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(`${e2e.baseUrl}${path}`);
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
  return ((await res.json()) as { info: T }).info;
}

/** A merchant with two open USD invoices (smallest balances first). */
async function merchantWithTwoOpenInvoices(page: Page) {
  const token = await sessionToken(page);
  const list = await getJson<{ items: InvoiceRow[] }>(
    page,
    `/api/invoices/${token}?currency=USD&status=N&limit=500&sort=-issued_on`,
  );
  const byCustomer = new Map<number, InvoiceRow[]>();
  for (const inv of list.items)
    if (inv.balance_cents > 0) byCustomer.set(inv.customer_id, [...(byCustomer.get(inv.customer_id) ?? []), inv]);
  for (const [customerId, invoices] of byCustomer) {
    if (invoices.length < 2) continue;
    const customer = await getJson<{ country: string; legal_name: string }>(
      page,
      `/api/customers/${customerId}/${token}`,
    ).catch(() => null);
    if (customer?.country !== 'US') continue;
    return { customerId, legalName: invoices[0]!.legal_name };
  }
  throw new Error('the demo data has no US merchant with two open USD invoices');
}

/** '$1,234.56' → 123456. */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);
const dollars = (c: number) => `$${(c / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

describe.skipIf(noBrowser)('receipts: record a check with its image → apply it across two invoices (issue 16)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('AR records a check receipt with its image and applies it across two invoices', async () => {
    const { page, errors } = await signInAsStaff(browser, 'ar@example.com');
    const merchant = await merchantWithTwoOpenInvoices(page);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Receipts' }).click();
    await main(page).getByRole('heading', { name: 'Receipts', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/view-receipts');
    await main(page)
      .getByRole('table', { name: /^Receipts — / })
      .waitFor();

    // Record a check: the merchant found by name, the amount, the check number and its image.
    await main(page).getByRole('button', { name: 'Record receipt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record receipt' });
    await dialog.getByRole('textbox', { name: 'Merchant' }).fill(merchant.legalName);
    await dialog.getByRole('radio', { name: new RegExp(`\\(customer ${merchant.customerId},`) }).click();
    await dialog.getByText(`${merchant.legalName} (customer ${merchant.customerId})`).waitFor();
    expect(await dialog.getByRole('combobox', { name: 'Method' }).inputValue()).toBe('check');
    await dialog.getByRole('textbox', { name: 'Amount' }).fill('5000.00');
    await dialog.getByRole('textbox', { name: 'Check number' }).fill('20417');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2040, 7)]);
    await dialog
      .getByLabel('Check image')
      .setInputFiles({ name: 'check-20417.png', mimeType: 'image/png', buffer: png });
    const [upload, recorded] = await Promise.all([
      page.waitForResponse((r) => /\/api\/receipts\/checkimage\//.test(r.url())),
      page.waitForResponse((r) => /\/api\/receipts\/[^/]+$/.test(r.url()) && r.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Record receipt' }).click(),
    ]);
    expect(upload.status()).toBe(201);
    expect(recorded.status()).toBe(201);
    const receiptId = ((await recorded.json()) as { info: { receipt: { id: number } } }).info.receipt.id;
    await page.getByText(`Receipt ${receiptId}: $5,000.00 from ${merchant.legalName}.`).waitFor();

    // The list shows it, its image on file, all of it left to apply.
    const row = main(page)
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `Apply receipt ${receiptId}` }) });
    await row.waitFor();
    expect(await row.textContent()).toContain('Check image on file');
    expect(await row.textContent()).toContain('20417');

    // Apply it: the merchant's open invoices with their balances.
    await row.getByRole('link', { name: `Apply receipt ${receiptId}` }).click();
    await main(page)
      .getByRole('heading', { name: `Apply receipt ${receiptId}`, level: 1 })
      .waitFor();
    expect(new URL(page.url()).hash).toBe(`#/view-receipts/${receiptId}`);
    const open = main(page).getByRole('table', { name: `Open invoices of ${merchant.legalName} in USD` });
    const rows = open.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    const read = async (i: number) => {
      const cells = await rows.nth(i).locator('td').allTextContents();
      return { number: cells[0]!, balance: cents(cells[5]!) };
    };
    const first = await read(0);
    const second = await read(1);
    expect(first.balance).toBeGreaterThan(0);
    expect(second.balance).toBeGreaterThan(1);

    // All of the first, half of the second: "Left to apply" follows what is typed.
    const half = Math.floor(second.balance / 2);
    await open
      .getByRole('textbox', { name: `Amount to apply to ${first.number}` })
      .fill((first.balance / 100).toFixed(2));
    await open.getByRole('textbox', { name: `Amount to apply to ${second.number}` }).fill((half / 100).toFixed(2));
    const left = 500_000 - first.balance - half;
    await main(page)
      .getByText(`Left to apply: ${dollars(left)}`)
      .waitFor();

    const [applied] = await Promise.all([
      page.waitForResponse((r) => /\/api\/receipts\/\d+\/applications\//.test(r.url())),
      main(page).getByRole('button', { name: 'Apply', exact: true }).click(),
    ]);
    expect(applied.status()).toBe(200);
    await page.getByText(/^\$[\d,.]+ applied to 2 invoices; \$[\d,.]+ left on the receipt\.$/).waitFor();

    // The balances dropped: the first invoice is paid and leaves the open list; the second shows what is left.
    await open.getByRole('row').filter({ hasText: first.number }).waitFor({ state: 'detached' });
    const secondRow = open.getByRole('row').filter({ hasText: second.number });
    expect(cents((await secondRow.locator('td').nth(5).textContent())!)).toBe(second.balance - half);
    expect(await main(page).getByLabel('Unapplied').textContent()).toBe(dollars(left));
    const appliedTable = main(page).getByRole('table', { name: 'Applied to invoices' });
    expect(await appliedTable.locator('tbody tr').count()).toBe(2);
    await appliedTable
      .getByRole('button', { name: `Un-apply ${dollars(first.balance)} from ${first.number}` })
      .waitFor();

    // Back on the list, the receipt shows what is left to apply.
    await main(page).getByRole('link', { name: '← All receipts' }).click();
    const listed = main(page)
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `Apply receipt ${receiptId}` }) });
    await listed.waitFor();
    // The list may show its cached page first and then the refetched one.
    await expect.poll(() => listed.locator('td').nth(6).textContent()).toBe(dollars(left));
    expect(errors).toEqual([]);
  });
});
