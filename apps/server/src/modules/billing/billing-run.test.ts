import { addMonthsAnchored, BILLING_ITEM_IDS, installmentInterestCents, type BillingRunInfo } from '@pos/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomerBillingItem,
  createCustomerBundle,
  createPaymentInstrument,
  createPaymentPlan,
  createStore,
  createTransaction,
  ensureBillingItems,
  setTaxRate,
  type PaymentPlanRow,
} from '../../db/factories';
import {
  billingRuns,
  bundlePriceOptions,
  bundles,
  customerBundles,
  customerPaymentPlans,
  invoiceLines,
  invoices,
  stores,
  taxCertificates,
  taxRateVersions,
} from '../../db/schema';
import { signIn, signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { executeBillingRun, startBillingRun } from './billing.service';

/*
 * The billing run, driven by the injected clock (issue 14 acceptance): the test moves the clock day by day or month
 * by month, starts a run through HTTP as Admin ("Run now", as of today in the billing time zone) and executes its
 * job, then reads what a user would see: the invoices, their lines, numbers and totals, and the run's figures.
 */

let t: TestApp;
/** Sessions of the current (moved) clock: a session from months ago has expired. */
const tok = {
  get admin() {
    return signIn(t, 'admin@example.com');
  },
  get ar() {
    return signIn(t, 'ar@example.com');
  },
};
const TAX_BP = 600; // 6 % in the test store's state

async function runNow(asOf?: string): Promise<BillingRunInfo> {
  const res = await t.request({
    method: 'POST',
    url: `/api/billing/runs/${await tok.admin}`,
    payload: asOf ? { as_of: asOf } : {},
  });
  expect(res.statusCode, res.body).toBe(202);
  const { run_id } = (res.json() as { info: { run_id: number } }).info;
  await executeBillingRun(t.app.ctx, run_id);
  const got = await t.request({ method: 'GET', url: `/api/billing/runs/${run_id}/${await tok.admin}` });
  expect(got.statusCode, got.body).toBe(200);
  return (got.json() as { info: BillingRunInfo }).info;
}

/** The clock at noon UTC of a day (morning in New York: the same date). */
const setDay = (day: string) => t.clock.set(`${day}T12:00:00Z`);

async function invoicesOf(planId: number) {
  return t.database.db.select().from(invoices).where(eq(invoices.planId, planId)).orderBy(asc(invoices.periodStart));
}

async function linesOf(invoiceId: number) {
  return t.database.db
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoiceId))
    .orderBy(asc(invoiceLines.id));
}

async function newStore() {
  const store = await createStore(t.database.db, { country: 'US' });
  await setTaxRate(t.database.db, {
    country: 'US',
    state: store.state.toUpperCase(),
    rateBasisPoints: TAX_BP,
    label: 'Sales tax',
  });
  return store;
}

/** Only this plan is due in the test: every other active plan is moved far out, so each test counts its own. */
async function only(plan: PaymentPlanRow): Promise<PaymentPlanRow> {
  await t.database.db
    .update(customerPaymentPlans)
    .set({ nextBillingOn: '2099-01-01' })
    .where(and(sql`${customerPaymentPlans.id} <> ${plan.id}`, eq(customerPaymentPlans.status, 'active')));
  return plan;
}

