import { randomUUID } from 'node:crypto';
import { BILLING_ITEM_IDS, isBillableStoreType, STORE_TYPE_VALUES, type BillingRunInfo } from '@pos/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billableStoreSql } from './db/billable-stores.sql';
import {
  createCustomer,
  createInvoice,
  createOrder,
  createPaymentInstrument,
  createPaymentPlan,
  createSalesPerson,
  createStore,
  ensureBillingItems,
  setTaxRate,
} from './db/factories';
import { customerPaymentPlans, invoiceDunning, invoices, salesHistory, stores, transactions } from './db/schema';
import { collectInvoices, pastDueInvoiceIds } from './jobs/collection';
import { executeBillingRun } from './modules/billing';
import { chargeInvoice, sweepPayments } from './modules/payments';
import { signInStaff } from './test/sign-in';
import { createTestApp, type TestApp } from './test/test-app';

/*
 * Issue 29 item 5, decision 149: test (T) and demo (D) stores are never billed, charged, dunned or counted in a
 * report. Three stores side by side with the same history — a past-due invoice, a failed charge in dunning, a
 * monthly plan due, an order, sales — the first a real store (R), then the second made a test store and the third
 * a demo store. Through HTTP (the billing run, the failed-payments list and every report) and the sweep and
 * collection jobs' own functions: the real store is billed, charged, dunned and counted; the other two nowhere.
 */

let t: TestApp;
let tok: Record<'admin' | 'ar', string>;
const TODAY = '2026-12-04';
const SYSTEM = { actorType: 'system' as const, actorId: 'test' };

interface Side {
  customerId: number;
  storeId: number;
  planId: number;
  pastDueId: number;
  failedId: number;
  extraDueId: number;
}
const side: Record<'R' | 'T' | 'D', Side> = {} as never;
let repId = 0;

const get = async (url: string, token = tok.ar) => {
  const res = await t.request({ method: 'GET', url: url.replace('{t}', token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info;
};

async function makeSide(kind: 'R' | 'T' | 'D'): Promise<Side> {
  const db = t.database.db;
  const customer = await createCustomer(db, { country: 'US', legalName: `Store type ${kind} LLC` });
  const store = await createStore(db, { customerId: customer.id, country: 'US', doingBusinessAs: `Shop ${kind}` });
  await setTaxRate(db, { country: 'US', state: store.state.toUpperCase(), rateBasisPoints: 600, label: 'Sales tax' });
  // A card that declines softly (insufficient funds): the failed charge below goes to dunning.
  await createPaymentInstrument(db, {
    customerId: customer.id,
    storeId: store.id,
    kind: 'card',
    cardLast4: '9995',
    processorReference: `pm_local_test${customer.id}_9995`,
  });
  const plan = await createPaymentPlan(db, {
    customerId: customer.id,
    storeId: store.id,
    kind: 'monthly',
    interval: 1,
    recurringAmountCents: 50_00,
    startsOn: '2026-11-01',
    nextBillingOn: '2026-12-01',
  });
  const line = [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 80_00 }];
  const common = { customerId: customer.id, storeId: store.id, currency: 'USD' as const, lines: line };
  const pastDue = await createInvoice(db, { ...common, issuedOn: '2026-11-01', dueOn: '2026-11-15' });
  const failed = await createInvoice(db, { ...common, issuedOn: TODAY, dueOn: TODAY });
  const outcome = await chargeInvoice(t.app.ctx, {
    invoiceId: failed.id,
    attempt: 'autopay',
    source: 'autopay',
    actor: SYSTEM,
    requestId: randomUUID(),
  });
  expect(outcome).toMatchObject({ status: 'F' });
  // Its retry day has come.
  await db.update(invoiceDunning).set({ nextRetryOn: TODAY }).where(eq(invoiceDunning.invoiceId, failed.id));
  await createOrder(db, { storeId: store.id, orderDate: new Date(`${TODAY}T12:00:00Z`), totalSaleCents: 1_000_00 });
  await db.insert(salesHistory).values({
    salesPersonId: repId,
    customerId: customer.id,
    storeId: store.id,
    periodMonth: '2026-12-01',
    units: 1,
    amountCents: 1_000_00,
    currency: 'USD',
  });
  return {
    customerId: customer.id,
    storeId: store.id,
    planId: plan.id,
    pastDueId: pastDue.id,
    failedId: failed.id,
    extraDueId: 0,
  };
}

const storeIds = (kinds: readonly ('R' | 'T' | 'D')[]) => kinds.map((k) => side[k].storeId);

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(`${TODAY}T12:00:00Z`);
  tok = await signInStaff(t, { admin: 'Admin', ar: 'AR Team' });
  await ensureBillingItems(t.database.db, [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, BILLING_ITEM_IDS.OTHER_CHARGES]);
  repId = (await createSalesPerson(t.database.db, { name: 'Rita Rep' })).id;
  for (const kind of ['R', 'T', 'D'] as const) side[kind] = await makeSide(kind);
  // The second and third become a test and a demo store (their history leaves the report facts: migration 0034).
  for (const kind of ['T', 'D'] as const)
    await t.database.db.update(stores).set({ storeType: kind }).where(eq(stores.id, side[kind].storeId));
  // Every store's license long expired: the run lapses the real store's, never a test or demo store's.
  await t.database.db
    .update(stores)
    .set({ licenseExpiresOn: '2026-01-01' })
    .where(inArray(stores.id, storeIds(['R', 'T', 'D'])));
  // An open invoice due today of the test and demo stores (as the seed writes them): never auto-paid.
  for (const kind of ['T', 'D'] as const)
    side[kind].extraDueId = (
      await createInvoice(t.database.db, {
        customerId: side[kind].customerId,
        storeId: side[kind].storeId,
        currency: 'USD',
        issuedOn: TODAY,
        dueOn: TODAY,
        lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 30_00 }],
      })
    ).id;
}, 120_000);
afterAll(() => t.close());

