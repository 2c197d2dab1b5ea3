import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCreditMemo,
  createCustomer,
  createInvoice,
  createStore,
  createTransaction,
  createWriteOff,
} from '../../db/factories';
import { invoices } from '../../db/schema';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { eq } from 'drizzle-orm';

/*
 * The AR reports (#/reports; issue 18 part 1, decision 128) through HTTP. Today is 2026-11-22 (the test clock).
 * A US diner owes: $100 not yet due, $200 10 days past due ($50 paid), $300 45 days past due ($100 credited), $400
 * 75 days past due, $500 120 days past due (written off: nothing open), a reversed $60 and a paid $79. A Canadian
 * café owes C$150 40 days past due and failed a charge in October that a later charge recovered.
 */

let t: TestApp;
let tok: Record<'ar' | 'service', string>;
const ids = { diner: 0, cafe: 0, dinerStore: 0, d45: 0, caInvoice: 0 };

const due = (daysPast: number) =>
  new Date(Date.parse('2026-11-22T00:00:00Z') - daysPast * 86_400_000).toISOString().slice(0, 10);
const issued = (daysPast: number) => due(daysPast + 14);

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = await signInStaff(t, { ar: 'AR Team', service: 'Customer Service' });
  const db = database.db;

  const diner = await createCustomer(db, { country: 'US', currency: 'USD', legalName: 'Bluebird Diner LLC' });
  const store = await createStore(db, { customerId: diner.id, country: 'US', doingBusinessAs: 'Bluebird Diner' });
  ids.diner = diner.id;
  ids.dinerStore = store.id;
  const inv = (daysPast: number, cents: number, type = 'M') =>
    createInvoice(db, {
      customerId: diner.id,
      storeId: store.id,
      currency: 'USD',
      type,
      issuedOn: issued(daysPast),
      dueOn: due(daysPast),
      totalCents: cents,
    });
  await inv(-8, 100_00);
  const d10 = await inv(10, 200_00, 'S');
  await createTransaction(db, { invoiceId: d10.id, status: 'S', amountCents: 50_00 });
  // The stored paid figure, as ledger.syncInvoice keeps it (revenue's collected sums it; decision 137).
  await db.update(invoices).set({ paidCents: 50_00 }).where(eq(invoices.id, d10.id));
  const d45 = await inv(45, 300_00, 'I');
  ids.d45 = d45.id;
  await createCreditMemo(db, {
    customerId: diner.id,
    storeId: store.id,
    invoiceId: d45.id,
    type: 'C',
    status: 'A',
    amountCents: 100_00,
  });
  await inv(75, 400_00);
  const d120 = await inv(120, 500_00);
  await createWriteOff(db, { invoiceId: d120.id });
  const reversed = await inv(50, 60_00);
  await db.update(invoices).set({ status: 'R', reversedAt: new Date() }).where(eq(invoices.id, reversed.id));
  const paid = await inv(20, 79_00);
  await createTransaction(db, { invoiceId: paid.id, status: 'S' });
  await db.update(invoices).set({ status: 'P', paidCents: 79_00 }).where(eq(invoices.id, paid.id));

  const cafe = await createCustomer(db, { country: 'CA', currency: 'CAD', legalName: 'Café Érable Inc.' });
  const cafeStore = await createStore(db, {
    customerId: cafe.id,
    country: 'CA',
    currency: 'CAD',
    doingBusinessAs: 'Café Érable',
  });
  ids.cafe = cafe.id;
  const ca = await createInvoice(db, {
    customerId: cafe.id,
    storeId: cafeStore.id,
    currency: 'CAD',
    issuedOn: issued(40),
    dueOn: due(40),
    totalCents: 150_00,
  });
  ids.caInvoice = ca.id;
  const caPaid = await createInvoice(db, {
    customerId: cafe.id,
    storeId: cafeStore.id,
    currency: 'CAD',
    issuedOn: '2026-10-01',
    dueOn: '2026-10-15',
    totalCents: 90_00,
  });
  await createTransaction(db, {
    invoiceId: caPaid.id,
    status: 'F',
    declineCode: 'insufficient_funds',
    attemptedAt: new Date('2026-10-15T15:00:00Z'),
  });
  await createTransaction(db, {
    invoiceId: caPaid.id,
    status: 'S',
    attemptedAt: new Date('2026-10-18T15:00:00Z'),
  });
  await db.update(invoices).set({ status: 'P', paidCents: 90_00 }).where(eq(invoices.id, caPaid.id));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const get = (url: string, token = tok.ar) => t.request({ method: 'GET', url: url.replace('{token}', token) });