beforeAll(async () => {
  t = await createTestApp();
  await signInStaff(t, { admin: 'Admin', ar: 'AR Team' });
  await ensureBillingItems(t.database.db, [
    BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE,
    BILLING_ITEM_IDS.YEARLY_SERVICE_FEE,
    BILLING_ITEM_IDS.INSTALLMENT,
    BILLING_ITEM_IDS.INTEREST,
    BILLING_ITEM_IDS.MARKET_FEE,
    BILLING_ITEM_IDS.OTHER_CHARGES,
  ]);
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('the billing run, month by month', () => {
  it('bills a monthly plan 12 M invoices in a year: fee + the store’s recurring items, taxed, back-to-back periods', async () => {
    const store = await newStore();
    const plan = await only(
      await createPaymentPlan(t.database.db, {
        storeId: store.id,
        kind: 'monthly',
        recurringAmountCents: 79_00,
        startsOn: '2026-01-31',
        nextBillingOn: '2026-02-28',
      }),
    );
    // A recurring item of the plan (market fee) is billed with the fee; a canceled one is not.
    await createCustomerBillingItem(t.database.db, {
      storeId: store.id,
      planId: plan.id,
      billingItemId: BILLING_ITEM_IDS.MARKET_FEE,
      unitPriceCents: 10_00,
      quantity: 2,
      startsOn: '2026-01-31',
    });
    await createCustomerBillingItem(t.database.db, {
      storeId: store.id,
      planId: plan.id,
      billingItemId: BILLING_ITEM_IDS.MARKET_FEE,
      unitPriceCents: 99_00,
      status: 'C',
      startsOn: '2026-01-31',
    });
    let day = '2026-02-28';
    for (let m = 0; m < 12; m++) {
      setDay(day);
      const run = await runNow();
      expect(run, day).toMatchObject({ status: 'done', plans_done: 1, invoices_created: 1, skipped: 0 });
      day = addMonthsAnchored(day, 1, 31);
    }
    const billed = await invoicesOf(plan.id);
    expect(billed).toHaveLength(12);
    expect(billed.map((i) => i.periodStart)).toEqual([
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
      '2026-08-31',
      '2026-09-30',
      '2026-10-31',
      '2026-11-30',
      '2026-12-31',
      '2027-01-31',
    ]);
    for (let i = 1; i < billed.length; i++) expect(billed[i]!.periodStart).toBe(billed[i - 1]!.periodEnd);
    for (const inv of billed) {
      // The plan's price is what was sold: 79.00 a month, of which the items take 20.00 and the fee the rest.
      expect(inv).toMatchObject({ type: 'M', status: 'N', currency: 'USD', taxCents: 4_74, totalCents: 79_00 + 4_74 });
      expect(inv.issuedOn).toBe(inv.periodStart);
      const lines = await linesOf(inv.id);
      expect(lines.map((l) => [l.billingItemId, l.quantity, l.amountCents])).toEqual([
        [BILLING_ITEM_IDS.MARKET_FEE, 2, 20_00],
        [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, 1, 59_00],
      ]);
    }
    const [after] = await t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.id, plan.id));
    expect(after).toMatchObject({ nextBillingOn: '2027-02-28', billedPeriods: 12, status: 'active' });
  });

  it('bills a yearly plan once a year (fee 9)', async () => {
    const store = await newStore();
    const plan = await only(
      await createPaymentPlan(t.database.db, {
        storeId: store.id,
        kind: 'yearly',
        recurringAmountCents: 799_00,
        startsOn: '2025-03-10',
        nextBillingOn: '2026-03-10',
      }),
    );
    for (let m = 0; m < 12; m++) {
      setDay(addMonthsAnchored('2026-03-10', m, 10));
      await runNow();
    }
    const billed = await invoicesOf(plan.id);
    expect(billed).toHaveLength(1);
    expect(billed[0]).toMatchObject({
      type: 'M',
      periodStart: '2026-03-10',
      periodEnd: '2027-03-10',
      totalCents: 799_00 + 47_94,
    });
    expect((await linesOf(billed[0]!.id)).map((l) => l.billingItemId)).toEqual([BILLING_ITEM_IDS.YEARLY_SERVICE_FEE]);
  });

  it('bills a 12-month installment plan 12 I invoices summing exactly to principal + 5 % interest, then completes it', async () => {
    const store = await newStore();
    const financed = 1000_01;
    const plan = await only(
      await createPaymentPlan(t.database.db, {
        storeId: store.id,
        kind: 'hardware_sale',
        term: 12,
        interval: 1,
        financedCents: financed,
        recurringAmountCents: 87_50,
        startsOn: '2026-01-05',
        nextBillingOn: '2026-02-05',
      }),
    );
    for (let m = 0; m < 14; m++) {
      setDay(addMonthsAnchored('2026-02-05', m, 5));
      await runNow();
    }
    const billed = await invoicesOf(plan.id);
    expect(billed).toHaveLength(12);
    let principal = 0;
    let interest = 0;
    let tax = 0;
    for (const inv of billed) {
      expect(inv.type).toBe('I');
      const lines = await linesOf(inv.id);
      expect(lines.map((l) => l.billingItemId)).toEqual([BILLING_ITEM_IDS.INSTALLMENT, BILLING_ITEM_IDS.INTEREST]);
      principal += lines[0]!.amountCents;
      interest += lines[1]!.amountCents;
      tax += inv.taxCents;
      // Interest is not taxed.
      expect(inv.taxCents).toBe(Math.floor((lines[0]!.amountCents * TAX_BP + 5000) / 10000));
    }
    expect(principal).toBe(financed);
    expect(interest).toBe(installmentInterestCents(financed));
    expect(billed.reduce((s, i) => s + i.totalCents, 0)).toBe(financed + installmentInterestCents(financed) + tax);
    expect((await linesOf(billed[11]!.id))[0]!.description).toBe('Installment 12 of 12');
    const [after] = await t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.id, plan.id));
    expect(after).toMatchObject({ status: 'completed', nextBillingOn: null, billedPeriods: 12 });
  });

  it('catches up a plan three periods behind in one run, oldest first, with consecutive invoice numbers', async () => {
    const store = await newStore();
    const plan = await only(
      await createPaymentPlan(t.database.db, {
        storeId: store.id,
        kind: 'monthly',
        recurringAmountCents: 50_00,
        startsOn: '2027-01-10',
        nextBillingOn: '2027-02-10',
      }),
    );
    setDay('2027-04-11');
    const run = await runNow();
    expect(run).toMatchObject({ plans_done: 3, invoices_created: 3 });
    const billed = await invoicesOf(plan.id);
    expect(billed.map((i) => i.periodStart)).toEqual(['2027-02-10', '2027-03-10', '2027-04-10']);
    const numbers = billed.map((i) => Number(i.invoiceNumber.slice('INV-2027-'.length)));
    expect(billed.every((i) => i.invoiceNumber.startsWith('INV-2027-'))).toBe(true);
    expect(numbers).toEqual([numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
  });
});

