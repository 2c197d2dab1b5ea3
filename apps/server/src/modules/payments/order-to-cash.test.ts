import { BILLING_ITEM_IDS, JOB_QUEUE, ORDER_STATUS, type OrderDocument } from '@pos/domain';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBillingItem,
  createCustomer,
  createOrder,
  createPaymentInstrument,
  createStore,
  setTaxRate,
} from '../../db/factories';
import {
  authorizationSettlements,
  customerPaymentPlans,
  invoiceDunning,
  invoiceLines,
  invoices,
  orders,
  receipts,
  statusReasons,
  transactions,
} from '../../db/schema';
import { startWorkers } from '../../jobs/registry';
import { signInStaff } from '../../test/sign-in';
import { newMerchantOrder, terminalSerials } from '../../test/orders';
import { createTestApp, type TestApp } from '../../test/test-app';
import { booksPostedOn } from '../reconciliation';
import { gatewaySettlementReport } from './gateway-access.service';
import { sweepPayments } from './sweep.service';

/*
 * Order to cash (issue 29 items 2–3, decision 148), through HTTP: the move to Complete bills a POS sale paid upfront
 * as its S invoice, and the order's card hold pays it (a charge on the invoice, no receipt); a hold that cannot be
 * captured leaves the invoice in dunning; without a hold the payment sweep charges it; installments get no S invoice;
 * Complete bills once; a canceled order's hold is released.
 */

let t: TestApp;
let ops: string;
let admin: string;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Texas at 6.25 % (set below): the sale's tax is its own line. */
const TX = { address1: '9 Oak Ave', address2: '', city: 'Austin', state: 'TX', zip: '73301', country: 'US' as const };
/** 2 × $899.00 terminals + $35.00 shipping + a $120.00 bundle − $50.00 discount = $1,903.00; tax 6.25 % = $118.94. */
const SUBTOTAL = 1_903_00;
const TAX = 118_94;
const TOTAL = SUBTOTAL + TAX;

let taxIds = 0;
function saleDoc(over: Partial<OrderDocument> = {}): OrderDocument {
  const o = newMerchantOrder({
    firstName: 'Rosa',
    lastName: 'Park',
    email: 'rosa@shop.example',
    federalTaxId: `75-20000${String(++taxIds).padStart(2, '0')}`,
    doingBusinessAs: 'Park Grocery',
    address: TX,
    terminals: 2,
    processorReference: 'pm_local_o2c4242',
  });
  o.BillingItemInfo = [
    { billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 2, unitPrice: '899.00' },
    { billingItemId: BILLING_ITEM_IDS.SHIPPING, name: 'Shipping', quantity: 1, unitPrice: '35.00' },
  ];
  o.BundleInfo = [{ bundleId: 5, name: 'NRS Pay Plus', quantity: 1, unitPrice: '120.00', monthlyPrice: '29.00' }];
  o.additionalDiscount = '50.00';
  return { ...o, ...over };
}

const VISA = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123' };

async function cardToken(): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/gateway-local/v1/tokens', payload: VISA });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().token as string;
}

/** The rep's hold on the payment step (item 1): the upfront total with its tax. */
async function authorize(orderId: number, amountCents = TOTAL): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/api/paymentauthorizations/${admin}`,
    payload: { order_id: orderId, amount_cents: amountCents, currency: 'USD', card_token: await cardToken() },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().info.status).toBe('authorized');
  return res.json().info.authorization_id as string;
}

async function move(orderId: number, status: string, extra: Json = {}): Promise<{ status: number; body: Json }> {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const res = await t.request({
    method: 'PUT',
    url: `/api/customers/ordernotes/${ops}`,
    payload: {
      order_id: orderId,
      status,
      version: row!.version,
      // Complete from Installation: Operations enters the terminals' serial numbers (decision 150).
      ...(status === ORDER_STATUS.COMPLETE && row!.status === ORDER_STATUS.INSTALLATION
        ? { terminal_serials: terminalSerials((row!.document as OrderDocument).noOfTerminals ?? 0) }
        : {}),
      ...extra,
    },
  });
  return { status: res.statusCode, body: res.json() as Json };
}

const complete = (orderId: number) => move(orderId, ORDER_STATUS.COMPLETE, { note: 'Installed.' });

const saleInvoicesOf = (orderId: number) =>
  t.database.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.type, 'S')));

const transactionsOf = (invoiceId: number) =>
  t.database.db.select().from(transactions).where(eq(transactions.invoiceId, invoiceId)).orderBy(asc(transactions.id));

const settlementsOf = (orderId: number) =>
  t.database.db
    .select()
    .from(authorizationSettlements)
    .where(eq(authorizationSettlements.orderId, orderId))
    .orderBy(asc(authorizationSettlements.id));

async function ledgerCheck(): Promise<Json> {
  const res = await t.request({ method: 'GET', url: `/api/billing/ledger-check/${admin}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info as Json;
}

