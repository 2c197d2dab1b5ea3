import { randomUUID } from 'node:crypto';
import { BILLING_ITEM_IDS, DECLINE_CODES, DECLINE_KIND, JOB_QUEUE, ORDER_STATUS } from '@pos/domain';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createInvoice,
  createOrder,
  createPaymentInstrument,
  createPaymentPlan,
  createStore,
  ensureBillingItems,
} from '../../db/factories';
import {
  authorizationSettlements,
  invoiceDunning,
  invoiceLines,
  invoices,
  mailLog,
  receipts,
  stores,
  transactions,
} from '../../db/schema';
import { LOCAL_TEST_CARDS, type LocalGateway } from '../../integrations/gateway';
import { startWorkers } from '../../jobs/registry';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { runScheduledBilling } from '../billing';
import { chargeInvoice, chargeKey } from './charge.service';
import { queueHoldSettlements } from './holds.service';
import { sweepPayments } from './sweep.service';

/*
 * Charging and dunning (issue 15 acceptance), driven by the injected clock: each decline code takes its soft or hard
 * path; the retry schedule runs by moving the clock; the fee is owed once and rides on the next invoice; a hard
 * decline is not retried and mails the update-payment link; a repeated attempt charges once; a lost answer is
 * reconciled; a bank debit settles the next day and a returned one becomes B.
 */

let t: TestApp;
const SYSTEM = { actorType: 'system' as const, actorId: 'test' };
const gateway = () => t.app.ctx.gateway as LocalGateway;
const setDay = (day: string) => t.clock.set(`${day}T12:00:00Z`);

beforeAll(async () => {
  t = await createTestApp({ config: { payments: { retryDays: [3, 7, 14], reconcileAfterSeconds: 300 } } });
});
afterAll(() => t.close());

/** A US (or CA) store with a default card ending `last4` and an invoice of $100 due today. */
async function scenario(opts: { last4?: string; country?: 'US' | 'CA'; kind?: 'card' | 'bank'; cents?: number } = {}) {
  const country = opts.country ?? 'US';
  const customer = await createCustomer(t.database.db, { country });
  const store = await createStore(t.database.db, { customerId: customer.id, country });
  const last4 = opts.last4 ?? '4242';
  const instrument = await createPaymentInstrument(t.database.db, {
    customerId: customer.id,
    storeId: store.id,
    kind: opts.kind ?? 'card',
    ...(opts.kind === 'bank'
      ? { accountLast4: last4 }
      : { cardLast4: last4, processorReference: `pm_local_test${customer.id}_${last4}` }),
  });
  const today = t.clock.now().toISOString().slice(0, 10);
  const invoice = await createInvoice(t.database.db, {
    customerId: customer.id,
    storeId: store.id,
    currency: country === 'CA' ? 'CAD' : 'USD',
    issuedOn: today,
    dueOn: today,
    lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: opts.cents ?? 100_00 }],
  });
  return { customer, store, instrument, invoice };
}

const charge = (invoiceId: number, attempt = 'autopay') =>
  chargeInvoice(t.app.ctx, { invoiceId, attempt, source: 'autopay', actor: SYSTEM, requestId: randomUUID() });

async function txOf(invoiceId: number) {
  return t.database.db
    .select()
    .from(transactions)
    .where(eq(transactions.invoiceId, invoiceId))
    .orderBy(asc(transactions.id));
}
async function dunningOf(invoiceId: number) {
  const [row] = await t.database.db.select().from(invoiceDunning).where(eq(invoiceDunning.invoiceId, invoiceId));
  return row;
}
async function mailsTo(storeId: number) {
  return t.database.db
    .select()
    .from(mailLog)
    .where(and(eq(mailLog.relatedType, 'store'), eq(mailLog.relatedId, String(storeId))))
    .orderBy(desc(mailLog.id));
}