describe('the rule and its SQL twin (decision 149)', () => {
  it('agree for every store type and for no store', async () => {
    const cases: [string | null, number | null][] = [
      ['R', side.R.storeId],
      ['T', side.T.storeId],
      ['D', side.D.storeId],
      [null, null],
    ];
    expect(cases.map(([type]) => type).slice(0, 3)).toEqual([...STORE_TYPE_VALUES]);
    for (const [type, storeId] of cases) {
      const [row] = await t.database.query<{ billable: boolean }>(
        `select ${billableStoreSql('$1::integer')} as billable`,
        [storeId],
      );
      expect(row!.billable, String(type)).toBe(isBillableStoreType(type));
    }
  });
  it('is an anti-join over the test and demo stores’ own index, not a probe of every store', async () => {
    await t.database.exec('analyze stores; analyze invoices; set enable_seqscan = off');
    try {
      const rows = await t.database.query<{ 'QUERY PLAN': string }>(
        `explain select currency, sum(open_cents) from invoices
         where status = 'N' and reversed_at is null and open_cents > 0 and ${billableStoreSql('invoices.store_id')}
         group by currency`,
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Anti Join/);
      expect(plan).toContain('stores_not_billable_idx');
    } finally {
      await t.database.exec('reset enable_seqscan');
    }
  });
});