describe('exactly once', () => {
  it('a re-run on the same day creates nothing', async () => {
    const plan = await only(
      await createPaymentPlan(t.database.db, {
        storeId: (await newStore()).id,
        kind: 'monthly',
        startsOn: '2028-01-01',
        nextBillingOn: '2028-02-01',
      }),
    );
    setDay('2028-02-01');
    expect(await runNow()).toMatchObject({ invoices_created: 1 });
    expect(await runNow()).toMatchObject({ status: 'done', plans_done: 0, invoices_created: 0 });
    expect(await invoicesOf(plan.id)).toHaveLength(1);
  });

  it('a period that already has its invoice is skipped (counted), the plan still moves on', async () => {
    const plan = await only(
      await createPaymentPlan(t.database.db, {
        storeId: (await newStore()).id,
        kind: 'monthly',
        startsOn: '2028-03-01',
        nextBillingOn: '2028-04-01',
      }),
    );
    setDay('2028-04-01');
    await runNow();
    // As if the plan had not moved (a restore, an edit by hand): the period is there already.
    await t.database.db
      .update(customerPaymentPlans)
      .set({ nextBillingOn: '2028-04-01' })
      .where(eq(customerPaymentPlans.id, plan.id));
    expect(await runNow()).toMatchObject({ plans_done: 1, invoices_created: 0, skipped: 1 });
    expect(await invoicesOf(plan.id)).toHaveLength(1);
  });

  it('two runs executed together create each invoice once, numbers without gaps', async () => {
    const plans: PaymentPlanRow[] = [];
    for (let i = 0; i < 6; i++)
      plans.push(
        await createPaymentPlan(t.database.db, {
          storeId: (await newStore()).id,
          kind: 'monthly',
          startsOn: '2029-01-15',
          nextBillingOn: '2029-02-15',
        }),
      );
    await only(plans[0]!);
    await t.database.db
      .update(customerPaymentPlans)
      .set({ nextBillingOn: '2029-02-15' })
      .where(sql`${customerPaymentPlans.id} in ${plans.map((p) => p.id)}`);
    setDay('2029-03-20');
    const start = async () => {
      const res = await t.request({ method: 'POST', url: `/api/billing/runs/${await tok.admin}`, payload: {} });
      return (res.json() as { info: { run_id: number } }).info.run_id;
    };
    const [a, b] = [await start(), await start()];
    await Promise.all([
      executeBillingRun(t.app.ctx, a, { batchSize: 2 }),
      executeBillingRun(t.app.ctx, b, { batchSize: 2 }),
    ]);
    const all = (await Promise.all(plans.map((p) => invoicesOf(p.id)))).flat();
    expect(all).toHaveLength(12);
    expect(new Set(all.map((i) => `${i.planId}/${i.periodStart}`)).size).toBe(12);
    const seq = all.map((i) => Number(i.invoiceNumber.slice('INV-2029-'.length))).sort((x, y) => x - y);
    expect(seq).toEqual(Array.from({ length: 12 }, (_, i) => seq[0]! + i));
  });

  it('a run killed after a batch and executed again completes with no gap and no duplicate', async () => {
    const plans: PaymentPlanRow[] = [];
    for (let i = 0; i < 5; i++)
      plans.push(
        await createPaymentPlan(t.database.db, {
          storeId: (await newStore()).id,
          kind: 'monthly',
          startsOn: '2030-01-20',
          nextBillingOn: '2030-02-20',
        }),
      );
    await only(plans[0]!);
    await t.database.db
      .update(customerPaymentPlans)
      .set({ nextBillingOn: '2030-02-20' })
      .where(sql`${customerPaymentPlans.id} in ${plans.map((p) => p.id)}`);
    setDay('2030-02-20');
    const res = await t.request({ method: 'POST', url: `/api/billing/runs/${await tok.admin}`, payload: {} });
    const runId = (res.json() as { info: { run_id: number } }).info.run_id;
    await expect(
      executeBillingRun(t.app.ctx, runId, {
        batchSize: 2,
        concurrency: 1,
        afterBatch: async (n) => {
          if (n === 1) throw new Error('the worker died');
        },
      }),
    ).rejects.toThrow('the worker died');
    const failed = await t.database.db.select().from(billingRuns).where(eq(billingRuns.id, runId));
    expect(failed[0]).toMatchObject({ status: 'failed', plansDone: 2, error: 'the worker died' });
    const done = await executeBillingRun(t.app.ctx, runId, { batchSize: 2 });
    expect(done).toMatchObject({ status: 'done', plans_due: 5, plans_done: 5, invoices_created: 5 });
    const all = (await Promise.all(plans.map((p) => invoicesOf(p.id)))).flat();
    expect(all).toHaveLength(5);
    const seq = all.map((i) => Number(i.invoiceNumber.slice('INV-2030-'.length))).sort((x, y) => x - y);
    expect(seq).toEqual(Array.from({ length: 5 }, (_, i) => seq[0]! + i));
  });
});