describe('charging an invoice', () => {
  it('a good card pays the invoice: P then S, the invoice paid, the gateway saw one charge', async () => {
    setDay('2026-12-01');
    const s = await scenario();
    const outcome = await charge(s.invoice.id);
    expect(outcome).toMatchObject({ kind: 'charged', status: 'S' });
    const [tx] = await txOf(s.invoice.id);
    expect(tx).toMatchObject({ status: 'S', amountCents: 100_00, idempotencyKey: chargeKey(s.invoice.id, 'autopay') });
    const [inv] = await t.database.db.select().from(invoices).where(eq(invoices.id, s.invoice.id));
    expect(inv).toMatchObject({ status: 'P', paidCents: 100_00 });
    // The same attempt again: no second row, no second gateway charge.
    expect(await charge(s.invoice.id)).toMatchObject({ kind: 'charged', transactionId: tx!.id, status: 'S' });
    expect(await txOf(s.invoice.id)).toHaveLength(1);
    expect(await gateway().store.countCharges(s.instrument.processorReference!)).toBe(1);
  });

  it.each(DECLINE_CODES.filter((c) => c !== 'timeout'))('decline %s takes its soft or hard path', async (code) => {
    setDay('2026-12-01');
    const last4 = Object.entries(LOCAL_TEST_CARDS).find(([, c]) => c.outcome === code)![0];
    const s = await scenario({ last4 });
    expect(await charge(s.invoice.id)).toMatchObject({ status: 'F' });
    const [tx] = await txOf(s.invoice.id);
    expect(tx).toMatchObject({ status: 'F', declineCode: code });
    const d = await dunningOf(s.invoice.id);
    const [mail] = await mailsTo(s.store.id);
    if (DECLINE_KIND[code] === 'soft') {
      expect(d).toMatchObject({
        state: 'retrying',
        failedAttempts: 1,
        nextRetryOn: '2026-12-04',
        lastDeclineKind: 'soft',
      });
      expect(mail).toMatchObject({ template: 'payment_failed' });
      expect(mail!.subject).toContain('failed');
    } else {
      expect(d).toMatchObject({ state: 'collection', nextRetryOn: null, lastDeclineKind: 'hard' });
      expect(mail).toMatchObject({ template: 'payment_update_link' });
      const [store] = await t.database.db.select().from(stores).where(eq(stores.id, s.store.id));
      expect(store!.pastDueSince).toBe('2026-12-01');
    }
    expect(d).toMatchObject({ feeState: 'pending', feeCents: 25_00 });
  });

  it('a Canadian store owes no failed-payment fee', async () => {
    setDay('2026-12-01');
    const s = await scenario({ last4: '9995', country: 'CA' });
    await charge(s.invoice.id);
    expect(await dunningOf(s.invoice.id)).toMatchObject({ state: 'retrying', feeState: null });
  });
});

describe('dunning by the clock', () => {
  it('retries a soft decline 3, 7 and 14 days after the first failure, then collection; the fee once, on the next invoice', async () => {
    setDay('2027-01-05');
    const s = await scenario({ last4: '9995' });
    const plan = await createPaymentPlan(t.database.db, {
      customerId: s.customer.id,
      storeId: s.store.id,
      kind: 'monthly',
      interval: 1,
      recurringAmountCents: 50_00,
      startsOn: '2026-12-20',
      nextBillingOn: '2027-01-20',
    });
    await charge(s.invoice.id);
    // Only this invoice is in dunning here (the tests above left theirs retrying).
    await t.database.db
      .update(invoiceDunning)
      .set({ state: 'stopped', nextRetryOn: null })
      .where(ne(invoiceDunning.invoiceId, s.invoice.id));
    await startWorkers(t.app.ctx.queue, t.app.ctx, { queues: [JOB_QUEUE.invoiceCharge], pollingIntervalSeconds: 0.5 });
    /** The invoice's charges once `n` exist and none is still pending (the job recorded its answer). */
    const attempts = async (n: number) => {
      for (let i = 0; i < 100; i++) {
        const rows = await txOf(s.invoice.id);
        if (rows.length >= n && rows.every((r) => r.status !== 'P')) return rows;
        await new Promise((r) => setTimeout(r, 100));
      }
      return txOf(s.invoice.id);
    };

    setDay('2027-01-07');
    expect((await sweepPayments(t.app.ctx)).retries_enqueued).toBe(0);
    for (const [day, n, next] of [
      ['2027-01-08', 2, '2027-01-12'],
      ['2027-01-12', 3, '2027-01-19'],
    ] as const) {
      setDay(day);
      expect((await sweepPayments(t.app.ctx)).retries_enqueued).toBe(1);
      expect(await attempts(n)).toHaveLength(n);
      expect(await dunningOf(s.invoice.id)).toMatchObject({ state: 'retrying', failedAttempts: n, nextRetryOn: next });
    }
    setDay('2027-01-19');
    await sweepPayments(t.app.ctx);
    expect(await attempts(4)).toHaveLength(4);
    expect(await dunningOf(s.invoice.id)).toMatchObject({ state: 'collection', failedAttempts: 4, nextRetryOn: null });
    const [store] = await t.database.db.select().from(stores).where(eq(stores.id, s.store.id));
    expect(store!.pastDueSince).toBe('2027-01-19');
    setDay('2027-02-20');
    expect((await sweepPayments(t.app.ctx)).retries_enqueued).toBe(0);

    // The fee: on the store's next service invoice, once.
    setDay('2027-01-20');
    await ensureBillingItems(t.database.db, [BILLING_ITEM_IDS.OTHER_CHARGES]);
    await runScheduledBilling(t.app.ctx);
    const [next] = await t.database.db.select().from(invoices).where(eq(invoices.planId, plan.id));
    const lines = await t.database.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, next!.id));
    expect(lines.filter((l) => l.description.startsWith('Failed-payment fee'))).toEqual([
      expect.objectContaining({ amountCents: 25_00, billingItemId: BILLING_ITEM_IDS.OTHER_CHARGES }),
    ]);
    expect(lines.find((l) => l.billingItemId === BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE)).toMatchObject({
      amountCents: 50_00,
    });
    expect(await dunningOf(s.invoice.id)).toMatchObject({ feeState: 'invoiced', feeInvoiceId: next!.id });
  }, 60_000);
});

