import { BILLING_ITEM_IDS, type InvoicePage } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createInvoice, createStore, setTaxRate } from '../../db/factories';
import { pdfTextLines } from '../../test/pdf-text';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Issue 29 item 6, decision 149: an invoice reads right — the tax printed once, as its own lines named for the
 * jurisdiction (GST and PST for a British Columbia store with the provider's registration numbers from the
 * configuration; the state's sales tax for a Texas one), never also as an item line, and the PDF's lines add up to
 * its total. Through HTTP: the invoice page and its PDF.
 */

let t: TestApp;
let tok: Record<'ar', string>;
const ids = { bc: 0, tx: 0 };

beforeAll(async () => {
  t = await createTestApp({
    config: { invoiceTaxNumbers: { gstHst: '123456789RT0001', provincial: { BC: 'PST-1234-5678' } } },
  });
  tok = await signInStaff(t, { ar: 'AR Team' });
  const db = t.database.db;

  const maple = await createCustomer(db, { country: 'CA', legalName: 'Maple Till Ltd' });
  const bc = await createStore(db, { customerId: maple.id, country: 'CA', state: 'BC', doingBusinessAs: 'Maple Till' });
  await setTaxRate(db, {
    country: 'CA',
    state: 'BC',
    components: [
      { component: 'GST', rateBasisPoints: 500 },
      { component: 'PST', rateBasisPoints: 700 },
    ],
  });
  // As the seed writes a hardware sale: the tax also stored as a line of the tax item (6).
  ids.bc = (
    await createInvoice(db, {
      customerId: maple.id,
      storeId: bc.id,
      currency: 'CAD',
      type: 'S',
      issuedOn: '2026-11-20',
      dueOn: '2026-11-20',
      taxCents: 120_00,
      totalCents: 1_120_00,
      lines: [
        { billingItemId: BILLING_ITEM_IDS.SHIPPING, description: 'Shipping', unitCents: 100_00 },
        { billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, description: 'POS system', unitCents: 900_00 },
        { billingItemId: BILLING_ITEM_IDS.TAX, description: 'Sales tax', unitCents: 120_00 },
      ],
    })
  ).id;

  const lone = await createCustomer(db, { country: 'US', legalName: 'Lone Star Grocers LLC' });
  const tx = await createStore(db, { customerId: lone.id, country: 'US', state: 'TX', doingBusinessAs: 'Lone Star' });
  await setTaxRate(db, { country: 'US', state: 'TX', rateBasisPoints: 625, label: 'Sales tax' });
  // As the billing run writes one: the tax only in tax_cents.
  ids.tx = (
    await createInvoice(db, {
      customerId: lone.id,
      storeId: tx.id,
      currency: 'USD',
      type: 'S',
      issuedOn: '2026-11-20',
      dueOn: '2026-11-20',
      taxCents: 121_63,
      lines: [
        { billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, description: 'POS system', unitCents: 1_900_00 },
        { billingItemId: BILLING_ITEM_IDS.SHIPPING, description: 'Shipping', unitCents: 46_00 },
      ],
    })
  ).id;
}, 60_000);
afterAll(() => t.close());

async function page(id: number): Promise<InvoicePage> {
  const res = await t.request({ method: 'GET', url: `/api/invoices/${id}/${tok.ar}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info as InvoicePage;
}

async function pdf(id: number): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/api/invoices/${id}/pdf/${tok.ar}` });
  expect(res.statusCode).toBe(200);
  return pdfTextLines(res.rawPayload);
}

const AMOUNT = /^-?C?\$[\d,]+\.\d\d$/;
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);

/** The amounts the PDF prints between its "Lines" heading and its total, and the total. */
function pdfLineAmounts(text: string[], currency: string): { lines: number[]; labels: string[]; total: number } {
  const from = text.indexOf('Lines');
  const to = text.indexOf(`Total (${currency})`);
  expect(from).toBeGreaterThanOrEqual(0);
  expect(to).toBeGreaterThan(from);
  const between = text.slice(from + 1, to);
  const total = text.slice(to + 1).find((x) => AMOUNT.test(x))!;
  return {
    lines: between.filter((x) => AMOUNT.test(x)).map(cents),
    labels: between.filter((x) => !AMOUNT.test(x)),
    total: cents(total),
  };
}

describe('an invoice reads right (decision 149)', () => {
  it('a BC invoice: GST and PST once, named, with the registration numbers; the stored tax line is not an item', async () => {
    const inv = await page(ids.bc);
    expect(inv.tax_lines).toEqual([
      { component: 'GST', label: 'GST 5%', rate_basis_points: 500, amount_cents: 50_00 },
      { component: 'PST', label: 'PST (BC) 7%', rate_basis_points: 700, amount_cents: 70_00 },
    ]);
    expect(inv.tax_registrations).toEqual([
      { label: 'GST/HST registration no.', number: '123456789RT0001' },
      { label: 'PST (BC) registration no.', number: 'PST-1234-5678' },
    ]);

    const text = await pdf(ids.bc);
    const { lines, labels, total } = pdfLineAmounts(text, 'CAD');
    expect(labels.some((l) => /Sales tax/.test(l))).toBe(false);
    expect(labels.filter((l) => /^(GST|PST)/.test(l))).toEqual(['GST 5%', 'PST (BC) 7%']);
    expect(total).toBe(1_120_00);
    expect(lines.reduce((s, x) => s + x, 0)).toBe(total);
    expect(text).toEqual(
      expect.arrayContaining(['GST/HST registration no. 123456789RT0001', 'PST (BC) registration no. PST-1234-5678']),
    );
  });

  it('a Texas invoice: one sales tax line for the state; no registrations; the lines add up to the total', async () => {
    const inv = await page(ids.tx);
    expect(inv.tax_lines).toEqual([
      { component: 'STATE', label: 'Sales tax (TX) 6.25%', rate_basis_points: 625, amount_cents: 121_63 },
    ]);
    expect(inv.tax_registrations).toEqual([]);
    const text = await pdf(ids.tx);
    const { lines, labels, total } = pdfLineAmounts(text, 'USD');
    expect(labels.filter((l) => /tax/i.test(l))).toEqual(['Sales tax (TX) 6.25%']);
    expect(total).toBe(2_067_63);
    expect(lines.reduce((s, x) => s + x, 0)).toBe(total);
    expect(text.some((l) => /registration/.test(l))).toBe(false);
  });
});