/** The journal lines posted for an invoice, by entry kind: [kind, account, debit − credit]. */
async function journalOf(invoiceId: number): Promise<[string, string, number][]> {
  const rows = await t.database.query<{ kind: string; account: string; cents: string }>(
    `select e.kind, l.account, sum(l.debit_cents - l.credit_cents) as cents
     from journal_entries e join journal_lines l on l.entry_id = e.id
     where e.id in (select entry_id from journal_lines where invoice_id = $1) or e.invoice_id = $1
     group by e.kind, l.account order by e.kind, l.account`,
    [invoiceId],
  );
  return rows.map((r) => [r.kind, r.account, Number(r.cents)]);
}

beforeAll(async () => {
  t = await createTestApp({ config: { payments: { retryDays: [3, 7, 14], reconcileAfterSeconds: 300 } } });
  const db = t.database.db;
  await createBillingItem(db, { id: BILLING_ITEM_IDS.SHIPPING, name: 'Shipping' });
  await setTaxRate(db, { country: 'US', state: 'TX', rateBasisPoints: 625 });
  ({ ops, admin } = await signInStaff(t, { ops: 'Operations', admin: 'Admin' }));
});
afterAll(() => t.close());

describe('a completed hardware sale becomes its S invoice, paid by the hold (decision 148)', () => {
  it('card order with a hold → Complete → the S invoice, paid by the capture: one charge S, no receipt, journal and ledger clean', async () => {
    const order = await createOrder(t.database.db, { status: ORDER_STATUS.INSTALLATION, document: saleDoc() });
    const hold = await authorize(order.id);

    const res = await complete(order.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [after] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    const customerId = after!.customerId!;

    const [inv, ...more] = await saleInvoicesOf(order.id);
    expect(more).toHaveLength(0);
    expect(inv).toMatchObject({
      type: 'S',
      status: 'P',
      customerId,
      storeId: after!.storeId,
      totalCents: TOTAL,
      taxCents: TAX,
      paidCents: TOTAL,
      openCents: 0,
      currency: 'USD',
      issuedOn: '2026-11-22',
      dueOn: '2026-11-22',
    });
    expect(inv!.invoiceNumber).toMatch(/^INV-2026-\d{7}$/);
    const [hardwarePlan] = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(and(eq(customerPaymentPlans.orderId, order.id), eq(customerPaymentPlans.kind, 'hardware_sale')));
    expect(inv!.planId).toBe(hardwarePlan!.id);
    expect(hardwarePlan!.initialAmountCents).toBe(TOTAL);

    // One line per product / charge / bundle / discount, the tax as its own single line; they add up to the total.
    const lines = await t.database.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, inv!.id))
      .orderBy(asc(invoiceLines.id));
    expect(lines.map((l) => [l.billingItemId, l.description, l.quantity, l.unitCents, l.amountCents])).toEqual([
      [BILLING_ITEM_IDS.OTHER_CHARGES, 'POS terminal', 2, 899_00, 1_798_00],
      [BILLING_ITEM_IDS.SHIPPING, 'Shipping', 1, 35_00, 35_00],
      [BILLING_ITEM_IDS.OTHER_CHARGES, 'NRS Pay Plus', 1, 120_00, 120_00],
      [BILLING_ITEM_IDS.DISCOUNT, 'Additional discount', 1, -50_00, -50_00],
      [BILLING_ITEM_IDS.TAX, 'State sales tax', 1, TAX, TAX],
    ]);
    expect(lines.reduce((s, l) => s + l.amountCents, 0)).toBe(TOTAL);

    // The capture is the invoice's card charge: S, for the total, under the capture's gateway reference.
    const txs = await transactionsOf(inv!.id);
    expect(txs).toHaveLength(1);
    expect(txs[0]).toMatchObject({
      kind: 'charge',
      status: 'S',
      amountCents: TOTAL,
      customerId,
      idempotencyKey: `capture:${hold}`,
    });
    expect(txs[0]!.gatewayReference).toMatch(/^cap/);
    expect(await t.database.db.select().from(receipts).where(eq(receipts.customerId, customerId))).toHaveLength(0);
    expect(
      (await settlementsOf(order.id)).map((s) => [s.authorizationReference, s.action, s.status, s.invoiceId]),
    ).toEqual([[hold, 'capture', 'done', inv!.id]]);
    expect(await t.database.db.select().from(invoiceDunning).where(eq(invoiceDunning.invoiceId, inv!.id))).toHaveLength(
      0,
    );

    // The journal: the sale (1100 / 4000 / 2200) and the capture (1010 / 1100); the ledger check is clean.
    const journal = await journalOf(inv!.id);
    expect(journal).toEqual(
      expect.arrayContaining([
        [expect.any(String), '1100', TOTAL],
        [expect.any(String), '4000', -SUBTOTAL],
        [expect.any(String), '2200', -TAX],
        ['charge_captured', '1010', TOTAL],
        ['charge_captured', '1100', -TOTAL],
      ]),
    );
    // The invoice screen shows the same entries: the sale with its tax payable, and the capture.
    const page = await t.request({ method: 'GET', url: `/api/invoices/${inv!.id}/${admin}` });
    expect(page.statusCode, page.body).toBe(200);
    const shown = page.json().info.journal as Json[];
    expect(shown.map((e) => e.kind_label)).toEqual(expect.arrayContaining(['Invoice issued', 'Charge captured']));
    expect(shown.find((e) => e.kind === 'invoice_issued')!.lines).toEqual(
      expect.arrayContaining([
        { account: '2200', account_name: 'Sales tax payable', debit_cents: 0, credit_cents: TAX },
        { account: '4000', account_name: 'Revenue: hardware', debit_cents: 0, credit_cents: SUBTOTAL },
      ]),
    );
    const check = await ledgerCheck();
    expect(check).toMatchObject({
      mismatch_count: 0,
      limit_breach_count: 0,
      journal_mismatch_count: 0,
      unbalanced_entry_count: 0,
      ok: true,
    });

    // The daily reconciliation's two sides agree: the gateway settled the capture as a charge, our books hold it.
    const day = t.clock.now().toISOString().slice(0, 10);
    const gatewayLines = (await gatewaySettlementReport(t.app.ctx, { day, currency: 'USD' })).filter(
      (e) => e.gatewayTransactionId === txs[0]!.gatewayReference,
    );
    expect(gatewayLines.map((e) => [e.kind, e.amountCents])).toEqual([['charge', TOTAL]]);
    const ourLines = (await booksPostedOn(t.database, { day, currency: 'USD' })).filter(
      (b) => b.gatewayReference === txs[0]!.gatewayReference,
    );
    expect(ourLines.map((b) => [b.kind, b.amountCents, b.invoiceId])).toEqual([['charge', TOTAL, inv!.id]]);

    // The customer's invoices show it paid.
    const list = await t.request({ method: 'GET', url: `/api/customers/${customerId}/${admin}` });
    expect(list.statusCode, list.body).toBe(200);

    // Completing twice never bills twice: Complete is final (409), the Admin re-run of onboarding answers what was
    // made, and the payments sweep captures nothing again.
    expect((await complete(order.id)).status).toBe(409);
    const rerun = await t.request({ method: 'POST', url: `/api/customers/orderinfo/${order.id}/onboard/${admin}` });
    expect(rerun.statusCode, rerun.body).toBe(200);
    expect(rerun.json().info.created).toBe(false);
    await sweepPayments(t.app.ctx);
    expect(await saleInvoicesOf(order.id)).toHaveLength(1);
    expect(await transactionsOf(inv!.id)).toHaveLength(1);
  });

  it('a hold that can no longer be captured (expired / voided) leaves the S invoice open and in dunning, in failed payments', async () => {
    const order = await createOrder(t.database.db, { status: ORDER_STATUS.INSTALLATION, document: saleDoc() });
    const hold = await authorize(order.id);
    // The hold lapsed at the gateway before Complete.
    await t.app.ctx.gateway.voidCharge({ reference: hold, idempotencyKey: `lapse:${hold}` });

    const res = await complete(order.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [inv] = await saleInvoicesOf(order.id);
    expect(inv).toMatchObject({ status: 'N', totalCents: TOTAL, paidCents: 0, openCents: TOTAL });
    const txs = await transactionsOf(inv!.id);
    expect(txs.map((x) => [x.kind, x.status, x.amountCents])).toEqual([['charge', 'F', TOTAL]]);
    expect(txs[0]!.failureReason).toBeTruthy();
    expect((await settlementsOf(order.id)).map((s) => [s.action, s.status])).toEqual([['capture', 'failed']]);
    const [dunning] = await t.database.db.select().from(invoiceDunning).where(eq(invoiceDunning.invoiceId, inv!.id));
    expect(dunning).toMatchObject({
      state: 'retrying',
      failedAttempts: 1,
      lastTransactionId: txs[0]!.id,
      nextRetryOn: '2026-11-25',
    });
    const failed = await t.request({ method: 'GET', url: `/api/payments/failed/${admin}?state=retrying` });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(JSON.stringify(failed.json())).toContain(inv!.invoiceNumber);
    // Auto-pay leaves it to dunning (no second charge now); the ledger stays clean.
    expect((await sweepPayments(t.app.ctx)).autopay_enqueued).toBe(0);
    expect(await transactionsOf(inv!.id)).toHaveLength(1);
    expect(await ledgerCheck()).toMatchObject({ journal_mismatch_count: 0, mismatch_count: 0, ok: true });
  });

  it('a bank-paid order takes no hold: its S invoice is due now and the payment sweep charges it', async () => {
    const customer = await createCustomer(t.database.db, { country: 'US', currency: 'USD' });
    const bank = await createPaymentInstrument(t.database.db, {
      customerId: customer.id,
      kind: 'bank',
      accountLast4: '6789',
    });
    const order = await createOrder(t.database.db, {
      status: ORDER_STATUS.INSTALLATION,
      customerId: customer.id,
      document: saleDoc({ PaymentInstrumentInfo: [] }),
    });
    expect((await complete(order.id)).status).toBe(200);
    const [inv] = await saleInvoicesOf(order.id);
    expect(inv).toMatchObject({ status: 'N', customerId: customer.id, totalCents: TOTAL, dueOn: '2026-11-22' });
    expect(await transactionsOf(inv!.id)).toHaveLength(0);
    expect(await settlementsOf(order.id)).toHaveLength(0);

    await startWorkers(t.app.ctx.queue, t.app.ctx, { queues: [JOB_QUEUE.invoiceCharge], pollingIntervalSeconds: 0.5 });
    expect((await sweepPayments(t.app.ctx)).autopay_enqueued).toBeGreaterThanOrEqual(1);
    let txs = await transactionsOf(inv!.id);
    for (let i = 0; i < 100 && txs.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      txs = await transactionsOf(inv!.id);
    }
    expect(txs.map((x) => [x.kind, x.amountCents, x.paymentInstrumentId])).toEqual([['charge', TOTAL, bank.id]]);
    expect(['P', 'S']).toContain(txs[0]!.status);
  });

  it('an installment sale gets no S invoice: the billing run bills its I invoices from the plan', async () => {
    const doc = saleDoc();
    doc.PaymentPlanInfo = doc.PaymentPlanInfo!.map((p, i) => (i === 0 ? { ...p, paymentPlanId: 2, term: 12 } : p));
    const order = await createOrder(t.database.db, { status: ORDER_STATUS.INSTALLATION, document: doc });
    expect((await complete(order.id)).status).toBe(200);
    expect(await saleInvoicesOf(order.id)).toHaveLength(0);
    const [plan] = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(and(eq(customerPaymentPlans.orderId, order.id), eq(customerPaymentPlans.kind, 'hardware_sale')));
    expect(plan).toMatchObject({ interval: 1, term: 12, initialAmountCents: 0, financedCents: SUBTOTAL });
  });

  it('hardware for a demo (D) store is never billed: no S invoice, the hold released (decision 149)', async () => {
    const db = t.database.db;
    const store = await createStore(db, { storeType: 'D', state: 'TX' });
    const doc = saleDoc();
    doc.StoreInfo = { ...doc.StoreInfo, customerStoreId: store.id };
    const order = await createOrder(db, {
      status: ORDER_STATUS.INSTALLATION,
      document: doc,
      customerId: store.customerId,
      storeId: store.id,
    });
    const hold = await authorize(order.id);
    expect((await complete(order.id)).status).toBe(200);
    expect(await saleInvoicesOf(order.id)).toHaveLength(0);
    expect((await settlementsOf(order.id)).map((s) => [s.authorizationReference, s.action, s.status])).toEqual([
      [hold, 'release', 'done'],
    ]);
  });

  it('a POS Canceled order releases its hold (voided at the gateway right after the move); nothing is billed', async () => {
    const order = await createOrder(t.database.db, { status: ORDER_STATUS.INSTALLATION, document: saleDoc() });
    const hold = await authorize(order.id);
    const [reason] = await t.database.db
      .insert(statusReasons)
      .values({ status: ORDER_STATUS.POS_CANCELED, reason: 'Merchant withdrew (o2c test)' })
      .returning();
    const res = await move(order.id, ORDER_STATUS.POS_CANCELED, {
      status_reason_id: reason!.id,
      note: 'The merchant withdrew.',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await settlementsOf(order.id)).map((s) => [s.authorizationReference, s.action, s.status])).toEqual([
      [hold, 'release', 'done'],
    ]);
    expect(await saleInvoicesOf(order.id)).toHaveLength(0);
    // A released hold can no longer be captured.
    const late = await t.app.ctx.gateway.capture({
      authorizationReference: hold,
      amountCents: 100,
      idempotencyKey: `late:${hold}`,
    });
    expect(late.status).toBe('failed');
  });
});