describe('AR aging', () => {
  it('buckets open ledger balances by days past due, per currency, with a by-customer table', async () => {
    const res = await get('/api/reports/aging/{token}');
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info.as_of).toBe('2026-11-22');
    expect(info.totals).toEqual([
      {
        currency: 'USD',
        current_cents: 100_00,
        days_1_30_cents: 150_00,
        days_31_60_cents: 200_00,
        days_61_90_cents: 400_00,
        days_90_plus_cents: 0,
        total_cents: 850_00,
        invoice_count: 4,
      },
      {
        currency: 'CAD',
        current_cents: 0,
        days_1_30_cents: 0,
        days_31_60_cents: 150_00,
        days_61_90_cents: 0,
        days_90_plus_cents: 0,
        total_cents: 150_00,
        invoice_count: 1,
      },
    ]);
    expect(info.customers.total).toBe(2);
    expect(info.customers.items.map((c: { legal_name: string }) => c.legal_name)).toEqual([
      'Bluebird Diner LLC',
      'Café Érable Inc.',
    ]);
    expect(info.customers.items[0]).toMatchObject({ customer_id: ids.diner, country: 'US', currency: 'USD' });
  });

  it('counts ages on the as-of day and filters by country and currency', async () => {
    const res = await get('/api/reports/aging/{token}?as_of=2026-12-22&currency=USD&sort=legal_name&limit=1');
    const info = res.json().info;
    expect(info.totals).toEqual([
      expect.objectContaining({
        currency: 'USD',
        current_cents: 0,
        days_1_30_cents: 100_00,
        days_31_60_cents: 150_00,
        days_61_90_cents: 200_00,
        days_90_plus_cents: 400_00,
      }),
    ]);
    expect(info.customers.items).toHaveLength(1);
    const ca = (await get('/api/reports/aging/{token}?country=CA')).json().info;
    expect(ca.totals.map((x: { currency: string }) => x.currency)).toEqual(['CAD']);
  });

  it('refuses bad input with 400 and the field, and a role without reports_edit with 403', async () => {
    const bad = await get('/api/reports/aging/{token}?as_of=22-11-2026&currency=EUR&sort=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBeTruthy();
    expect(Object.keys(bad.json().error.fields)).toEqual(expect.arrayContaining(['as_of', 'currency', 'sort']));
    expect((await get('/api/reports/aging/{token}', tok.service)).statusCode).toBe(403);
  });

  it('streams every customer row as CSV', async () => {
    const res = await get('/api/reports/aging/{token}?format=csv&limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('ar-aging-2026-11-22.csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'customer_id,legal_name,country,currency,current_cents,days_1_30_cents,days_31_60_cents,days_61_90_cents,days_90_plus_cents,total_cents,invoice_count',
    );
    expect(lines).toHaveLength(3);
  });
});

describe('AR aging drill-down', () => {
  it('lists the invoices behind a bucket, per currency', async () => {
    const res = await get('/api/reports/aging/invoices/{token}?bucket=31-60');
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info.bucket).toBe('31-60');
    expect(info.total).toBe(2);
    expect(info.totals).toEqual([
      { currency: 'USD', open_cents: 200_00, count: 1 },
      { currency: 'CAD', open_cents: 150_00, count: 1 },
    ]);
    expect(
      info.items.map((i: { invoice_id: number; days_past_due: number }) => [i.invoice_id, i.days_past_due]),
    ).toEqual([
      [ids.d45, 45],
      [ids.caInvoice, 40],
    ]);
    expect(info.items[0]).toMatchObject({
      customer_id: ids.diner,
      legal_name: 'Bluebird Diner LLC',
      store_id: ids.dinerStore,
      doing_business_as: 'Bluebird Diner',
      open_cents: 200_00,
      bucket: '31-60',
    });
    const one = (
      await get(`/api/reports/aging/invoices/{token}?bucket=31-60&customer_id=${ids.cafe}&currency=CAD`)
    ).json().info;
    expect(one.items.map((i: { invoice_id: number }) => i.invoice_id)).toEqual([ids.caInvoice]);
  });

  it('400 on a bad bucket, 403 without reports_edit, CSV of every invoice', async () => {
    const bad = await get('/api/reports/aging/invoices/{token}?bucket=31-59&customer_id=x');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)).toEqual(expect.arrayContaining(['bucket', 'customer_id']));
    expect((await get('/api/reports/aging/invoices/{token}', tok.service)).statusCode).toBe(403);
    const csv = await get('/api/reports/aging/invoices/{token}?format=csv&limit=1');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('invoice_id,invoice_number,customer_id');
    expect(lines).toHaveLength(6);
  });
});

