import {
  BILLING_ITEM_IDS,
  FEES,
  ORDER_STATUS,
  marketFeeCents,
  parseMarketFees,
  type BillingRunInfo,
  type MarketFee,
  type OrderDocument,
  type OrderStatusCode,
} from '@pos/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBillingItem,
  createCustomerBillingItem,
  createInvoice,
  createOrder,
  createPaymentPlan,
  createStore,
  createTerminal,
  ensureBillingItems,
  setTaxRate,
} from '../../db/factories';
import {
  auditLog,
  creditMemos,
  customerBillingItems,
  customerPaymentPlans,
  invoiceLines,
  invoices,
  orders,
  statusReasons,
} from '../../db/schema';
import { newMerchantOrder, terminalSerials } from '../../test/orders';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { ConfigError, loadConfig } from '../../config';
import { executeBillingRun } from './billing.service';

/*
 * The fees of §9 through HTTP (issue 31 item 7, decision 158): the restocking fee on a return's credit invoice, the
 * cancellation fee of an order canceled after its hardware shipped, shipping and marketplace fees on the sale invoice
 * at Complete (and on the service invoice when recurring), the market fee of a configured market on the service
 * invoice — each line named by the catalogue; test and demo stores never billed.
 */

let t: TestApp;
let tok: Record<'service' | 'ar' | 'ops' | 'admin', string>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** MARKET_FEES as configured for this app: New York and Quebec stores pay a market fee. */
const MARKETS = parseMarketFees('US-NY=15.00,CA-QC=12.50') as MarketFee[];
const CANCELLATION_USD = 250_00;
const CANCELLATION_CAD = 337_99;

beforeAll(async () => {
  t = await createTestApp({ config: { fees: { markets: MARKETS } } });
  const db = t.database.db;
  await ensureBillingItems(db, [
    BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE,
    BILLING_ITEM_IDS.YEARLY_SERVICE_FEE,
    BILLING_ITEM_IDS.OTHER_CHARGES,
    BILLING_ITEM_IDS.MARKET_FEE,
    113,
    114,
    115,
    3,
  ]);
  await createBillingItem(db, { id: BILLING_ITEM_IDS.SHIPPING, name: 'Shipping', prices: { USD: 49_00 } });
  await createBillingItem(db, { id: BILLING_ITEM_IDS.RESTOCKING_FEE, name: 'Restocking fee' });
  await createBillingItem(db, {
    id: BILLING_ITEM_IDS.CANCELLATION_FEE,
    name: 'Cancellation fee',
    prices: { USD: CANCELLATION_USD, CAD: CANCELLATION_CAD },
  });
  await setTaxRate(db, { country: 'US', state: 'NY', rateBasisPoints: 400 });
  tok = await signInStaff(t, { service: 'Customer Service', ar: 'AR Team', ops: 'Operations', admin: 'Admin' });
}, 60_000);
afterAll(() => t?.close());

const post = (token: string, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: url.replace('{tok}', token), payload: payload as object, headers });
const get = (url: string, token = tok.admin) => t.request({ method: 'GET', url: url.replace('{tok}', token) });