describe('test and demo stores are never billed, charged, dunned or counted', () => {
  it('the billing run bills the real store; the test and demo plans move on without an invoice', async () => {
    const res = await t.request({ method: 'POST', url: `/api/billing/runs/${tok.admin}`, payload: {} });
    expect(res.statusCode, res.body).toBe(202);
    const runId = (res.json() as { info: { run_id: number } }).info.run_id;
    await executeBillingRun(t.app.ctx, runId);
    const run = (await get(`/api/billing/runs/${runId}/{t}`, tok.admin)) as BillingRunInfo;
    expect(run).toMatchObject({ status: 'done', invoices_created: 1, skipped: 0 });
    const billed = await t.database.db
      .select({ planId: invoices.planId })
      .from(invoices)
      .where(inArray(invoices.planId, [side.R.planId, side.T.planId, side.D.planId]));
    expect(billed.map((b) => b.planId)).toEqual([side.R.planId]);
    const plans = await t.database.db
      .select({ id: customerPaymentPlans.id, next: customerPaymentPlans.nextBillingOn })
      .from(customerPaymentPlans)
      .where(inArray(customerPaymentPlans.id, [side.T.planId, side.D.planId]));
    // Not left due (a store that turns real is billed from then on, never for its test months).
    expect(plans.map((p) => p.next)).toEqual(['2027-01-01', '2027-01-01']);
    const lapsed = await t.database.db
      .select({ id: stores.id, lapsedOn: stores.licenseLapsedOn })
      .from(stores)
      .where(inArray(stores.id, storeIds(['R', 'T', 'D'])));
    const lapsedOn = (kind: 'R' | 'T' | 'D') => lapsed.find((l) => l.id === side[kind].storeId)!.lapsedOn;
    expect([lapsedOn('R'), lapsedOn('T'), lapsedOn('D')]).toEqual([TODAY, null, null]);
  });

  it('the sweep retries and auto-pays only the real store’s invoices', async () => {
    const result = await sweepPayments(t.app.ctx);
    // R: its failed invoice's retry, and the billing run's new invoice due today; T and D: nothing.
    expect(result).toMatchObject({ retries_enqueued: 1, autopay_enqueued: 1 });
  });

  it('collection finds no past-due invoice of a test store and charges none it is handed', async () => {
    expect(await pastDueInvoiceIds(t.app.ctx, side.T.customerId)).toEqual([]);
    expect(await pastDueInvoiceIds(t.app.ctx, side.D.customerId)).toEqual([]);
    expect(await pastDueInvoiceIds(t.app.ctx, side.R.customerId)).toEqual([side.R.pastDueId]);
    const before = await t.database.db.select().from(transactions).where(eq(transactions.invoiceId, side.T.pastDueId));
    const out = await collectInvoices(
      t.app.ctx,
      { customerId: side.T.customerId, invoiceIds: [side.T.pastDueId], attempt: 'collect-test' },
      SYSTEM,
      randomUUID(),
    );
    expect(out).toEqual([
      expect.objectContaining({ invoice_id: side.T.pastDueId, outcome: 'skipped', reason: 'not_billable' }),
    ]);
    const after = await t.database.db.select().from(transactions).where(eq(transactions.invoiceId, side.T.pastDueId));
    expect(after).toHaveLength(before.length);
  });

  it('failed payments list and recovery: only the real store', async () => {
    const list = await get(`/api/payments/failed/{t}?limit=100`);
    const stored = (list.items as { store_id: number | null }[]).map((i) => i.store_id);
    expect(stored).toContain(side.R.storeId);
    for (const id of storeIds(['T', 'D'])) expect(stored).not.toContain(id);
    const recovery = await get(`/api/payments/recovery/{t}?month=2026-12`);
    expect(recovery.by_currency).toEqual([expect.objectContaining({ currency: 'USD', failed_count: 1 })]);
  });

  it('AR aging, revenue and the failed-payment report count only the real store', async () => {
    const open = await t.database.db
      .select({ storeId: invoices.storeId, open: invoices.openCents })
      .from(invoices)
      .where(and(eq(invoices.status, 'N'), inArray(invoices.storeId, storeIds(['R', 'T', 'D']))));
    const openOf = (kind: 'R' | 'T' | 'D') =>
      open.filter((o) => o.storeId === side[kind].storeId).reduce((s, o) => s + o.open, 0);
    expect(openOf('T')).toBeGreaterThan(0);
    const aging = await get(`/api/reports/aging/{t}?as_of=${TODAY}`);
    expect(aging.totals).toEqual([expect.objectContaining({ currency: 'USD', total_cents: openOf('R') })]);
    expect((aging.customers.items as { customer_id: number }[]).map((c) => c.customer_id)).toEqual([side.R.customerId]);

    const revenue = await get(`/api/reports/revenue/{t}?from=2026-11-01&to=2026-12-31`);
    const realInvoices = await t.database.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(eq(invoices.storeId, side.R.storeId));
    expect(revenue.totals).toEqual([expect.objectContaining({ currency: 'USD', invoice_count: realInvoices.length })]);

    const failed = await get(`/api/reports/failed-payments/{t}?from=2026-12-01&to=2026-12-31`);
    expect(failed.rows).toEqual([
      expect.objectContaining({
        month: '2026-12',
        currency: 'USD',
        attempts: 1,
        failed_attempts: 1,
        failed_invoices: 1,
      }),
    ]);
  });

  it('a store made a test store leaves the report facts; made real again, it is back', async () => {
    const count = async () =>
      (await get(`/api/reports/revenue/{t}?from=2026-11-01&to=2026-12-31`)).totals[0].invoice_count as number;
    const before = await count();
    await t.database.db.update(stores).set({ storeType: 'R' }).where(eq(stores.id, side.T.storeId));
    // T's past-due, failed and extra invoices.
    expect(await count()).toBe(before + 3);
    await t.database.db.update(stores).set({ storeType: 'T' }).where(eq(stores.id, side.T.storeId));
    expect(await count()).toBe(before);
    // What the triggers kept is what a rebuild from scratch computes (decision 139's one rebuild, same rule).
    const facts = () =>
      t.database.query(
        `select month, type, currency, country, sum(invoice_count)::int as n, sum(invoiced_cents)::text as invoiced,
                sum(collected_cents)::text as collected
         from report_invoice_month_facts group by 1, 2, 3, 4 having sum(invoice_count) <> 0 order by 1, 2, 3, 4`,
      );
    const charges = () =>
      t.database.query(
        `select slot, currency, country, sum(attempts)::int as n, sum(failed_attempt_cents)::text as failed
         from report_charge_facts group by 1, 2, 3 having sum(attempts) <> 0 order by 1, 2, 3`,
      );
    const kept = [await facts(), await charges()];
    await t.database.exec('select report_facts_rebuild()');
    expect([await facts(), await charges()]).toEqual(kept);
  });

  it('the orders and sales reports count only the real store', async () => {
    const orders = await get(`/api/reports/orders/{t}?from=${TODAY}&to=${TODAY}`);
    const counted = (orders.by_status as { count: number; amount_cents: number }[]).reduce((s, f) => s + f.count, 0);
    expect(counted).toBe(1);
    const sales = await get(`/api/reports/sales/{t}?group=rep&from_month=2026-12&to_month=2026-12`);
    expect(sales.totals).toEqual([expect.objectContaining({ currency: 'USD', units: 1, amount_cents: 1_000_00 })]);
    const rep = await get(`/api/reports/sales/reps/${repId}/{t}`);
    expect(rep.totals).toEqual([expect.objectContaining({ currency: 'USD', units: 1, amount_cents: 1_000_00 })]);
  });
});
