import { ORDER_STATUS, type OrderDocument } from '@pos/domain';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingItem, createBundleIfMissing, createCustomer, createOrder, createStore } from '../../db/factories';
import { bundlePriceOptions, customerBundlePrices, customerBundles, orders, terminals } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { newMerchantOrder, terminalSerials } from '../../test/orders';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * The customer comes out whole at Complete (issue 29 item 4, decision 150), through HTTP: the bundles sold show on
 * the Bundles tab at the price they were sold for.
 */

let t: TestApp;
let ops: string;
let admin: string;
let rep: string;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const US = { address1: '9 Oak Ave', address2: '', city: 'Austin', state: 'TX', zip: '73301', country: 'US' as const };

let taxIds = 0;
function doc(over: Partial<OrderDocument> = {}): OrderDocument {
  const o = newMerchantOrder({
    firstName: 'Nell',
    lastName: 'Ward',
    email: 'nell@shop.example',
    federalTaxId: `76-30000${String(++taxIds).padStart(2, '0')}`,
    doingBusinessAs: 'Ward Market',
    address: US,
    terminals: 1,
    processorReference: 'pm_local_whole4242',
  });
  o.BillingItemInfo = [{ billingItemId: 20, name: 'Shipping', quantity: 1, unitPrice: '35.00' }];
  return { ...o, ...over };
}

async function move(orderId: number, status: string, extra: Json = {}): Promise<{ status: number; body: Json }> {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const res = await t.request({
    method: 'PUT',
    url: `/api/customers/ordernotes/${ops}`,
    payload: { order_id: orderId, status, version: row!.version, ...extra },
  });
  return { status: res.statusCode, body: res.json() as Json };
}

/** Operations completes the order, entering the terminals' serials (all of them unless `serials` says otherwise). */
async function complete(orderId: number, serials?: string[]) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const all = terminalSerials((row!.document as OrderDocument).noOfTerminals ?? 0);
  return move(orderId, ORDER_STATUS.COMPLETE, { note: 'Installed.', terminal_serials: serials ?? all });
}

async function completedOrder(document: OrderDocument) {
  const order = await createOrder(t.database.db, { status: ORDER_STATUS.INSTALLATION, document });
  const res = await complete(order.id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [after] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
  return after!;
}

/** The bundle's catalogue monthly options in USD (billing item → cents). */
async function catalogueMonthly(bundleId: number): Promise<{ billingItemId: number; priceCents: number }[]> {
  return t.database.db
    .select({ billingItemId: bundlePriceOptions.billingItemId, priceCents: bundlePriceOptions.priceCents })
    .from(bundlePriceOptions)
    .where(
      and(
        eq(bundlePriceOptions.bundleId, bundleId),
        eq(bundlePriceOptions.currency, 'USD'),
        eq(bundlePriceOptions.term, 1),
        isNull(bundlePriceOptions.referenceId),
      ),
    )
    .orderBy(asc(bundlePriceOptions.billingItemId), asc(bundlePriceOptions.id));
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await createBillingItem(db, { id: 20, name: 'Shipping' });
  await createBundleIfMissing(db, 7);
  ({ ops, admin, rep } = await signInStaff(t, {
    ops: 'Operations',
    admin: 'Admin',
    rep: { role: 'RAM', name: 'Ram Patel', email: 'ram@example.com' },
  }));
});
afterAll(() => t.close());