describe('licenses: expiry, lapse, restore (point 3)', () => {
  async function pushLicenseJobs(storeId: number): Promise<number> {
    const [row] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'push-license' and (data->'input'->>'storeId')::int = $1`,
      [storeId],
    );
    return row!.n;
  }
  const storeRow = async (id: number) => (await t.database.db.select().from(stores).where(eq(stores.id, id)))[0]!;

  it('lapses a store 37 days past its expiry (push-license queued), and paying the overdue invoice restores it with the US reactivation fee', async () => {
    const store = await newStore();
    await t.database.db.update(stores).set({ licenseExpiresOn: '2031-01-31' }).where(eq(stores.id, store.id));
    const plan = await only(
      await createPaymentPlan(t.database.db, {
        storeId: store.id,
        kind: 'monthly',
        recurringAmountCents: 60_00,
        startsOn: '2030-12-31',
        nextBillingOn: '2031-01-31',
        licenseExpiresOn: '2031-01-31',
      }),
    );
    // Billed on its day; not paid. Through the grace (Jan 31 + 37 = Mar 9) the store stays licensed.
    setDay('2031-01-31');
    await runNow();
    setDay('2031-03-09');
    expect((await runNow()).licenses_lapsed).toBe(0);
    expect((await storeRow(store.id)).licenseLapsedOn).toBeNull();
    setDay('2031-03-10');
    const lapsedRun = await runNow();
    expect(lapsedRun.licenses_lapsed).toBeGreaterThanOrEqual(1);
    expect((await storeRow(store.id)).licenseLapsedOn).toBe('2031-03-10');
    expect(await pushLicenseJobs(store.id)).toBe(1);
    // A second run does not lapse it again.
    await runNow();
    expect(await pushLicenseJobs(store.id)).toBe(1);

    // The merchant pays: the failed charge of the oldest invoice is retried with a card on file (decision 113).
    const [first, second] = await invoicesOf(plan.id);
    await createPaymentInstrument(t.database.db, { customerId: store.customerId, kind: 'card', cardLast4: '4242' });
    const token = await tok.admin;
    for (const inv of [first!, second!]) {
      const failed = await createTransaction(t.database.db, { invoiceId: inv.id, status: 'F' });
      const res = await t.request({
        method: 'POST',
        url: `/api/customers/${store.customerId}/${token}/transactions/${failed.id}`,
        payload: { action: 'retry', version: 1 },
        headers: { 'idempotency-key': `pay-${inv.id}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // The license runs to the end of the last paid period; the store is licensed again and its terminals told.
    const [afterPlan] = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(eq(customerPaymentPlans.id, plan.id));
    expect(afterPlan!.licenseExpiresOn).toBe(second!.periodEnd);
    const restored = await storeRow(store.id);
    expect(restored).toMatchObject({ licenseExpiresOn: second!.periodEnd, licenseLapsedOn: null });
    expect(await pushLicenseJobs(store.id)).toBe(2);
    const fees = await t.database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.storeId, store.id), eq(invoices.type, 'S')));
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({ totalCents: 50_00, status: 'N' });
    expect((await linesOf(fees[0]!.id)).map((l) => [l.billingItemId, l.description, l.amountCents])).toEqual([
      [BILLING_ITEM_IDS.OTHER_CHARGES, 'Reactivation fee', 50_00],
    ]);
  });
});