describe('revenue', () => {
  it('sums invoiced, reversed and collected by month, type and currency', async () => {
    const res = await get('/api/reports/revenue/{token}?from=2026-10-01&to=2026-10-31');
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info).toMatchObject({ from: '2026-10-01', to: '2026-10-31' });
    // Issued in October: the US $79 paid M (issued 34 days back), the US $200 S ($50 paid; 24 days back) and the
    // CAD $90 M paid after a failure (October 1st); the others were issued in September or earlier, or in November.
    expect(info.rows).toEqual([
      {
        month: '2026-10',
        type: 'M',
        type_label: 'Monthly recurring charge',
        currency: 'USD',
        invoice_count: 1,
        invoiced_cents: 79_00,
        reversed_cents: 0,
        collected_cents: 79_00,
      },
      {
        month: '2026-10',
        type: 'S',
        type_label: 'Sale',
        currency: 'USD',
        invoice_count: 1,
        invoiced_cents: 200_00,
        reversed_cents: 0,
        collected_cents: 50_00,
      },
      {
        month: '2026-10',
        type: 'M',
        type_label: 'Monthly recurring charge',
        currency: 'CAD',
        invoice_count: 1,
        invoiced_cents: 90_00,
        reversed_cents: 0,
        collected_cents: 90_00,
      },
    ]);
    expect(info.totals).toEqual([
      { currency: 'USD', invoice_count: 2, invoiced_cents: 279_00, reversed_cents: 0, collected_cents: 129_00 },
      { currency: 'CAD', invoice_count: 1, invoiced_cents: 90_00, reversed_cents: 0, collected_cents: 90_00 },
    ]);
    const sept = (await get('/api/reports/revenue/{token}?from=2026-09-01&to=2026-09-30&currency=USD&type=M')).json()
      .info;
    expect(sept.totals).toEqual([
      { currency: 'USD', invoice_count: 1, invoiced_cents: 0, reversed_cents: 60_00, collected_cents: 0 },
    ]);
  });

  it('defaults to the last 12 months; 400 when from is after to; 403; CSV', async () => {
    const res = await get('/api/reports/revenue/{token}?type=S');
    // Revenue answers by whole months (its facts are monthly; decision 137): to the end of November.
    expect(res.json().info).toMatchObject({ from: '2025-12-01', to: '2026-11-30' });
    expect(res.json().info.rows.map((r: { type: string }) => r.type)).toEqual(['S']);
    const bad = await get('/api/reports/revenue/{token}?from=2026-11-01&to=2026-10-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('to');
    const late = await get('/api/reports/revenue/{token}?from=2027-01-01');
    expect(late.statusCode).toBe(400);
    expect((await get('/api/reports/revenue/{token}', tok.service)).statusCode).toBe(403);
    const csv = await get('/api/reports/revenue/{token}?format=csv&from=2026-10-01&to=2026-10-31');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('2026-10,M,Monthly recurring charge,CAD,1,9000,0,9000');
  });
});

describe('failed payments and recovery', () => {
  it('counts attempts, failures and recoveries by month and currency', async () => {
    const res = await get('/api/reports/failed-payments/{token}?from=2026-10-01&to=2026-11-22');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().info.rows;
    const octCad = rows.find((r: { month: string; currency: string }) => r.month === '2026-10' && r.currency === 'CAD');
    expect(octCad).toEqual({
      month: '2026-10',
      currency: 'CAD',
      attempts: 2,
      attempted_cents: 180_00,
      failed_attempts: 1,
      failed_attempt_cents: 90_00,
      failure_rate: 0.5,
      failed_invoices: 1,
      failed_cents: 90_00,
      recovered_invoices: 1,
      recovered_cents: 90_00,
      recovery_rate: 1,
    });
    const us = (await get('/api/reports/failed-payments/{token}?from=2026-10-01&to=2026-10-31&currency=USD')).json()
      .info.rows;
    expect(us.every((r: { currency: string; failed_attempts: number }) => r.currency === 'USD')).toBe(true);
    const ca = (await get('/api/reports/failed-payments/{token}?country=CA&from=2026-10-01')).json().info.rows;
    expect(ca.map((r: { currency: string }) => r.currency)).toEqual(['CAD']);
  });

  it('400, 403 and CSV', async () => {
    const bad = await get('/api/reports/failed-payments/{token}?from=2026-13-01&country=MX');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)).toEqual(expect.arrayContaining(['from', 'country']));
    expect((await get('/api/reports/failed-payments/{token}', tok.service)).statusCode).toBe(403);
    const csv = await get('/api/reports/failed-payments/{token}?format=csv&country=CA&from=2026-10-01');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('month,currency,attempts');
    expect(lines[1]).toBe('2026-10,CAD,2,18000,1,9000,0.5,1,9000,1,9000,1');
  });
});