describe('bundles sold appear on the Bundles tab at their sold prices', () => {
  it('a bundle sold at its catalogue price, one sold at another price (two of them): the tab shows what was sold', async () => {
    const nrsPayPlus = await catalogueMonthly(7);
    expect(nrsPayPlus.length).toBeGreaterThan(0);
    const catalogueCents = nrsPayPlus.reduce((s, o) => s + o.priceCents, 0);
    await createBundleIfMissing(t.database.db, 102);
    const loyalty = await catalogueMonthly(102);
    const order = await completedOrder(
      doc({
        BundleInfo: [
          {
            bundleId: 7,
            name: 'NRS Pay Plus',
            quantity: 1,
            unitPrice: '120.00',
            monthlyPrice: (catalogueCents / 100).toFixed(2),
          },
          { bundleId: 102, name: 'Loyalty and gift cards', quantity: 2, unitPrice: '0.00', monthlyPrice: '10.01' },
          // A bundle the catalogue does not know is left out, like an unknown billing item.
          { bundleId: 9876, name: 'Gone', quantity: 1, unitPrice: '0.00', monthlyPrice: '5.00' },
        ],
      }),
    );

    const res = await t.request({
      method: 'GET',
      url: `/api/customers/${order.customerId}/customerbundles/${admin}?custstoreid=${order.storeId}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const tab = res.json().info as Json;
    expect(tab.total).toBe(3);
    const byBundle = (id: number) => (tab.items as Json[]).filter((b) => b.bundle_id === id);
    const [plus] = byBundle(7);
    expect(plus).toMatchObject({
      store_id: order.storeId,
      name: 'NRS Pay Plus',
      status: 'A',
      currency: 'USD',
      monthly_price_cents: catalogueCents,
      starts_on: '2026-11-22',
    });
    expect((plus!.items as Json[]).map((i) => [i.billing_item_id, i.price_cents])).toEqual(
      nrsPayPlus.map((o) => [o.billingItemId, o.priceCents]),
    );
    const two = byBundle(102);
    expect(two).toHaveLength(2);
    for (const b of two) {
      expect(b.monthly_price_cents).toBe(10_01);
      expect((b.items as Json[]).map((i) => i.billing_item_id)).toEqual(loyalty.map((o) => o.billingItemId));
    }

    // On the store's monthly plan, each with its frozen price: what the billing run bills.
    const rows = await t.database.db.select().from(customerBundles).where(eq(customerBundles.storeId, order.storeId!));
    expect(rows).toHaveLength(3);
    const planIds = new Set(rows.map((r) => r.planId));
    expect(planIds.size).toBe(1);
    const frozen = await t.database.db
      .select()
      .from(customerBundlePrices)
      .where(
        inArray(
          customerBundlePrices.customerBundleId,
          rows.map((r) => r.id),
        ),
      );
    expect(frozen.reduce((s, p) => s + p.unitPriceCents, 0)).toBe(catalogueCents + 2 * 10_01);
  });

  it('an order without bundles adds none', async () => {
    const order = await completedOrder(doc());
    const res = await t.request({ method: 'GET', url: `/api/customers/${order.customerId}/customerbundles/${admin}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info.total).toBe(0);
  });
});

describe("the store's license shows the plan's expiry", () => {
  async function storeOf(customerId: number, storeId: number): Promise<Json> {
    const res = await t.request({
      method: 'GET',
      url: `/api/customers/${customerId}/customerstores/${admin}?cust_store_id=${storeId}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().info.stores as Json[])[0]!;
  }
  async function serviceLicense(customerId: number): Promise<string | null> {
    const res = await t.request({ method: 'GET', url: `/api/customers/${customerId}/${admin}/customerpaymentplans` });
    expect(res.statusCode, res.body).toBe(200);
    const plan = (res.json().info.items as Json[]).find((p) => p.kind === 'monthly' || p.kind === 'yearly');
    return plan!.license_expires_on as string | null;
  }

  it('monthly plan: the store and the plan expire a month after Complete', async () => {
    const order = await completedOrder(doc());
    expect(await serviceLicense(order.customerId!)).toBe('2026-12-22');
    expect(await storeOf(order.customerId!, order.storeId!)).toMatchObject({ license_expires_on: '2026-12-22' });
  });

  it('yearly plan: a year after Complete', async () => {
    const base = doc();
    const order = await completedOrder({
      ...base,
      PaymentPlanInfo: base.PaymentPlanInfo!.map((p, i) => (i === 1 ? { ...p, paymentPlanId: 5 } : p)),
    });
    expect(await storeOf(order.customerId!, order.storeId!)).toMatchObject({ license_expires_on: '2027-11-22' });
  });

  it("an existing store's license is moved on to the plan's expiry, never shortened", async () => {
    const customer = await createCustomer(t.database.db);
    const lapsing = await createStore(t.database.db, { customerId: customer.id, licenseExpiresOn: '2026-11-30' });
    const longer = await createStore(t.database.db, { customerId: customer.id, licenseExpiresOn: '2027-06-01' });
    for (const [store, expected] of [
      [lapsing, '2026-12-22'],
      [longer, '2027-06-01'],
    ] as const) {
      const base = doc();
      const order = await createOrder(t.database.db, {
        status: ORDER_STATUS.INSTALLATION,
        customerId: customer.id,
        storeId: store.id,
        document: { ...base, StoreInfo: { ...base.StoreInfo, customerStoreId: store.id } },
      });
      expect((await complete(order.id)).status).toBe(200);
      expect(await storeOf(customer.id, store.id)).toMatchObject({ license_expires_on: expected });
    }
  });
});

describe('the sales person is the rep who sold it', () => {
  async function save(id: number | 'new', json: OrderDocument, version?: number): Promise<Json> {
    const res = await t.request({
      method: 'POST',
      url: `/api/customers/orderinfo/${id}/${rep}`,
      payload: { json, ...(version === undefined ? {} : { version }) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().info as Json;
  }
  async function read(id: number): Promise<Json> {
    const res = await t.request({ method: 'GET', url: `/api/customers/orderinfo/${rep}?id=${id}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().info.order as Json;
  }

  it('defaults to the creating rep, is editable, is never blanked, and reaches the store at Complete', async () => {
    const created = await save('new', doc({ salesRep: '' }));
    const first = await read(created.orderInfoId as number);
    expect(first.json.salesRep).toBe('Ram Patel');
    expect(first.sales_rep).toBe('Ram Patel');

    // Editable: another rep's name is kept; a save without one keeps the order's.
    const edited = await save(
      created.orderInfoId as number,
      { ...first.json, salesRep: 'Dana Whitfield' },
      first.version,
    );
    const second = await read(created.orderInfoId as number);
    expect(second.json.salesRep).toBe('Dana Whitfield');
    await save(created.orderInfoId as number, { ...second.json, salesRep: '  ' }, edited.version as number);
    const [row] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, created.orderInfoId as number));
    expect(row!.salesRep).toBe('Dana Whitfield');
    expect((row!.document as OrderDocument).salesRep).toBe('Dana Whitfield');

    // An order naming its rep keeps that name at creation.
    const named = await save('new', doc({ salesRep: 'Lee Chu' }));
    expect((await read(named.orderInfoId as number)).json.salesRep).toBe('Lee Chu');

    // At Complete the new store's sales rep is the order's.
    await t.database.db
      .update(orders)
      .set({ status: ORDER_STATUS.INSTALLATION })
      .where(eq(orders.id, created.orderInfoId as number));
    expect((await complete(created.orderInfoId as number)).status).toBe(200);
    const [after] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, created.orderInfoId as number));
    const res = await t.request({
      method: 'GET',
      url: `/api/customers/${after!.customerId}/customerstores/${admin}?cust_store_id=${after!.storeId}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info.stores[0]).toMatchObject({ sales_rep: 'Dana Whitfield' });
  });
});

describe('terminals move to installed with their real serial numbers', () => {
  it('Operations enters the serials at Installation: Complete installs each terminal under its serial', async () => {
    const order = await createOrder(t.database.db, {
      status: ORDER_STATUS.INSTALLATION,
      document: doc({ noOfTerminals: 2 }),
    });
    const res = await complete(order.id, ['SN-A100', 'SN-A101']);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [after] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect((after!.document as OrderDocument).TerminalSerials).toEqual(['SN-A100', 'SN-A101']);
    const list = await t.request({
      method: 'GET',
      url: `/api/customers/${after!.customerId}/${admin}/customerterminals?custorderid=${order.id}`,
    });
    expect(list.statusCode, list.body).toBe(200);
    const made = (list.json().info.items as Json[]).sort((a, b) => a.id - b.id);
    expect(made.map((x) => [x.serial_number, x.status])).toEqual([
      ['SN-A100', 'active'],
      ['SN-A101', 'active'],
    ]);
    expect(made.every((x) => x.installed_at === t.clock.now().toISOString())).toBe(true);

    // The validate call knows them now.
    const valid = await t.request({
      method: 'GET',
      url: `/api/customers/${admin}/terminals/validate/${made[0]!.elmer_id}/SN-A100`,
    });
    expect(valid.json().info).toMatchObject({ valid: true, serial_matches: true });
  });

  it('Complete is refused (409) while a terminal has no serial, naming it; nothing is made', async () => {
    const order = await createOrder(t.database.db, {
      status: ORDER_STATUS.INSTALLATION,
      document: doc({ noOfTerminals: 3 }),
    });
    const res = await complete(order.id, ['SN-D1']);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(
      `Order ${order.unifiedOrderId} cannot be completed: terminals 2 and 3 of 3 have no serial number. ` +
        'Enter the serial numbers at Installation.',
    );
    const [after] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after).toMatchObject({ status: ORDER_STATUS.INSTALLATION, onboardedAt: null, customerId: null });
    expect(await t.database.db.select().from(terminals).where(eq(terminals.orderId, order.id))).toHaveLength(0);
    const none = await complete(order.id, []);
    expect(none.body.error.message).toMatch(/terminals 1, 2 and 3 of 3 have no serial number/);
    expect((await complete(order.id, ['SN-D1', 'SN-D2', 'SN-D3'])).status).toBe(200);
  });

  it('serials are refused when taken, repeated, too many, placeholders, or not at Installation', async () => {
    const order = await createOrder(t.database.db, {
      status: ORDER_STATUS.INSTALLATION,
      document: doc({ noOfTerminals: 2 }),
    });
    const taken = await complete(order.id, ['SN-A100', 'SN-B1']);
    expect(taken.status).toBe(400);
    expect(taken.body.error.fields['terminal_serials.0']).toMatch(/SN-A100 belongs to terminal \d+/);
    const twice = await complete(order.id, ['SN-B1', 'sn-b1']);
    expect(twice.status).toBe(400);
    expect(twice.body.error.fields['terminal_serials.1']).toBe('The same as terminal 1.');
    const many = await complete(order.id, ['SN-B1', 'SN-B2', 'SN-B3']);
    expect(many.status).toBe(400);
    const placeholder = await complete(order.id, ['PENDING-3000007']);
    expect(placeholder.status).toBe(400);
    expect(await t.database.db.select().from(terminals).where(eq(terminals.orderId, order.id))).toHaveLength(0);

    const early = await createOrder(t.database.db, { status: ORDER_STATUS.POS_POSTPONED, document: doc() });
    const notYet = await move(early.id, ORDER_STATUS.INSTALLATION, { terminal_serials: ['SN-C1'] });
    expect(notYet.status).toBe(409);
    expect(notYet.body.error.message).toMatch(/entered at Installation/);
  });
});

describe('promotion rewards are credited as a type B credit invoice (issue 29 item 7, decision 152)', () => {
  it('a promotion the sale cannot take is credited at Complete: a pending credit memo on account and its B credit invoice; AR approves it', async () => {
    // $35.00 of shipping and a $60.00 promotion: $35.00 comes off the sale, $25.00 is the merchant's reward.
    const after = await completedOrder(
      doc({ PromotionInfo: [{ promoId: 9, code: 'WELCOME60', name: 'Welcome', method: 'A', amount: '60.00' }] }),
    );
    const customerId = after.customerId!;
    const list = await t.request({ method: 'GET', url: `/api/customers/${customerId}/${admin}/creditinvoices` });
    expect(list.statusCode, list.body).toBe(200);
    const [credit, ...more] = list.json().info.items;
    expect(more).toHaveLength(0);
    expect(credit).toMatchObject({
      type: 'B',
      type_label: 'Credit (promotion rewards)',
      order_id: after.id,
      store_id: after.storeId,
      total_cents: -25_00,
      currency: 'USD',
      reason: `Promotion rewards of order ${after.unifiedOrderId}: WELCOME60`,
      lines: [{ billing_item_id: 7, description: 'Promotion WELCOME60 (reward)', quantity: 1, amount_cents: -25_00 }],
    });
    expect(credit.invoice_number).toMatch(/^INV-\d{4}-\d{7}$/);

    // The money moves by its memo, once AR approves it like any credit.
    const memos = await t.request({ method: 'GET', url: `/api/memos/${admin}?customer_id=${customerId}` });
    const memo = memos.json().info.items.find((m: Json) => m.id === credit.credit_memo_id);
    expect(memo).toMatchObject({ type: 'C', status: 'P', amount_cents: 25_00, invoice_id: null });
    const { ar } = await signInStaff(t, { ar: 'AR Team' });
    const decided = await t.request({
      method: 'POST',
      url: `/api/memos/${memo.id}/decision/${ar}`,
      headers: { 'idempotency-key': `reward-${memo.id}` },
      payload: { decision: 'approve', reason: 'Promotion reward checked.', version: memo.version },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const check = await t.request({ method: 'GET', url: `/api/billing/ledger-check/${admin}` });
    expect(check.json().info).toMatchObject({ ok: true });
  });

  it('an order whose promotions the sale takes whole credits nothing', async () => {
    const after = await completedOrder(
      doc({ PromotionInfo: [{ promoId: 9, code: 'SMALL10', name: 'Small', method: 'A', amount: '10.00' }] }),
    );
    const list = await t.request({ method: 'GET', url: `/api/customers/${after.customerId}/${admin}/creditinvoices` });
    expect(list.json().info.items).toEqual([]);
  });
});