describe('lost answers and bank debits', () => {
  it("the timeout card leaves P; the reconciler records the gateway's answer (F, timeout, soft)", async () => {
    setDay('2026-12-10');
    const s = await scenario({ last4: '0101' });
    expect(await charge(s.invoice.id)).toMatchObject({ status: 'P' });
    expect(await sweepPayments(t.app.ctx)).toMatchObject({ reconciled: 0 });
    t.clock.advance(301_000);
    expect((await sweepPayments(t.app.ctx)).reconciled).toBeGreaterThanOrEqual(1);
    const [tx] = await txOf(s.invoice.id);
    expect(tx).toMatchObject({ status: 'F', declineCode: 'timeout' });
    expect(await dunningOf(s.invoice.id)).toMatchObject({ state: 'retrying', lastDeclineKind: 'soft' });
  });

  it('a bank debit stays P until it settles the next day; a returned one becomes B and the invoice reopens', async () => {
    setDay('2026-12-15');
    const ok = await scenario({ kind: 'bank', last4: '6789' });
    const back = await scenario({ kind: 'bank', last4: '4444' });
    expect(await charge(ok.invoice.id)).toMatchObject({ status: 'P' });
    expect(await charge(back.invoice.id)).toMatchObject({ status: 'P' });
    setDay('2026-12-16');
    t.clock.advance(3600_000);
    await sweepPayments(t.app.ctx);
    expect((await txOf(ok.invoice.id))[0]).toMatchObject({ status: 'S' });
    expect((await txOf(back.invoice.id))[0]).toMatchObject({ status: 'S' });
    setDay('2026-12-18');
    await sweepPayments(t.app.ctx);
    expect((await txOf(ok.invoice.id))[0]).toMatchObject({ status: 'S' });
    expect((await txOf(back.invoice.id))[0]).toMatchObject({ status: 'B' });
    const [inv] = await t.database.db.select().from(invoices).where(eq(invoices.id, back.invoice.id));
    expect(inv).toMatchObject({ status: 'N', paidCents: 0 });
    expect(await dunningOf(back.invoice.id)).toMatchObject({ state: 'retrying', feeState: 'pending' });
  });
});

describe('requests recorded as deferred before this issue', () => {
  it('are replayed once to their now-real queue, or recorded as failed with the reason', async () => {
    const s = await scenario();
    const entry = (jobId: string, input: unknown) =>
      t.database.query(
        `insert into audit_log (actor_type, action, entity, entity_id, after, customer_id)
         values ('system', 'deferred', 'customer-transactions', $1, $2, $3)`,
        [jobId, JSON.stringify({ waiting_for: 'billing', input }), s.customer.id],
      );
    await entry(randomUUID(), { customer_id: s.customer.id, transaction_ids: [1], action: 'reprocess' });
    await entry(randomUUID(), { customer_id: s.customer.id, transaction_ids: [], action: 'reprocess' });
    expect(await sweepPayments(t.app.ctx)).toMatchObject({ deferred_replayed: 1, deferred_failed: 1 });
    expect(await sweepPayments(t.app.ctx)).toMatchObject({ deferred_replayed: 0, deferred_failed: 0 });
    const answers = await t.database.query<{ action: string; after: Record<string, unknown> }>(
      `select action, after from audit_log where action like 'deferred_replay%' order by id`,
    );
    expect(answers).toEqual([
      { action: 'deferred_replayed', after: { new_job_id: expect.any(String) } },
      { action: 'deferred_replay_failed', after: { reason: expect.stringContaining('contract') } },
    ]);
  });
});