describe('the calls', () => {
  it('lists runs newest first; one run by id; 404 for an unknown run', async () => {
    const list = await t.request({ method: 'GET', url: `/api/billing/runs/${await tok.admin}?limit=2` });
    expect(list.statusCode).toBe(200);
    const info = (list.json() as { info: { items: Array<{ run_id: number; requested_by: string }>; total: number } })
      .info;
    expect(info.items).toHaveLength(2);
    expect(info.items[0]!.run_id).toBeGreaterThan(info.items[1]!.run_id);
    expect(info.items[0]!.requested_by).toBe('admin@example.com');
    expect(info.total).toBeGreaterThan(2);
    const missing = await t.request({ method: 'GET', url: `/api/billing/runs/999999/${await tok.admin}` });
    expect(missing.statusCode).toBe(404);
    expect((missing.json() as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('400 with the field for a bad date; 403 for a user who is not Admin', async () => {
    const bad = await t.request({
      method: 'POST',
      url: `/api/billing/runs/${await tok.admin}`,
      payload: { as_of: '2026-13-01' },
    });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty('as_of');
    const extra = await t.request({
      method: 'POST',
      url: `/api/billing/runs/${await tok.admin}`,
      payload: { as_of: '2026-11-22', x: 1 },
    });
    expect(extra.statusCode).toBe(400);
    for (const req of [
      { method: 'POST' as const, url: `/api/billing/runs/${await tok.ar}`, payload: {} },
      { method: 'GET' as const, url: `/api/billing/runs/${await tok.ar}` },
      { method: 'GET' as const, url: `/api/billing/runs/1/${await tok.ar}` },
    ]) {
      const res = await t.request(req);
      expect(res.statusCode, req.url).toBe(403);
    }
  });

  it('in production a run bills today only: another date is a 400 on as_of', async () => {
    // The test app cannot start with NODE_ENV=production (local identity provider): the service is called directly.
    setDay('2026-11-25');
    const ctx = {
      app: { ...t.app.ctx, config: { ...t.app.ctx.config, env: 'production' as const } },
      session: { email: 'admin@example.com' },
      actor: { actorType: 'staff', actorId: 1, actorEmail: 'admin@example.com' },
      requestId: 'test',
      ip: null,
      userAgent: null,
    } as unknown as Parameters<typeof startBillingRun>[0];
    await expect(startBillingRun(ctx, { as_of: '2026-11-24' })).rejects.toMatchObject({
      fields: { as_of: expect.stringContaining('2026-11-25') },
    });
  });
});

describe('the billing run and the tax rule (issue 17, decision 127)', () => {
  it('taxes each invoice at the rate in force on its date; an Arizona installment is untaxed while the certificate is valid', async () => {
    const db = t.database.db;
    const az = await createStore(db, { country: 'US', state: 'AZ' });
    await setTaxRate(db, { country: 'US', state: 'AZ', rateBasisPoints: 560 });
    await setTaxRate(db, { country: 'US', state: 'AZ', rateBasisPoints: 600, effectiveOn: '2026-03-05' });
    const [cert] = await db
      .insert(taxCertificates)
      .values({
        customerId: az.customerId,
        storeId: az.id,
        state: 'AZ',
        certificateNumber: 'TPT-1',
        expiresOn: '2026-03-05',
      })
      .returning();
    try {
      const plan = await only(
        await createPaymentPlan(db, {
          storeId: az.id,
          kind: 'hardware_sale',
          term: 3,
          interval: 1,
          financedCents: 300_00,
          recurringAmountCents: 105_00,
          startsOn: '2026-01-05',
          nextBillingOn: '2026-02-05',
        }),
      );
      const service = await createPaymentPlan(db, {
        storeId: az.id,
        kind: 'monthly',
        recurringAmountCents: 100_00,
        startsOn: '2026-01-05',
        nextBillingOn: '2026-02-05',
      });
      for (const day of ['2026-02-05', '2026-03-05', '2026-04-05']) {
        setDay(day);
        await runNow();
      }
      // Installments: exempt on 02-05 and 03-05 (the certificate expires on 03-05, valid that day), taxed at the
      // new rate (6 %) on 04-05 — on the installment, not on its interest.
      const inst = await invoicesOf(plan.id);
      expect(inst.map((i) => [i.issuedOn, i.taxCents])).toEqual([
        ['2026-02-05', 0],
        ['2026-03-05', 0],
        ['2026-04-05', 6_00],
      ]);
      // Services are never exempt: 5.6 % before 03-05, 6 % from it.
      const fees = await invoicesOf(service.id);
      expect(fees.map((i) => [i.issuedOn, i.taxCents])).toEqual([
        ['2026-02-05', 5_60],
        ['2026-03-05', 6_00],
        ['2026-04-05', 6_00],
      ]);
    } finally {
      await db.delete(taxCertificates).where(eq(taxCertificates.id, cert!.id));
      await db.delete(taxRateVersions).where(eq(taxRateVersions.effectiveOn, '2026-03-05'));
    }
  });
});

describe('a sold bundle keeps its price (issue 17 point 4, decision 126)', () => {
  it('an existing customer’s bundle is billed at its sold price after the Admin changes the price option; one sold after the change at the new price', async () => {
    const db = t.database.db;
    const [bundle] = await db
      .insert(bundles)
      .values({ id: 9_701, name: 'Frozen bundle', description: null, nrsPay: false })
      .returning();
    const [option] = await db
      .insert(bundlePriceOptions)
      .values({
        bundleId: bundle!.id,
        billingItemId: BILLING_ITEM_IDS.MARKET_FEE,
        currency: 'USD',
        referenceId: null,
        label: 'Monthly',
        priceCents: 20_00,
        term: 1,
      })
      .returning();
    const sell = async (day: string) => {
      setDay(day);
      const store = await newStore();
      const plan = await createPaymentPlan(db, {
        storeId: store.id,
        kind: 'monthly',
        recurringAmountCents: 79_00,
        startsOn: day,
        nextBillingOn: '2026-03-01',
      });
      await createCustomerBundle(db, { storeId: store.id, bundleId: bundle!.id, planId: plan.id, startsOn: day });
      return plan;
    };
    const before = await only(await sell('2026-01-01'));

    // The Admin raises the bundle's monthly price on the catalogue screen.
    setDay('2026-02-10');
    const put = await t.request({
      method: 'PUT',
      url: `/api/admin/catalogue/bundles/${bundle!.id}/options/${option!.id}/${await tok.admin}`,
      payload: {
        billing_item_id: BILLING_ITEM_IDS.MARKET_FEE,
        currency: 'USD',
        reference_id: null,
        label: 'Monthly',
        price_cents: 35_00,
        term: 1,
        version: bundle!.version,
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = await sell('2026-02-15');

    setDay('2026-03-01');
    const run = await runNow();
    expect(run).toMatchObject({ status: 'done', plans_done: 2, invoices_created: 2 });
    const billedLines = async (planId: number) => {
      const [inv] = await invoicesOf(planId);
      expect(inv, `plan ${planId}`).toBeDefined();
      return (await linesOf(inv!.id)).map((l) => [l.billingItemId, l.description, l.unitCents, l.amountCents]);
    };
    // Sold at 20.00: still 20.00 (the service fee is the rest of the plan's 79.00).
    expect(await billedLines(before.id)).toEqual([
      [BILLING_ITEM_IDS.MARKET_FEE, 'Frozen bundle: Monthly', 20_00, 20_00],
      [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, 'Monthly service fee', 59_00, 59_00],
    ]);
    // Sold after the change: the new 35.00.
    expect(await billedLines(after.id)).toEqual([
      [BILLING_ITEM_IDS.MARKET_FEE, 'Frozen bundle: Monthly', 35_00, 35_00],
      [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, 'Monthly service fee', 44_00, 44_00],
    ]);
  });

  it('a bundle never frozen (no plan when it was created) is billed at its live price options, as before', async () => {
    const db = t.database.db;
    setDay('2026-04-01');
    const store = await newStore();
    const plan = await only(
      await createPaymentPlan(db, {
        storeId: store.id,
        kind: 'monthly',
        recurringAmountCents: 79_00,
        startsOn: '2026-04-01',
        nextBillingOn: '2026-05-01',
      }),
    );
    // The bundle of the test above, its option now at 35.00; created without a plan, so nothing is frozen.
    const cb = await createCustomerBundle(db, { storeId: store.id, bundleId: 9_701, startsOn: '2026-04-01' });
    await db.update(customerBundles).set({ planId: plan.id }).where(eq(customerBundles.id, cb.id));
    setDay('2026-05-01');
    expect(await runNow()).toMatchObject({ status: 'done', plans_done: 1, invoices_created: 1 });
    const [inv] = await invoicesOf(plan.id);
    expect((await linesOf(inv!.id)).map((l) => [l.billingItemId, l.amountCents])).toEqual([
      [BILLING_ITEM_IDS.MARKET_FEE, 35_00],
      [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, 44_00],
    ]);
  });
});
