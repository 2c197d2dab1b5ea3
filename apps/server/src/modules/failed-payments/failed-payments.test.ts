import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createInvoice,
  createPaymentInstrument,
  createStore,
  createTransaction,
} from '../../db/factories';
import { invoiceDunning } from '../../db/schema';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Failed payments (#/payments; issue 15 point 5, decision 117) through HTTP. Today is 2026-11-22 (the test clock).
 * A US diner: one invoice failed twice in November (insufficient funds, soft; retrying, fee pending), one failed in
 * November with an expired card (hard) and since recovered. A Canadian café: one November failure, processing
 * error (soft), in collection; and one October failure (do not honor). A successful charge is never listed.
 */

let t: TestApp;
let tok: Record<'ar' | 'marketing', string>;
const ids = { usFirst: 0, usRetry: 0, usHard: 0, caNov: 0, caOct: 0, usInvoice: 0, caCustomer: 0 };

type Item = {
  transaction_id: number;
  legal_name: string;
  doing_business_as: string | null;
  country: string | null;
  invoice_number: string | null;
  amount_cents: number;
  currency: string;
  instrument_label: string | null;
  decline_code: string | null;
  decline_kind: string;
  decline_label: string;
  failed_attempts: number;
  next_retry_on: string | null;
  dunning_state: string | null;
  fee_state: string | null;
};

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = await signInStaff(t, { ar: 'AR Team', marketing: 'Marketing' });
  const db = database.db;

  const diner = await createCustomer(db, { country: 'US', legalName: 'Bluebird Diner LLC' });
  const dinerStore = await createStore(db, { customerId: diner.id, country: 'US', doingBusinessAs: 'Bluebird Diner' });
  const card = await createPaymentInstrument(db, {
    customerId: diner.id,
    storeId: dinerStore.id,
    cardBrand: 'visa',
    cardLast4: '0341',
  });
  const inv1 = await createInvoice(db, { customerId: diner.id, storeId: dinerStore.id, currency: 'USD' });
  ids.usInvoice = inv1.id;
  const fail = (over: Parameters<typeof createTransaction>[1]) =>
    createTransaction(db, { status: 'F', kind: 'charge', ...over });
  ids.usFirst = (
    await fail({
      invoiceId: inv1.id,
      paymentInstrumentId: card.id,
      declineCode: 'insufficient_funds',
      attemptedAt: new Date('2026-11-02T15:00:00Z'),
    })
  ).id;
  ids.usRetry = (
    await fail({
      invoiceId: inv1.id,
      paymentInstrumentId: card.id,
      declineCode: 'insufficient_funds',
      attemptedAt: new Date('2026-11-05T15:00:00Z'),
    })
  ).id;
  await db.insert(invoiceDunning).values({
    invoiceId: inv1.id,
    customerId: diner.id,
    storeId: dinerStore.id,
    state: 'retrying',
    firstFailedOn: '2026-11-02',
    failedAttempts: 2,
    lastTransactionId: ids.usRetry,
    lastDeclineCode: 'insufficient_funds',
    lastDeclineKind: 'soft',
    nextRetryOn: '2026-11-09',
    feeState: 'pending',
    feeCents: 25_00,
  });
  const inv2 = await createInvoice(db, {
    customerId: diner.id,
    storeId: dinerStore.id,
    currency: 'USD',
    lines: [{ billingItemId: 1, unitCents: 120_00 }],
  });
  ids.usHard = (
    await fail({
      invoiceId: inv2.id,
      declineCode: 'expired_card',
      failureReason: 'Expired card',
      attemptedAt: new Date('2026-11-10T15:00:00Z'),
    })
  ).id;
  await createTransaction(db, { invoiceId: inv2.id, status: 'S', attemptedAt: new Date('2026-11-12T15:00:00Z') });
  await db.insert(invoiceDunning).values({
    invoiceId: inv2.id,
    customerId: diner.id,
    storeId: dinerStore.id,
    state: 'recovered',
    firstFailedOn: '2026-11-10',
    failedAttempts: 1,
    lastTransactionId: ids.usHard,
    lastDeclineCode: 'expired_card',
    lastDeclineKind: 'hard',
  });

  const cafe = await createCustomer(db, { country: 'CA', legalName: 'Maple Leaf Hardware Ltd' });
  ids.caCustomer = cafe.id;
  const cafeStore = await createStore(db, { customerId: cafe.id, country: 'CA', doingBusinessAs: 'Maple Coffee Bar' });
  const inv3 = await createInvoice(db, {
    customerId: cafe.id,
    storeId: cafeStore.id,
    currency: 'CAD',
    lines: [{ billingItemId: 1, unitCents: 50_00 }],
  });
  ids.caNov = (
    await fail({
      invoiceId: inv3.id,
      declineCode: 'processing_error',
      attemptedAt: new Date('2026-11-20T15:00:00Z'),
    })
  ).id;
  await db.insert(invoiceDunning).values({
    invoiceId: inv3.id,
    customerId: cafe.id,
    storeId: cafeStore.id,
    state: 'collection',
    firstFailedOn: '2026-10-01',
    failedAttempts: 4,
    lastTransactionId: ids.caNov,
    lastDeclineCode: 'processing_error',
    lastDeclineKind: 'soft',
  });
  const inv4 = await createInvoice(db, { customerId: cafe.id, storeId: cafeStore.id, currency: 'CAD' });
  ids.caOct = (
    await fail({ invoiceId: inv4.id, declineCode: 'do_not_honor', attemptedAt: new Date('2026-10-15T15:00:00Z') })
  ).id;
}, 120_000);