describe('a new payment method', () => {
  it('added by staff retries the open failed invoices at once (hard decline, new card → paid)', async () => {
    setDay('2026-12-20');
    const s = await scenario({ last4: '9979' });
    await charge(s.invoice.id);
    expect(await dunningOf(s.invoice.id)).toMatchObject({ state: 'collection' });
    await startWorkers(t.app.ctx.queue, t.app.ctx, { queues: [JOB_QUEUE.invoiceCharge], pollingIntervalSeconds: 0.5 });
    const { editor } = await signInStaff(t, { editor: { role: 'Admin', email: `admin-${s.customer.id}@example.com` } });
    const token = await t.request({
      method: 'POST',
      url: '/gateway-local/v1/tokens',
      payload: { number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' },
    });
    const res = await t.request({
      method: 'POST',
      url: `/api/customers/${s.customer.id}/${editor}/paymentinstruments`,
      payload: { kind: 'card', card_token: token.json().token, name_on_account: 'Pat Merchant', store_id: s.store.id },
    });
    expect(res.statusCode, res.body).toBe(201);
    for (let i = 0; i < 100 && (await dunningOf(s.invoice.id))?.state !== 'recovered'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await dunningOf(s.invoice.id)).toMatchObject({ state: 'recovered' });
    expect((await txOf(s.invoice.id)).map((x) => x.status)).toEqual(['F', 'S']);
    const [inv] = await t.database.db.select().from(invoices).where(eq(invoices.id, s.invoice.id));
    expect(inv).toMatchObject({ status: 'P' });
    const [store] = await t.database.db.select().from(stores).where(eq(stores.id, s.store.id));
    expect(store!.pastDueSince).toBeNull();
  });
});

describe("the order flow's card holds", () => {
  it('a Complete order captures its latest hold (a card receipt) and releases the older; a rejected order releases', async () => {
    setDay('2026-12-22');
    const s = await scenario();
    const hold = (order: number, key: string, cents: number) =>
      gateway().authorize({
        customerId: s.customer.id,
        amountCents: cents,
        currency: 'USD',
        paymentReference: 'pm_local_hold_4242',
        idempotencyKey: key,
        description: `Order ${order}`,
      });
    const record = async (orderId: number, authorizationId: string, cents: number) => {
      t.clock.advance(1000);
      await t.database.query(
        `insert into audit_log (at, actor_type, action, entity, entity_id, after, customer_id)
         values ($1, 'staff', 'payment_authorization', 'order', $2, $3, $4)`,
        [
          t.clock.now(),
          String(orderId),
          JSON.stringify({
            authorization_id: authorizationId,
            status: 'authorized',
            amount_cents: cents,
            currency: 'USD',
          }),
          s.customer.id,
        ],
      );
    };
    const done = await createOrder(t.database.db, { customerId: s.customer.id, storeId: s.store.id });
    const old = await hold(done.id, `h1-${done.id}`, 500_00);
    const latest = await hold(done.id, `h2-${done.id}`, 450_00);
    await record(done.id, old.reference, 500_00);
    await record(done.id, latest.reference, 450_00);
    const dropped = await createOrder(t.database.db, { customerId: s.customer.id, storeId: s.store.id });
    const gone = await hold(dropped.id, `h3-${dropped.id}`, 99_00);
    await record(dropped.id, gone.reference, 99_00);

    const pendingHolds = async () =>
      (
        await t.database.db
          .select()
          .from(authorizationSettlements)
          .where(eq(authorizationSettlements.status, 'pending'))
      ).length;
    const ctx = { app: t.app.ctx, session: null, actor: SYSTEM, requestId: randomUUID(), ip: null, userAgent: null };
    await t.database.db.transaction(async (tx) => {
      const now = t.clock.now();
      await queueHoldSettlements(ctx, tx, { order: done, to: ORDER_STATUS.COMPLETE, now });
      await queueHoldSettlements(ctx, tx, { order: done, to: ORDER_STATUS.COMPLETE, now });
      await queueHoldSettlements(ctx, tx, { order: dropped, to: ORDER_STATUS.REJECTED, now });
    });
    expect(await pendingHolds()).toBe(3);
    expect((await sweepPayments(t.app.ctx)).holds_settled).toBe(3);
    expect(await pendingHolds()).toBe(0);
    const rows = await t.database.db.select().from(authorizationSettlements).orderBy(asc(authorizationSettlements.id));
    expect(rows.map((r) => [r.authorizationReference, r.action, r.status])).toEqual([
      [latest.reference, 'capture', 'done'],
      [old.reference, 'release', 'done'],
      [gone.reference, 'release', 'done'],
    ]);
    const [receipt] = await t.database.db.select().from(receipts).where(eq(receipts.id, rows[0]!.receiptId!));
    expect(receipt).toMatchObject({
      amountCents: 450_00,
      unappliedCents: 450_00,
      method: 'card',
      customerId: s.customer.id,
    });
    // A released hold can no longer be captured at the gateway.
    expect(
      await gateway().capture({ authorizationReference: gone.reference, amountCents: 99_00, idempotencyKey: 'late' }),
    ).toMatchObject({ status: 'failed' });
  });
});
