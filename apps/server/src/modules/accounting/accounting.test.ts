import { randomUUID } from 'node:crypto';
import { BILLING_ITEM_IDS } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createInvoice, createStore, createTransaction, ensureBillingItems } from '../../db/factories';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Issue 28 item 5: the trial balance and the general-ledger export read the journal; the tie-outs hold after
 * invoices, a charge, a credit, a debit adjustment, a receipt and a write-off; the provider's account codes come from
 * GL_ACCOUNT_MAP. Today is 2026-11-22 (the test clock).
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let t: TestApp;
let tok: Record<'ar' | 'ar2' | 'sales', string>;

beforeAll(async () => {
  t = await createTestApp({ config: { glAccountMap: { '1100': '12000', '4100': '40100' } } });
  tok = await signInStaff(t, { ar: 'AR Team', ar2: 'AR Team', sales: 'Customer Support' });
  await ensureBillingItems(t.database.db, [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE]);
});
afterAll(() => t.close());

async function post(url: string, token: string, payload: unknown) {
  const res = await t.request({
    method: 'POST',
    url: url.replace('{token}', token),
    payload: payload as object,
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().info as Json;
}

async function tb(query: string) {
  const res = await t.request({ method: 'GET', url: `/api/accounting/trial-balance/${tok.ar}?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info as Json;
}

describe('trial balance and general ledger (issue 28 item 5)', () => {
  it('after invoices, a charge, a credit, a debit, a receipt and a write-off: balanced, and every tie-out holds', async () => {
    const db = t.database.db;
    const customer = await createCustomer(db, { country: 'US' });
    const store = await createStore(db, { customerId: customer.id, country: 'US' });
    const inv = (cents: number) =>
      createInvoice(db, {
        customerId: customer.id,
        storeId: store.id,
        currency: 'USD',
        issuedOn: '2026-11-02',
        dueOn: '2026-11-02',
        lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: cents }],
      });
    const a = await inv(100_00);
    const b = await inv(250_00);
    const c = await inv(40_00);
    await createTransaction(db, { invoiceId: a.id, status: 'S', amountCents: 100_00 });
    const credit = await post('/api/memos/{token}', tok.ar, {
      customer_id: customer.id,
      invoice_id: b.id,
      type: 'C',
      amount_cents: 50_00,
      reason: 'Goodwill',
      note: 'Outage credit',
    });
    await post(`/api/memos/${credit.id}/decision/{token}`, tok.ar2, {
      decision: 'approve',
      version: credit.version,
      reason: 'Checked',
    });
    const debit = await post('/api/memos/{token}', tok.ar, {
      customer_id: customer.id,
      invoice_id: b.id,
      type: 'A',
      amount_cents: -10_00,
      reason: 'Late fee',
      note: 'Agreed late fee',
    });
    await post(`/api/memos/${debit.id}/decision/{token}`, tok.ar2, {
      decision: 'approve',
      version: debit.version,
      reason: 'Checked',
    });
    const receipt = await post('/api/receipts/{token}', tok.ar, {
      customer_id: customer.id,
      store_id: store.id,
      method: 'check',
      reference: '1001',
      amount_cents: 80_00,
      currency: 'USD',
      received_on: '2026-11-20',
    });
    await post(`/api/receipts/${receipt.receipt.id}/applications/{token}`, tok.ar, {
      version: receipt.receipt.version,
      applications: [{ invoice_id: b.id, amount_cents: 80_00 }],
    });
    const wo = await post('/api/writeoffs/{token}', tok.ar, {
      invoice_id: c.id,
      type: 142,
      reason: 'Closed store',
      note: 'Store closed',
    });
    await post(`/api/writeoffs/${wo.id}/decision/{token}`, tok.ar2, {
      decision: 'approve',
      version: wo.version,
      reason: 'Checked',
    });

    const out = await tb('month=2026-11&currency=USD');
    expect(out.totals.debit_cents).toBe(out.totals.credit_cents);
    expect(out.totals.debit_cents).toBeGreaterThan(0);
    for (const tie of out.tie_outs) expect(tie, tie.label).toMatchObject({ ok: true });
    expect(out.tie_outs.map((x: Json) => x.name)).toEqual(['balanced', 'receivables', 'revenue', 'credits']);
    const row = (code: string) => out.rows.find((r: Json) => r.account === code);
    // Receivables: 390 invoiced + 10 debit − 100 charged − 50 credited − 80 received − 40 written off = 130 open.
    expect(row('1100')).toMatchObject({ gl_account: '12000', name: 'Accounts receivable' });
    expect(out.tie_outs.find((x: Json) => x.name === 'receivables').books_cents).toBeGreaterThanOrEqual(130_00);
    expect(row('4900').debit_cents).toBeGreaterThanOrEqual(50_00);
    expect(row('6100').debit_cents).toBeGreaterThanOrEqual(40_00);
    expect(row('4100').gl_account).toBe('40100');
    expect(row('2200').gl_account).toBe('2200');

    // The month before holds nothing of this; the next month opens with this month's closing balances.
    const next = await tb('month=2026-12&currency=USD');
    expect(next.rows.find((r: Json) => r.account === '1100').opening_cents).toBe(row('1100').closing_cents);
  });

  it('exports the general ledger as CSV: one row per journal line, provider codes, debits equal credits', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/accounting/general-ledger/${tok.ar}?from=2026-11-01&to=2026-11-30&currency=USD`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/general-ledger-USD-2026-11-01-2026-11-30/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'entry_id,effective_on,posted_at,kind,line_no,account,gl_account,account_name,customer_id,invoice_id,debit,credit,currency',
    );
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.length).toBeGreaterThan(5);
    const sum = (i: number) => Math.round(rows.reduce((s, r) => s + Number(r[i]), 0) * 100);
    expect(sum(10)).toBe(sum(11));
    expect(rows.some((r) => r[5] === '1100' && r[6] === '12000')).toBe(true);
    expect(rows.every((r) => r[1]! >= '2026-11-01' && r[1]! <= '2026-11-30')).toBe(true);
    const csv = await t.request({
      method: 'GET',
      url: `/api/accounting/trial-balance/${tok.ar}?month=2026-11&currency=USD&format=csv`,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('1100,12000,Accounts receivable,asset');
  });

  it('refuses a bad month, a range over a year, and a session without AR approvals', async () => {
    const bad = await t.request({
      method: 'GET',
      url: `/api/accounting/trial-balance/${tok.ar}?month=2026-13&currency=USD`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('month');
    const long = await t.request({
      method: 'GET',
      url: `/api/accounting/general-ledger/${tok.ar}?from=2025-01-01&to=2026-11-30&currency=USD`,
    });
    expect(long.statusCode).toBe(400);
    const sales = await t.request({
      method: 'GET',
      url: `/api/accounting/trial-balance/${tok.sales}?month=2026-11&currency=USD`,
    });
    expect(sales.statusCode).toBe(403);
  });
});
