import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogue,
  createCustomerBillingItem,
  createCustomerBundle,
  createOrder,
  createPaymentPlan,
  createPromotion,
  createStore,
} from '../../db/factories';
import { customerBillingItems, orderPromotions } from '../../db/schema';
import { accountsFixture, auditOf, failAuditOf, UNKNOWN_TOKEN, type AccountsFixture } from './test-support';

describe('customer billing items, bundles and promotions', () => {
  let f: AccountsFixture;
  let customerId: number;
  let storeA: number;
  let storeB: number;
  let planA: number;
  let foreignStore: number;
  let foreignPlan: number;
  const ids: Record<string, number> = {};

  const url = (query = '', token = f.editor, id = customerId) =>
    `/api/customers/${id}/${token}/customerbillingitems${query}`;
  const list = async (query = '') => {
    const res = await f.t.request({ method: 'GET', url: url(query) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().info as { customer_billing_items: Array<{ id: number }>; total: number };
  };
  const idsOf = (info: { customer_billing_items: Array<{ id: number }> }) =>
    info.customer_billing_items.map((r) => r.id).sort((a, b) => a - b);
  const rowsOf = async () =>
    f.t.database.db.select().from(customerBillingItems).where(eq(customerBillingItems.customerId, customerId));

  beforeAll(async () => {
    f = await accountsFixture();
    const db = f.t.database.db;
    await createCatalogue(db);
    const a = await createStore(db);
    customerId = a.customerId;
    storeA = a.id;
    storeB = (await createStore(db, { customerId })).id;
    planA = (await createPaymentPlan(db, { storeId: storeA })).id;
    ids.fee = (
      await createCustomerBillingItem(db, { storeId: storeA, planId: planA, billingItemId: 8, startsOn: '2025-01-01' })
    ).id;
    ids.feature = (
      await createCustomerBillingItem(db, {
        storeId: storeA,
        planId: planA,
        billingItemId: 203,
        unitPriceCents: 2500,
        startsOn: '2025-01-01',
      })
    ).id;
    ids.canceled = (
      await createCustomerBillingItem(db, {
        storeId: storeA,
        billingItemId: 201,
        status: 'C',
        startsOn: '2024-01-01',
        endsOn: '2025-01-01',
      })
    ).id;
    ids.ended = (
      await createCustomerBillingItem(db, {
        storeId: storeB,
        billingItemId: 113,
        startsOn: '2025-01-01',
        endsOn: '2026-01-31',
      })
    ).id;
    ids.inactive = (
      await createCustomerBillingItem(db, { storeId: storeB, billingItemId: 20, status: 'I', startsOn: '2026-01-01' })
    ).id;
    ids.customerLevel = (
      await createCustomerBillingItem(db, {
        customerId,
        billingItemId: 214,
        unitPriceCents: 3900,
        startsOn: '2026-01-01',
      })
    ).id;
    const foreign = await createStore(db);
    foreignStore = foreign.id;
    foreignPlan = (await createPaymentPlan(db, { storeId: foreign.id })).id;
    await createCustomerBundle(db, { storeId: storeA, bundleId: 9, planId: planA, startsOn: '2025-02-01' });
    await createCustomerBundle(db, { storeId: storeB, bundleId: 13, status: 'C', startsOn: '2024-02-01' });
    const order = await createOrder(db, { customerId, storeId: storeA });
    const promo = await createPromotion(db, {
      code: 'TEST25',
      name: 'Test: $25 off',
      amountCents: 25_00,
      currency: 'USD',
    });
    await db.insert(orderPromotions).values({
      orderId: order.id,
      customerId,
      storeId: storeA,
      promotionId: promo.id,
      amountCents: 25_00,
      currency: 'USD',
      appliedAt: new Date('2026-10-01T10:00:00Z'),
    });
  });
  afterAll(() => f.t.close());

  describe('GET …/customerbillingitems', () => {
    it('custstoreid 999999999 (the default) lists the current rows of every store and the customer level', async () => {
      const info = await list();
      expect(idsOf(info)).toEqual([ids.fee!, ids.feature!, ids.inactive!, ids.customerLevel!].sort((a, b) => a - b));
      expect(info).toEqual(await list('?custstoreid=999999999'));
      const fee = info.customer_billing_items.find((r) => r.id === ids.fee);
      expect(fee).toEqual({
        id: ids.fee,
        customer_id: customerId,
        store_id: storeA,
        plan_id: planA,
        billing_item_id: 8,
        name: 'Monthly service fee',
        category: 'Service fees',
        feature: 'N',
        charge_at_level: 'S',
        recurring: true,
        quantity: 1,
        unit_price_cents: 7900,
        amount_cents: 7900,
        currency: 'USD',
        status: 'A',
        status_label: 'Active',
        starts_on: '2025-01-01',
        ends_on: null,
        version: 1,
      });
    });

    it('checkForPreviousRecords=true adds canceled and ended rows; a status filter wins', async () => {
      expect((await list('?checkForPreviousRecords=true')).total).toBe(6);
      expect(idsOf(await list('?status=C'))).toEqual([ids.canceled]);
      expect(idsOf(await list(`?custstoreid=${storeB}&checkForPreviousRecords=Y`))).toEqual([ids.ended, ids.inactive]);
      expect(idsOf(await list(`?custstoreid=${storeB}`))).toEqual([ids.inactive]);
    });

    it('filters by plan and billing item, for a view-only user too', async () => {
      const res = await f.t.request({
        method: 'GET',
        url: url(`?customerplanid=${planA}&billingitemid=203`, f.viewer),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().info.customer_billing_items.map((r: { id: number }) => r.id)).toEqual([ids.feature]);
    });

    it('400 for bad filters, 404 for a foreign store or unknown customer, 403 without a session', async () => {
      const bad = await f.t.request({ method: 'GET', url: url('?status=X&checkForPreviousRecords=maybe') });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toMatchObject({
        status: 'Status is A, I or C.',
        checkForPreviousRecords: 'Use true or false.',
      });
      expect(
        (await f.t.request({ method: 'GET', url: url(`?custstoreid=${foreignStore}`) })).json().error.fields
          .custstoreid,
      ).toMatch(/not a store of customer/);
      expect((await f.t.request({ method: 'GET', url: url('', f.editor, 999_999) })).statusCode).toBe(404);
      expect((await f.t.request({ method: 'GET', url: url('', UNKNOWN_TOKEN) })).statusCode).toBe(403);
    });
  });

  describe('POST …/customerbillingitems', () => {
    const add = (payload: unknown, opts: { token?: string; key?: string } = {}) =>
      f.t.request({
        method: 'POST',
        url: url('', opts.token ?? f.editor),
        payload: payload as object,
        headers: opts.key ? { 'idempotency-key': opts.key } : {},
      });

    it('adds an item at the catalogue price (default start today), audited with customer_id', async () => {
      const res = await add({ billing_item_id: 20, store_id: storeA, plan_id: planA, quantity: 2 });
      expect(res.statusCode, res.body).toBe(201);
      const item = res.json().info;
      expect(item).toMatchObject({
        billing_item_id: 20,
        name: 'Shipping',
        store_id: storeA,
        plan_id: planA,
        quantity: 2,
        unit_price_cents: 4900,
        amount_cents: 9800,
        currency: 'USD',
        status: 'A',
        starts_on: '2026-11-22',
      });
      const [entry] = await auditOf(f.t, 'customer_billing_item', item.id);
      expect(entry).toMatchObject({
        action: 'create',
        customerId,
        after: { customer_id: customerId, billing_item_id: 20, unit_price_cents: 4900, quantity: 2 },
      });
    });

    it('takes a given price; the same Idempotency-Key adds once', async () => {
      const before = (await rowsOf()).length;
      const body = { billing_item_id: 30, store_id: storeB, unit_price_cents: 1234, starts_on: '2026-12-01' };
      const first = await add(body, { key: 'bi-1' });
      const again = await add(body, { key: 'bi-1' });
      expect(first.statusCode, first.body).toBe(201);
      expect(again.json()).toEqual(first.json());
      expect(first.json().info).toMatchObject({ unit_price_cents: 1234, starts_on: '2026-12-01' });
      expect((await rowsOf()).length).toBe(before + 1);
      expect((await add({ ...body, unit_price_cents: 999 }, { key: 'bi-1' })).statusCode).toBe(422);
    });

    it('400: per-store item without store, zero quantity, end before start; 409: a feature already on', async () => {
      const before = (await rowsOf()).length;
      const noStore = await add({ billing_item_id: 8 });
      expect(noStore.statusCode).toBe(400);
      expect(noStore.json().error.fields.store_id).toBe('Monthly service fee is charged per store: choose the store.');
      expect((await add({ billing_item_id: 8, store_id: storeA, quantity: 0 })).json().error.fields.quantity).toBe(
        'The quantity is at least 1.',
      );
      expect(
        (await add({ billing_item_id: 8, store_id: storeA, starts_on: '2026-12-01', ends_on: '2026-11-01' })).json()
          .error.fields.ends_on,
      ).toBe('The end date cannot be before the start date.');
      const dup = await add({ billing_item_id: 203, store_id: storeA });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().error.message).toMatch(/E-commerce is already on/);
      expect((await rowsOf()).length).toBe(before);
    });

    it('404: unknown billing item, foreign store, foreign plan; 403 view-only; nothing half-written', async () => {
      const before = (await rowsOf()).length;
      expect((await add({ billing_item_id: 9999, store_id: storeA })).json().error.fields.billing_item_id).toBe(
        'Choose a billing item from the catalogue.',
      );
      expect((await add({ billing_item_id: 8, store_id: foreignStore })).statusCode).toBe(404);
      expect(
        (await add({ billing_item_id: 8, store_id: storeA, plan_id: foreignPlan })).json().error.fields.plan_id,
      ).toMatch(/not a plan of this customer/);
      expect((await add({ billing_item_id: 8, store_id: storeA }, { token: f.viewer })).statusCode).toBe(403);
      const undo = await failAuditOf(f.t, 'create');
      try {
        expect((await add({ billing_item_id: 8, store_id: storeB })).statusCode).toBe(500);
      } finally {
        await undo();
      }
      expect((await rowsOf()).length).toBe(before);
    });
  });

  describe('GET …/customerbundles and …/orderpromotions', () => {
    it('lists bundles with their monthly items in the store currency, filtered by store', async () => {
      const res = await f.t.request({ method: 'GET', url: `/api/customers/${customerId}/customerbundles/${f.viewer}` });
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info;
      expect(info.total).toBe(2);
      const pro = info.items.find((b: { bundle_id: number }) => b.bundle_id === 9);
      expect(pro).toMatchObject({
        store_id: storeA,
        name: 'NRS Pay Pro',
        nrs_pay: true,
        status: 'A',
        status_label: 'Active',
        currency: 'USD',
        plan_id: planA,
      });
      expect(pro.items.length).toBeGreaterThan(0);
      expect(pro.monthly_price_cents).toBe(
        pro.items.reduce((s: number, i: { price_cents: number }) => s + i.price_cents, 0),
      );
      const onlyB = (
        await f.t.request({
          method: 'GET',
          url: `/api/customers/${customerId}/customerbundles/${f.viewer}?custstoreid=${storeB}`,
        })
      ).json().info;
      expect(onlyB.items.map((b: { bundle_id: number; status: string }) => [b.bundle_id, b.status])).toEqual([
        [13, 'C'],
      ]);
      expect(
        (
          await f.t.request({
            method: 'GET',
            url: `/api/customers/${customerId}/customerbundles/${f.viewer}?custstoreid=${foreignStore}`,
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await f.t.request({ method: 'GET', url: `/api/customers/${customerId}/customerbundles/${UNKNOWN_TOKEN}` }))
          .statusCode,
      ).toBe(403);
    });

    it("lists the promotions applied to the customer's orders", async () => {
      const res = await f.t.request({
        method: 'GET',
        url: `/api/customers/${customerId}/${f.viewer}/orderpromotions?custstoreid=${storeA}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toEqual({
        total: 1,
        items: [
          expect.objectContaining({
            customer_id: customerId,
            store_id: storeA,
            code: 'TEST25',
            name: 'Test: $25 off',
            type: 'H',
            method: 'A',
            amount_cents: 2500,
            currency: 'USD',
            applied_at: '2026-10-01T10:00:00.000Z',
          }),
        ],
      });
      expect(
        (
          await f.t.request({
            method: 'GET',
            url: `/api/customers/${customerId}/${f.viewer}/orderpromotions?custstoreid=abc`,
          })
        ).statusCode,
      ).toBe(400);
      expect(
        (await f.t.request({ method: 'GET', url: `/api/customers/999999/${f.viewer}/orderpromotions` })).statusCode,
      ).toBe(404);
    });
  });
});