/** The invoice page's lines (GET /api/invoices/{id}): [billing item, description, quantity, amount]. */
async function shownLines(invoiceId: number): Promise<[number, string, number, number][]> {
  const res = await get(`/api/invoices/${invoiceId}/{tok}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().info.lines as Json[]).map((l) => [l.billing_item_id, l.description, l.quantity, l.amount_cents]);
}

async function ledgerClean(): Promise<void> {
  const res = await get('/api/billing/ledger-check/{tok}');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().info).toMatchObject({ mismatch_count: 0, journal_mismatch_count: 0, unbalanced_entry_count: 0 });
}

async function move(orderId: number, status: string, extra: Json = {}) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const res = await t.request({
    method: 'PUT',
    url: `/api/customers/ordernotes/${tok.ops}`,
    payload: { order_id: orderId, status, version: row!.version, ...extra },
  });
  return { status: res.statusCode, body: res.json() as Json };
}

let cancelReason: number | undefined;
async function cancel(orderId: number) {
  cancelReason ??= (
    await t.database.db
      .insert(statusReasons)
      .values({ status: ORDER_STATUS.POS_CANCELED, reason: 'Merchant withdrew (fees test)' })
      .returning()
  )[0]!.id;
  const res = await move(orderId, ORDER_STATUS.POS_CANCELED, { status_reason_id: cancelReason, note: 'Withdrew.' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const feeInvoicesOf = (orderId: number) =>
  t.database.db.select().from(invoices).where(eq(invoices.canceledOrderId, orderId));

const auditOf = (orderId: number, action: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(orderId)), eq(auditLog.action, action)));

// ── Restocking fee (28) ──────────────────────────────────────────────────────────────────────────────────────

describe('restocking fee: its own line on the return’s credit invoice', () => {
  /** A hardware sale of two 1,499.00 terminals (unpaid: the credit is the whole story, nothing goes back). */
  async function sale() {
    const db = t.database.db;
    const store = await createStore(db, {});
    const plan = await createPaymentPlan(db, {
      kind: 'hardware_sale',
      customerId: store.customerId,
      storeId: store.id,
    });
    const inv = await createInvoice(db, {
      customerId: store.customerId,
      storeId: store.id,
      planId: plan.id,
      type: 'S',
      issuedOn: '2026-11-10',
      dueOn: '2026-11-10',
      currency: store.currency,
      lines: [{ billingItemId: 3, description: 'NRS POS Terminal', quantity: 2, unitCents: 1499_00 }],
    });
    const terminals = [
      await createTerminal(db, { storeId: store.id, productId: null }),
      await createTerminal(db, { storeId: store.id, productId: null }),
    ];
    return { store, inv, terminals };
  }

  async function returned(s: Awaited<ReturnType<typeof sale>>, over: Json = {}) {
    const created = await post(tok.service, '/api/returns/{tok}', {
      store_id: s.store.id,
      terminal_ids: s.terminals.map((x) => x.id),
      reason: 'Store closed',
      ...over,
    });
    expect(created.statusCode, created.body).toBe(201);
    let r = created.json().info as Json;
    for (const action of ['receive', 'inspect']) {
      const res = await post(tok.service, `/api/returns/${r.id}/status/{tok}`, { action, version: r.version });
      expect(res.statusCode, res.body).toBe(200);
      r = res.json().info as Json;
    }
    const refunded = await post(
      tok.ar,
      `/api/returns/${r.id}/refund/{tok}`,
      { method: 'check', version: r.version },
      { 'idempotency-key': `fees-return-${r.id}` },
    );
    expect(refunded.statusCode, refunded.body).toBe(200);
    const list = await get(`/api/customers/${s.store.customerId}/{tok}/creditinvoices?storeid=${s.store.id}`);
    expect(list.statusCode, list.body).toBe(200);
    return { ret: refunded.json().info as Json, credits: list.json().info.items as Json[] };
  }

  it('the terminals credited and "Restocking fee" kept, as lines adding up to the credit; the ledger unchanged', async () => {
    const s = await sale();
    const { ret, credits } = await returned(s);
    expect(ret).toMatchObject({ status: 'refunded', restocking_fee_cents: FEES.RESTOCKING_FEE_CENTS });
    expect(credits).toHaveLength(1);
    const credit = credits[0]!;
    expect(credit).toMatchObject({
      type: 'R',
      type_label: 'Credit (return)',
      return_id: ret.id,
      reverses_invoice_id: null,
      credit_memo_id: expect.any(Number),
      total_cents: -(2 * 1499_00 - FEES.RESTOCKING_FEE_CENTS),
      tax_cents: 0,
      currency: 'USD',
    });
    expect(credit.invoice_number).toMatch(/^INV-2026-\d{7}$/);
    expect((credit.lines as Json[]).map((l) => [l.billing_item_id, l.description, l.quantity, l.amount_cents])).toEqual(
      [
        [3, 'NRS POS Terminal', 2, -2998_00],
        [BILLING_ITEM_IDS.RESTOCKING_FEE, 'Restocking fee', 1, FEES.RESTOCKING_FEE_CENTS],
      ],
    );
    // The money moved once, by the return's credit memo (the one the credit invoice names): the invoice owes the fee.
    const [memo] = await t.database.db.select().from(creditMemos).where(eq(creditMemos.id, credit.credit_memo_id));
    expect(memo).toMatchObject({ type: 'C', status: 'A', returnId: ret.id, amountCents: -credit.total_cents });
    const [inv] = await t.database.db.select().from(invoices).where(eq(invoices.id, s.inv.id));
    expect(inv!.openCents).toBe(FEES.RESTOCKING_FEE_CENTS);
    await ledgerClean();
  });

  it('a waived fee: no fee line, the whole value credited', async () => {
    const s = await sale();
    const { credits } = await returned(s, { waive_fee: true, fee_waived_reason: 'Dead on arrival' });
    expect(credits[0]).toMatchObject({ total_cents: -2998_00 });
    expect((credits[0]!.lines as Json[]).map((l) => l.billing_item_id)).toEqual([3]);
    expect(credits[0]!.reason).toMatch(/restocking fee waived \(Dead on arrival\)/);
  });
});

// ── Cancellation fee (91) ────────────────────────────────────────────────────────────────────────────────────

describe('cancellation fee: an existing customer’s order canceled after its hardware shipped', () => {
  async function existingCustomerOrder(
    store: { id: number; customerId: number },
    status: OrderStatusCode = ORDER_STATUS.INSTALLATION,
  ) {
    return createOrder(t.database.db, { status, customerId: store.customerId, storeId: store.id, orderType: 'P' });
  }

  it('POS Canceled from Installation: one fee invoice at the catalogue price, named "Cancellation fee", once', async () => {
    const store = await createStore(t.database.db, {});
    const order = await existingCustomerOrder(store);
    await cancel(order.id);
    const [fee, ...more] = await feeInvoicesOf(order.id);
    expect(more).toHaveLength(0);
    expect(fee).toMatchObject({
      type: 'S',
      status: 'N',
      customerId: store.customerId,
      storeId: store.id,
      totalCents: CANCELLATION_USD,
      taxCents: 0,
      currency: 'USD',
      orderId: null,
    });
    expect(await shownLines(fee!.id)).toEqual([
      [BILLING_ITEM_IDS.CANCELLATION_FEE, 'Cancellation fee', 1, CANCELLATION_USD],
    ]);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'invoice'), eq(auditLog.entityId, String(fee!.id))));
    expect(audit!.after).toMatchObject({
      reason: 'cancellation_fee',
      order_id: order.id,
      total_cents: CANCELLATION_USD,
    });

    // Reopened and canceled again: still one fee. Completed later: its sale invoice is its own (order_id), untouched.
    expect((await move(order.id, ORDER_STATUS.INSTALLATION)).status).toBe(200);
    await cancel(order.id);
    expect(await feeInvoicesOf(order.id)).toHaveLength(1);
    await ledgerClean();
  });

  it('a Canadian store is billed in CAD at the catalogue’s CAD price; canceled from POS Postponed too', async () => {
    const store = await createStore(t.database.db, { country: 'CA' });
    const order = await existingCustomerOrder(store, ORDER_STATUS.POS_POSTPONED);
    await cancel(order.id);
    const [fee] = await feeInvoicesOf(order.id);
    expect(fee).toMatchObject({ totalCents: CANCELLATION_CAD, currency: 'CAD' });
  });

  it('nothing billed for a new merchant (no customer record), a demo store or a fee without a price — and the reason audited', async () => {
    const db = t.database.db;
    const fresh = await createOrder(db, { status: ORDER_STATUS.INSTALLATION, orderType: 'P' });
    expect(fresh.customerId).toBeNull();
    await cancel(fresh.id);
    expect(await feeInvoicesOf(fresh.id)).toHaveLength(0);
    expect((await auditOf(fresh.id, 'order.cancellation_fee_not_billed'))[0]!.after).toMatchObject({
      reason: 'no_customer',
    });

    const demo = await createStore(db, { storeType: 'D' });
    const demoOrder = await existingCustomerOrder(demo);
    await cancel(demoOrder.id);
    expect(await feeInvoicesOf(demoOrder.id)).toHaveLength(0);
    expect((await auditOf(demoOrder.id, 'order.cancellation_fee_not_billed'))[0]!.after).toMatchObject({
      reason: 'not_billable',
    });

    // The catalogue's price of item 91 set to nothing: the fee is off.
    await db.execute(
      sql`update billing_item_prices set price_cents = 0 where billing_item_id = ${BILLING_ITEM_IDS.CANCELLATION_FEE} and currency = 'USD'`,
    );
    try {
      const store = await createStore(db, {});
      const order = await existingCustomerOrder(store);
      await cancel(order.id);
      expect(await feeInvoicesOf(order.id)).toHaveLength(0);
      expect((await auditOf(order.id, 'order.cancellation_fee_not_billed'))[0]!.after).toMatchObject({
        reason: 'no_price',
      });
    } finally {
      await db.execute(
        sql`update billing_item_prices set price_cents = ${CANCELLATION_USD} where billing_item_id = ${BILLING_ITEM_IDS.CANCELLATION_FEE} and currency = 'USD'`,
      );
    }
  });

  it('a rejection before shipping bills nothing (decision 148)', async () => {
    const store = await createStore(t.database.db, {});
    const order = await existingCustomerOrder(store, ORDER_STATUS.PENDING_AR_APPROVAL);
    const [reason] = await t.database.db
      .insert(statusReasons)
      .values({ status: ORDER_STATUS.REJECTED, reason: 'Credit declined (fees test)' })
      .returning();
    const res = await t.request({
      method: 'PUT',
      url: `/api/customers/ordernotes/${tok.admin}`,
      payload: {
        order_id: order.id,
        status: ORDER_STATUS.REJECTED,
        version: order.version,
        status_reason_id: reason!.id,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await feeInvoicesOf(order.id)).toHaveLength(0);
  });
});

// ── Shipping (20) and marketplace fees (113–115) at Complete ─────────────────────────────────────────────────

describe('shipping and marketplace fees on the sale invoice at Complete, named by the catalogue', () => {
  let taxIds = 0;
  function doc(): OrderDocument {
    const o = newMerchantOrder({
      firstName: 'Mara',
      lastName: 'Quinn',
      email: 'mara@shop.example',
      federalTaxId: `75-30000${String(++taxIds).padStart(2, '0')}`,
      doingBusinessAs: 'Quinn Market',
      address: { address1: '5 Hudson St', address2: '', city: 'Albany', state: 'NY', zip: '12207', country: 'US' },
      terminals: 1,
      processorReference: 'pm_local_fees4242',
    });
    o.BillingItemInfo = [
      { billingItemId: 3, productId: 1, name: 'NRS POS Terminal', quantity: 1, unitPrice: '899.00' },
      // The rep's own wording; the invoice reads the catalogue's.
      { billingItemId: BILLING_ITEM_IDS.SHIPPING, name: 'Ground delivery', quantity: 1, unitPrice: '35.00' },
      // A one-time listing sold without a price: §9's marketplace fee (141.00).
      { billingItemId: 113, name: 'Marketplace', quantity: 1, unitPrice: '0.00' },
      // A recurring premium listing: the service plan's, billed monthly.
      { billingItemId: 114, name: 'Premium listing', quantity: 1, unitPrice: '199.00', recurring: true },
      // A recurring listing sold without a price: 141.00 a month, on its own line (not inside the service fee).
      { billingItemId: 115, name: 'Enterprise listing', quantity: 1, unitPrice: '0.00', recurring: true },
    ];
    return o;
  }

  async function complete(orderId: number) {
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    const res = await move(orderId, ORDER_STATUS.COMPLETE, {
      note: 'Installed.',
      terminal_serials: terminalSerials((row!.document as OrderDocument).noOfTerminals ?? 0),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  it('the S invoice: shipping and the marketplace fee as their own lines under their catalogue names, taxed with the sale', async () => {
    const order = await createOrder(t.database.db, { status: ORDER_STATUS.INSTALLATION, document: doc() });
    await complete(order.id);
    const [sale] = await t.database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, order.id), eq(invoices.type, 'S')));
    const subtotal = 899_00 + 35_00 + FEES.MARKETPLACE_FEE_CENTS;
    const tax = Math.round((subtotal * 400) / 10_000);
    expect(sale).toMatchObject({ totalCents: subtotal + tax, taxCents: tax });
    const lines = await shownLines(sale!.id);
    expect(lines.slice(0, 3)).toEqual([
      [3, 'NRS POS Terminal', 1, 899_00],
      [BILLING_ITEM_IDS.SHIPPING, 'Shipping', 1, 35_00],
      [113, 'Marketplace fee', 1, FEES.MARKETPLACE_FEE_CENTS],
    ]);
    expect(lines.reduce((s, l) => s + l[3], 0)).toBe(subtotal + tax);

    // The recurring listing is the service plan's billing item, billed by the billing run under its catalogue name.
    const [after] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    const [service] = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(and(eq(customerPaymentPlans.orderId, order.id), eq(customerPaymentPlans.kind, 'monthly')));
    const items = await t.database.db
      .select()
      .from(customerBillingItems)
      .where(and(eq(customerBillingItems.planId, service!.id), eq(customerBillingItems.billingItemId, 114)));
    expect(items.map((i) => i.unitPriceCents)).toEqual([199_00]);
    await runBilling(service!.nextBillingOn!);
    const [monthly] = await t.database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.planId, service!.id), eq(invoices.type, 'M')));
    expect(monthly!.storeId).toBe(after!.storeId);
    const monthlyLines = await shownLines(monthly!.id);
    expect(monthlyLines).toEqual(
      expect.arrayContaining([
        [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, 'Monthly service fee', 1, 79_00],
        [114, 'Marketplace fee - premium listing', 1, 199_00],
        [115, 'Marketplace fee - enterprise listing', 1, FEES.MARKETPLACE_FEE_CENTS],
      ]),
    );
    // A New York store: the market fee rides on its service invoice too.
    expect(monthlyLines).toEqual(expect.arrayContaining([[BILLING_ITEM_IDS.MARKET_FEE, 'Market fee', 1, 15_00]]));
    await ledgerClean();
  });

  it('a test (T) store is never invoiced at Complete: no S invoice, no shipping or marketplace line (decision 149)', async () => {
    const db = t.database.db;
    const store = await createStore(db, { storeType: 'T', state: 'NY' });
    const d = doc();
    d.StoreInfo = { ...d.StoreInfo, customerStoreId: store.id };
    const order = await createOrder(db, {
      status: ORDER_STATUS.INSTALLATION,
      document: d,
      customerId: store.customerId,
      storeId: store.id,
    });
    await complete(order.id);
    expect(await db.select().from(invoices).where(eq(invoices.orderId, order.id))).toHaveLength(0);
    expect(await db.select().from(invoices).where(eq(invoices.storeId, store.id))).toHaveLength(0);
  });
});

// ── Market fee (19) ──────────────────────────────────────────────────────────────────────────────────────────

async function runBilling(asOf: string): Promise<BillingRunInfo> {
  const res = await post(tok.admin, '/api/billing/runs/{tok}', { as_of: asOf });
  expect(res.statusCode, res.body).toBe(202);
  const { run_id } = (res.json() as { info: { run_id: number } }).info;
  await executeBillingRun(t.app.ctx, run_id);
  const got = await get(`/api/billing/runs/${run_id}/{tok}`);
  expect(got.statusCode, got.body).toBe(200);
  return (got.json() as { info: BillingRunInfo }).info;
}

describe('market fee: the service invoice of a store in a configured market (MARKET_FEES)', () => {
  const DAY = '2026-11-22';

  it('New York monthly and yearly, Quebec in CAD, New Jersey none, never twice, never a demo store: as the domain rule says', async () => {
    const db = t.database.db;
    const cases = [
      { name: 'NY monthly', country: 'US', state: 'NY', kind: 'monthly' as const },
      { name: 'NY yearly', country: 'US', state: 'NY', kind: 'yearly' as const },
      { name: 'QC monthly', country: 'CA', state: 'QC', kind: 'monthly' as const },
      { name: 'NJ monthly', country: 'US', state: 'NJ', kind: 'monthly' as const },
      { name: 'NY sells its own', country: 'US', state: 'NY', kind: 'monthly' as const, sells: true },
      { name: 'NY demo', country: 'US', state: 'NY', kind: 'monthly' as const, storeType: 'D' },
    ];
    const made = [];
    for (const c of cases) {
      const store = await createStore(db, { country: c.country, state: c.state, storeType: c.storeType ?? 'R' });
      const plan = await createPaymentPlan(db, {
        kind: c.kind,
        customerId: store.customerId,
        storeId: store.id,
        startsOn: '2026-10-22',
        nextBillingOn: DAY,
      });
      if (c.sells)
        await createCustomerBillingItem(db, {
          customerId: store.customerId,
          storeId: store.id,
          planId: plan.id,
          billingItemId: BILLING_ITEM_IDS.MARKET_FEE,
          unitPriceCents: 9_00,
          startsOn: '2026-10-22',
        });
      made.push({ c, store, plan });
    }
    await runBilling(DAY);

    for (const { c, store, plan } of made) {
      const [inv] = await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.planId, plan.id), eq(invoices.periodStart, DAY)));
      const expected = marketFeeCents(
        {
          country: store.country,
          state: store.state,
          currency: store.currency,
          intervalMonths: plan.interval,
          storeType: store.storeType,
          planSellsMarketFee: c.sells === true,
        },
        MARKETS,
      );
      if (c.storeType === 'D') {
        expect(inv, c.name).toBeUndefined();
        continue;
      }
      const lines = await db
        .select()
        .from(invoiceLines)
        .where(and(eq(invoiceLines.invoiceId, inv!.id), eq(invoiceLines.billingItemId, BILLING_ITEM_IDS.MARKET_FEE)))
        .orderBy(asc(invoiceLines.id));
      const charged = lines.reduce((s, l) => s + l.amountCents, 0) - (c.sells ? 9_00 : 0);
      expect(charged, c.name).toBe(expected);
      expect(lines.length, c.name).toBe(c.sells ? 1 : expected > 0 ? 1 : 0);
      if (expected > 0) expect(lines[0]!.description, c.name).toBe('Market fee');
    }
    const byName = Object.fromEntries(
      made.map(({ c, store, plan }) => [
        c.name,
        marketFeeCents(
          {
            country: store.country,
            state: store.state,
            currency: store.currency,
            intervalMonths: plan.interval,
            storeType: store.storeType,
            planSellsMarketFee: c.sells === true,
          },
          MARKETS,
        ),
      ]),
    );
    expect(byName).toEqual({
      'NY monthly': 15_00,
      'NY yearly': 180_00,
      'QC monthly': 12_50,
      'NJ monthly': 0,
      'NY sells its own': 0,
      'NY demo': 0,
    });

    // Taxed like the service it rides on: New York at 4 % on fee + market fee.
    const ny = made.find((m) => m.c.name === 'NY monthly')!;
    const [nyInv] = await db.select().from(invoices).where(eq(invoices.planId, ny.plan.id));
    expect(nyInv).toMatchObject({ totalCents: 79_00 + 15_00 + Math.round(((79_00 + 15_00) * 400) / 10_000) });
    expect(await shownLines(nyInv!.id)).toEqual(
      expect.arrayContaining([[BILLING_ITEM_IDS.MARKET_FEE, 'Market fee', 1, 15_00]]),
    );
    await ledgerClean();
  });

  it('off unless configured: no MARKET_FEES, no market; a bad one stops the server at boot', () => {
    const env = { NODE_ENV: 'test', SEED_DEMO_DATA: 'false' } as const;
    expect(loadConfig(env).fees.markets).toEqual([]);
    expect(loadConfig({ ...env, MARKET_FEES: 'US-NY=15.00' }).fees.markets).toEqual([
      { country: 'US', state: 'NY', currency: 'USD', monthlyCents: 15_00 },
    ]);
    expect(() => loadConfig({ ...env, MARKET_FEES: 'NY=15' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, MARKET_FEES: 'US-ZZ=15' })).toThrow(/MARKET_FEES: ZZ is not a US state/);
  });
});