afterAll(async () => {
  await t.close();
  await t.database.close();
});

const get = (url: string, token = tok.ar) => t.request({ method: 'GET', url: url.replace('{t}', token) });
async function list(query = '') {
  const res = await get(`/api/payments/failed/{t}${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info as { items: Item[]; total: number; total_capped: boolean };
}
const only = async (query: string) => (await list(query)).items.map((i) => i.transaction_id);

describe('GET /api/payments/failed/{token}', () => {
  it('lists every failed charge newest first with its merchant, instrument, decline and dunning', async () => {
    const info = await list();
    expect(info.items.map((i) => i.transaction_id)).toEqual([
      ids.caNov,
      ids.usHard,
      ids.usRetry,
      ids.usFirst,
      ids.caOct,
    ]);
    expect([info.total, info.total_capped]).toEqual([5, false]);
    expect(info.items.find((i) => i.transaction_id === ids.usRetry)).toMatchObject({
      legal_name: 'Bluebird Diner LLC',
      doing_business_as: 'Bluebird Diner',
      country: 'US',
      amount_cents: 79_00,
      currency: 'USD',
      instrument_label: 'Visa ending 0341',
      decline_code: 'insufficient_funds',
      decline_label: 'Insufficient funds',
      decline_kind: 'soft',
      failed_attempts: 2,
      next_retry_on: '2026-11-09',
      dunning_state: 'retrying',
      fee_state: 'pending',
    });
    expect(info.items.find((i) => i.transaction_id === ids.usHard)).toMatchObject({
      decline_kind: 'hard',
      dunning_state: 'recovered',
      next_retry_on: null,
    });
    expect(info.items.find((i) => i.transaction_id === ids.caOct)).toMatchObject({
      dunning_state: null,
      failed_attempts: 0,
      instrument_label: null,
    });
  });

  it('filters: kind, reason, country, amount, age, dunning state, text', async () => {
    expect(await only('kind=hard')).toEqual([ids.usHard]);
    expect(await only('kind=soft')).toEqual([ids.caNov, ids.usRetry, ids.usFirst, ids.caOct]);
    expect(await only('reason=insufficient_funds')).toEqual([ids.usRetry, ids.usFirst]);
    expect(await only('country=CA')).toEqual([ids.caNov, ids.caOct]);
    expect(await only('amount_min=7900&amount_max=7900')).toEqual([ids.usRetry, ids.usFirst, ids.caOct]);
    expect(await only('amount_min=10000')).toEqual([ids.usHard]);
    // Within 14 days of 2026-11-22T12:00Z: from 2026-11-08T12:00Z.
    expect(await only('age=14')).toEqual([ids.caNov, ids.usHard]);
    expect(await only('state=collection')).toEqual([ids.caNov]);
    expect(await only('q=coffee bar')).toEqual([ids.caNov, ids.caOct]);
    expect(await only('q=bluebird&kind=soft&country=US')).toEqual([ids.usRetry, ids.usFirst]);
  });

  it('sorts on the server and pages, the total counting every match', async () => {
    // Ties (three 79.00) by id in the sort's direction.
    expect(await only('sort=-amount_cents')).toEqual([ids.usHard, ids.caOct, ids.usRetry, ids.usFirst, ids.caNov]);
    // Planned retries first, the rest after (nulls last).
    expect((await only('sort=next_retry_on')).slice(0, 2)).toEqual([ids.usFirst, ids.usRetry]);
    expect(await only('sort=customer&kind=soft')).toEqual([ids.usFirst, ids.usRetry, ids.caNov, ids.caOct]);
    const page = await list('limit=2&offset=2');
    expect(page.items.map((i) => i.transaction_id)).toEqual([ids.usRetry, ids.usFirst]);
    expect([page.total, page.total_capped]).toEqual([5, false]);
  });

  it('refuses bad filters with 400 and a message per field', async () => {
    const res = await get('/api/payments/failed/{t}?kind=medium&reason=nope&country=MX&age=0&sort=fee&q=a');
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('validation_failed');
    expect(Object.keys(error.fields).sort()).toEqual(['age', 'country', 'kind', 'q', 'reason', 'sort']);
    expect(error.fields.kind).toBe('Kind is soft or hard.');
    const amounts = await get('/api/payments/failed/{t}?amount_min=500&amount_max=100');
    expect([amounts.statusCode, amounts.json().error.fields]).toEqual([
      400,
      { amount_max: 'The largest amount is below the smallest.' },
    ]);
  });

  it('format=csv streams every matching row, not the page', async () => {
    const res = await get('/api/payments/failed/{t}?format=csv&country=US&limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('failed-payments-2026-11-22.csv');
    const rows = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toBe(
      'transaction_id,attempted_at,customer_id,legal_name,store_id,doing_business_as,country,invoice_number,currency,amount_cents,instrument_label,decline_code,decline_kind,failure_reason,failed_attempts,next_retry_on,dunning_state,fee_state',
    );
    expect(rows.slice(1).map((r) => Number(r.split(',')[0]))).toEqual([ids.usHard, ids.usRetry, ids.usFirst]);
  });
});

describe('GET /api/payments/recovery/{token}', () => {
  /** The figures recomputed from the rows in the database (what the endpoint must agree with). */
  async function expected(month: string) {
    const rows = await t.database.query<{
      id: number;
      invoice_id: number | null;
      currency: string;
      amount_cents: string;
      decline_code: string | null;
      attempted_at: Date;
      state: string | null;
    }>(
      `select t.id, t.invoice_id, t.currency, t.amount_cents, t.decline_code, t.attempted_at, d.state
       from transactions t left join invoice_dunning d on d.invoice_id = t.invoice_id
       where t.status = 'F' and t.kind = 'charge'`,
    );
    const inMonth = rows.filter((r) => new Date(r.attempted_at).toISOString().slice(0, 7) === month);
    const latest = new Map<string, (typeof inMonth)[number]>();
    for (const r of inMonth) {
      const key = r.invoice_id === null ? `t${r.id}` : `i${r.invoice_id}`;
      const prev = latest.get(key);
      if (!prev || new Date(prev.attempted_at) < new Date(r.attempted_at)) latest.set(key, r);
    }
    const byCurrency = new Map<
      string,
      { attempts: number; count: number; cents: number; rc: number; rcents: number }
    >();
    for (const r of inMonth) {
      const c = byCurrency.get(r.currency) ?? { attempts: 0, count: 0, cents: 0, rc: 0, rcents: 0 };
      c.attempts++;
      byCurrency.set(r.currency, c);
    }
    for (const r of latest.values()) {
      const c = byCurrency.get(r.currency)!;
      c.count++;
      c.cents += Number(r.amount_cents);
      if (r.state === 'recovered') {
        c.rc++;
        c.rcents += Number(r.amount_cents);
      }
    }
    return [...byCurrency.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, c]) => ({
        currency,
        failed_attempts: c.attempts,
        failed_count: c.count,
        failed_cents: c.cents,
        recovered_count: c.rc,
        recovered_cents: c.rcents,
        recovery_rate: c.cents > 0 ? c.rcents / c.cents : 0,
      }));
  }

  it('sums each currency apart, one failure per failed invoice, recovered by the dunning state', async () => {
    const res = await get('/api/payments/recovery/{t}?month=2026-11');
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info.month).toBe('2026-11');
    expect(info.by_currency).toEqual(await expected('2026-11'));
    // Spelled out: USD 79 (twice tried) + 120 recovered; CAD 50.
    expect(info.by_currency).toEqual([
      {
        currency: 'CAD',
        failed_attempts: 1,
        failed_count: 1,
        failed_cents: 50_00,
        recovered_count: 0,
        recovered_cents: 0,
        recovery_rate: 0,
      },
      {
        currency: 'USD',
        failed_attempts: 3,
        failed_count: 2,
        failed_cents: 199_00,
        recovered_count: 1,
        recovered_cents: 120_00,
        recovery_rate: 120_00 / 199_00,
      },
    ]);
    expect(info.by_reason).toEqual([
      expect.objectContaining({ decline_code: 'processing_error', currency: 'CAD', failed_cents: 50_00 }),
      expect.objectContaining({
        decline_code: 'expired_card',
        decline_label: 'Expired card',
        decline_kind: 'hard',
        currency: 'USD',
        failed_count: 1,
        recovered_count: 1,
        recovered_cents: 120_00,
      }),
      expect.objectContaining({
        decline_code: 'insufficient_funds',
        currency: 'USD',
        failed_count: 1,
        failed_cents: 79_00,
      }),
    ]);
    // Default month: the billing day's (2026-11).
    expect((await get('/api/payments/recovery/{t}')).json().info.month).toBe('2026-11');
    const oct = (await get('/api/payments/recovery/{t}?month=2026-10')).json().info;
    expect(oct.by_currency).toEqual(await expected('2026-10'));
  });

  it('refuses a bad month with 400', async () => {
    const res = await get('/api/payments/recovery/{t}?month=2026-13');
    expect([res.statusCode, res.json().error.fields]).toEqual([400, { month: 'Enter the month as YYYY-MM.' }]);
  });
});

describe('who may', () => {
  it('needs failed_payments_edit on every call (403), and a live session', async () => {
    for (const url of ['/api/payments/failed/{t}', '/api/payments/recovery/{t}']) {
      const res = await get(url, tok.marketing);
      expect([res.statusCode, res.json().error.message], url).toEqual([
        403,
        'This needs one of these privileges: failed_payments_edit.',
      ]);
      const stranger = await get(url, 'x'.repeat(43));
      expect(stranger.json().error.code, url).toBe('session_invalid');
    }
  });
});
