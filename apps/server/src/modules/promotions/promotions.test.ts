import { blankOrder, type OrderDocument } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createOrder, createPromotion, createStore, ensureBillingItems } from '../../db/factories';
import { auditLog, orderPromotions, orders, promotions } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Promotions (#/promotions; issue 17 point 3, decision 125) through HTTP. Today is 2026-11-22 (the test clock).
 * Marketing holds promotions_edit; a RAM user with promotions_view added may only read; a plain RAM user neither.
 */

let t: TestApp;
let tok: Record<'marketing' | 'viewer' | 'sales' | 'admin', string>;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const res = await t.request({ method, url, payload: payload as Json });
  const body = res.headers['content-type']?.toString().startsWith('text/csv') ? { csv: res.body } : res.json();
  return { status: res.statusCode, body: body as Json };
}

const list = (k: keyof typeof tok, query = '') => `/api/promotions/${tok[k]}${query ? `?${query}` : ''}`;
const one = (id: number, k: keyof typeof tok) => `/api/promotions/${id}/${tok[k]}`;
const expire = (id: number, k: keyof typeof tok) => `/api/promotions/${id}/expire/${tok[k]}`;
const ordersOf = (id: number, k: keyof typeof tok) => `/api/promotions/${id}/orders/${tok[k]}`;
const saveOrder = (id: number | string) => `/api/customers/orderinfo/${id}/${tok.sales}`;

const tenPercent = {
  code: 'fall10',
  name: 'Fall: 10 % off',
  type: 'H',
  method: 'P',
  percent: 10,
  customer_type: 'A',
  currency: 'USD',
  billing_item_ids: [66],
  starts_on: '2026-11-01',
  expires_on: '2026-12-31',
  usage_limit: 5,
};

const address = { address1: '12 Elm St', address2: '', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' };
/** A complete US order selling one $200.00 charge, with the given promotion entries. */
function orderWith(promos: Json[]): OrderDocument {
  const o = blankOrder();
  o.CustomerInfo = {
    ...o.CustomerInfo,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '2175550100',
    federalTaxId: '41-7100001',
  };
  o.HomeAddress = { ...address } as never;
  o.BillingAddress = { ...address } as never;
  o.ShippingAddress = { ...address } as never;
  o.StoreInfo = {
    ...o.StoreInfo,
    doingBusinessAs: 'Ada Mart',
    storeName: 'Ada Mart - Elm',
    phone: '2175550101',
    StoreAddress: { ...address },
  } as never;
  o.salesRep = 'Dana Whitfield';
  o.totalSalePrice = '180.00';
  o.BillingItemInfo = [{ billingItemId: 30, name: 'Other charges', quantity: 1, unitPrice: '200.00' }];
  o.PromotionInfo = promos;
  o.PaymentPlanInfo = o.PaymentPlanInfo!.map((p, i) => ({ ...p, paymentPlanId: 10 + i }));
  o.PaymentInstrumentInfo = o.PaymentInstrumentInfo!.map((p) => ({
    ...p,
    paymentMethodTypeId: 1,
    creditCardNumber: 'tok_abc123XYZ',
  }));
  return o;
}
const entryOf = (p: { id: number; code: string; name: string; method: string; percent?: string | null }) => ({
  promoId: p.id,
  code: p.code,
  name: p.name,
  method: p.method,
  amount: p.method === 'A' ? '50.00' : null,
  percent: p.method === 'P' ? Number(p.percent) : null,
});

async function submitNew(doc: OrderDocument) {
  return call('POST', saveOrder('new'), { json: doc, submit: true });
}

beforeAll(async () => {
  t = await createTestApp();
  await ensureBillingItems(t.database.db, [30, 66, 67]);
  tok = await signInStaff(t, {
    marketing: 'Marketing',
    viewer: { role: 'RAM', email: 'viewer@example.com', additionalPrivileges: ['promotions_view'] },
    sales: { role: 'RAM', email: 'ram@example.com' },
    admin: 'Admin',
  });
});
afterAll(() => t.close());

describe('POST /api/promotions/{token}', () => {
  it('creates a promotion (code upper-cased, billing items, usage 0, current) with an audit entry', async () => {
    const res = await call('POST', list('marketing'), tenPercent);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.info).toMatchObject({
      code: 'FALL10',
      method: 'P',
      percent: 10,
      amount_cents: null,
      billing_items: [{ billing_item_id: 66 }],
      usage_limit: 5,
      usage_count: 0,
      state: 'current',
      version: 1,
    });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'promotion'), eq(auditLog.entityId, String(res.body.info.promo_id))));
    expect(audit.map((a) => a.action)).toEqual(['promotion.create']);
  });

  it('400 with the field for a percent over 100, a missing amount, dates in the wrong order, a bad code', async () => {
    const over = await call('POST', list('marketing'), { ...tenPercent, code: 'OVER100', percent: 101 });
    expect([over.status, over.body.error.fields]).toEqual([400, { percent: expect.stringContaining('0 to 100') }]);
    const noAmount = await call('POST', list('marketing'), {
      ...tenPercent,
      code: 'NOAMT',
      method: 'A',
      percent: null,
    });
    expect(noAmount.body.error.fields).toHaveProperty('amount_cents');
    const dates = await call('POST', list('marketing'), {
      ...tenPercent,
      code: 'DATES1',
      starts_on: '2026-12-01',
      expires_on: '2026-11-01',
    });
    expect(dates.body.error.fields).toEqual({ expires_on: 'The expiry date is before the start date.' });
    const code = await call('POST', list('marketing'), { ...tenPercent, code: 'a b' });
    expect([code.status, Object.keys(code.body.error.fields)]).toEqual([400, ['code']]);
    const item = await call('POST', list('marketing'), { ...tenPercent, code: 'NOITEM', billing_item_ids: [999_999] });
    expect([item.status, item.body.error.fields]).toEqual([
      400,
      { billing_item_ids: expect.stringContaining('999999') },
    ]);
  });

  it('409 for a code taken in that currency (any case); the same code in CAD is fine', async () => {
    await call('POST', list('marketing'), { ...tenPercent, code: 'TWICE' });
    const again = await call('POST', list('marketing'), { ...tenPercent, code: 'twice' });
    expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
    const cad = await call('POST', list('marketing'), { ...tenPercent, code: 'TWICE', currency: 'CAD' });
    expect(cad.status).toBe(201);
  });

  it('403 without promotions_edit (view only, or neither)', async () => {
    const viewer = await call('POST', list('viewer'), { ...tenPercent, code: 'VIEWER1' });
    const sales = await call('POST', list('sales'), { ...tenPercent, code: 'SALES1' });
    expect([viewer.status, sales.status]).toEqual([403, 403]);
    const rows = await t.database.db.select().from(promotions).where(eq(promotions.code, 'VIEWER1'));
    expect(rows).toEqual([]);
  });
});

describe('GET /api/promotions/{token}', () => {
  beforeAll(async () => {
    const db = t.database.db;
    await createPromotion(db, { code: 'OLDONE', name: 'Old spring sale', expiresOn: '2026-05-31' });
    await createPromotion(db, { code: 'SOONER', name: 'Winter sale', startsOn: '2026-12-15', customerType: 'N' });
    await createPromotion(db, { code: 'CANADA5', name: 'Canada', currency: 'CAD' });
  });

  it('lists with state, currency, customer type and text filters, sorted; view-only may read; 403 without', async () => {
    const all = await call('GET', list('viewer', 'sort=code&limit=100'));
    expect(all.status).toBe(200);
    const codes = all.body.info.items.map((p: Json) => p.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(['OLDONE', 'SOONER', 'CANADA5', 'FALL10']));
    const expired = await call('GET', list('viewer', 'state=expired'));
    expect(expired.body.info.items.map((p: Json) => [p.code, p.state])).toEqual([['OLDONE', 'expired']]);
    const scheduled = await call('GET', list('viewer', 'state=scheduled'));
    expect(scheduled.body.info.items.map((p: Json) => p.code)).toEqual(['SOONER']);
    const current = await call('GET', list('viewer', 'state=current&limit=100'));
    expect(current.body.info.items.map((p: Json) => p.code)).not.toContain('OLDONE');
    const cad = await call('GET', list('viewer', 'currency=CAD'));
    expect(new Set(cad.body.info.items.map((p: Json) => p.currency))).toEqual(new Set(['CAD']));
    const newOnly = await call('GET', list('viewer', 'customer_type=N'));
    expect(newOnly.body.info.items.map((p: Json) => p.code)).toEqual(['SOONER']);
    const text = await call('GET', list('viewer', 'q=spring'));
    expect(text.body.info.items.map((p: Json) => p.code)).toEqual(['OLDONE']);
    const paged = await call('GET', list('viewer', 'sort=-code&limit=2&offset=0'));
    expect(paged.body.info.items).toHaveLength(2);
    expect(paged.body.info.total).toBe(all.body.info.total);
    const denied = await call('GET', list('sales'));
    expect([denied.status, denied.body.error.code]).toEqual([403, 'forbidden']);
  });

  it('400 for an unknown state or sort; CSV has every row', async () => {
    const bad = await call('GET', list('viewer', 'state=gone'));
    expect([bad.status, Object.keys(bad.body.error.fields ?? {})]).toEqual([400, ['state']]);
    const sort = await call('GET', list('viewer', 'sort=price'));
    expect(sort.status).toBe(400);
    const csv = await call('GET', list('viewer', 'format=csv&state=expired'));
    expect(csv.status).toBe(200);
    const lines = (csv.body.csv as string).trim().split(/\r?\n/);
    expect(lines[0]).toContain('code');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('OLDONE');
  });
});

describe('PUT /api/promotions/{id}/{token} and POST …/expire', () => {
  it('edits with the version read; a stale version → 409 with the current promotion', async () => {
    const made = await call('POST', list('marketing'), { ...tenPercent, code: 'EDITME' });
    expect(made.status, JSON.stringify(made.body) + JSON.stringify(t.logs.filter((l) => l.err).slice(-1))).toBe(201);
    const created = made.body.info;
    const res = await call('PUT', one(created.promo_id, 'marketing'), {
      ...tenPercent,
      code: 'EDITME',
      name: 'Edited',
      percent: 15,
      billing_item_ids: [66, 67],
      version: 1,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.info).toMatchObject({ name: 'Edited', percent: 15, version: 2 });
    expect(res.body.info.billing_items.map((b: Json) => b.billing_item_id)).toEqual([66, 67]);
    const stale = await call('PUT', one(created.promo_id, 'marketing'), { ...tenPercent, code: 'EDITME', version: 1 });
    expect([stale.status, stale.body.error.code, stale.body.error.current.name]).toEqual([
      409,
      'version_conflict',
      'Edited',
    ]);
  });

  it('404 for an unknown id; 403 for view only', async () => {
    const missing = await call('PUT', one(999_999, 'marketing'), { ...tenPercent, version: 1 });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
    const p = await createPromotion(t.database.db);
    const denied = await call('PUT', one(p.id, 'viewer'), { ...tenPercent, version: 1 });
    expect(denied.status).toBe(403);
    const expiredMissing = await call('POST', expire(999_999, 'marketing'), { version: 1 });
    expect(expiredMissing.status).toBe(404);
  });

  it('expires today: the lookup no longer finds it unless expired=Y; promo_id narrows; again → 409', async () => {
    const p = await createPromotion(t.database.db, { code: 'ENDING', startsOn: '2026-11-01' });
    const found = await call('GET', `/api/customers/promotions/ending/${tok.sales}`);
    expect(found.body.info.promotions.map((x: Json) => x.promo_id)).toEqual([p.id]);
    const stale = await call('POST', expire(p.id, 'marketing'), { version: p.version + 1 });
    expect(stale.status).toBe(409);
    const res = await call('POST', expire(p.id, 'marketing'), { version: p.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.info).toMatchObject({ state: 'expired', expires_on: '2026-11-21' });
    const gone = await call('GET', `/api/customers/promotions/ENDING/${tok.sales}`);
    expect(gone.status).toBe(404);
    const withExpired = await call('GET', `/api/customers/promotions/ENDING/${tok.sales}?expired=Y`);
    expect(withExpired.body.info.promotions).toMatchObject([{ promo_id: p.id, expired: true }]);
    const byId = await call('GET', `/api/customers/promotions/ENDING/${tok.sales}?expired=Y&promo_id=${p.id + 1000}`);
    expect(byId.status).toBe(404);
    const again = await call('POST', expire(p.id, 'marketing'), { version: res.body.info.version });
    expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
  });
});

describe('orders using a promotion', () => {
  it('a submitted order records its discount; the promotion counts it and lists the order', async () => {
    const p = await createPromotion(t.database.db, { code: 'TENOFF', method: 'P', percent: '10', usageLimit: 3 });
    const res = await submitNew(orderWith([entryOf(p)]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.info.orderInfoId as number;
    const rows = await t.database.db.select().from(orderPromotions).where(eq(orderPromotions.orderId, id));
    expect(rows.map((r) => [r.promotionId, r.amountCents, r.currency])).toEqual([[p.id, 20_00, 'USD']]);
    const used = await call('GET', ordersOf(p.id, 'viewer'));
    expect(used.body.info.items).toMatchObject([{ order_id: id, amount_cents: 20_00, status: '11', counts: true }]);
    const listed = await call('GET', list('viewer', 'q=TENOFF'));
    expect(listed.body.info.items[0]).toMatchObject({ usage_count: 1, usage_limit: 3, state: 'current' });
  });

  it('the usage limit holds: the second order is refused (400) and stays a draft; a rejected order frees its use', async () => {
    const p = await createPromotion(t.database.db, { code: 'ONCE', usageLimit: 1 });
    const first = await submitNew(orderWith([entryOf(p)]));
    expect(first.status).toBe(200);
    const draft = await call('POST', saveOrder('new'), { json: orderWith([entryOf(p)]) });
    const id = draft.body.info.orderInfoId as number;
    const second = await call('POST', saveOrder(id), { json: orderWith([entryOf(p)]), version: 1, submit: true });
    expect([second.status, second.body.error.fields.PromotionInfo]).toEqual([
      400,
      expect.stringContaining('reached its limit of 1 order.'),
    ]);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(row!.status).toBe('1');
    await t.database.db.update(orders).set({ status: '3' }).where(eq(orders.id, first.body.info.orderInfoId));
    const retry = await call('POST', saveOrder(id), {
      json: orderWith([entryOf(p)]),
      version: row!.version,
      submit: true,
    });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
  });

  it('refuses an expired, a not-started, another currency, an existing-customers-only and a changed promotion', async () => {
    const db = t.database.db;
    const expired = await createPromotion(db, { code: 'PAST1', expiresOn: '2026-11-21' });
    const later = await createPromotion(db, { code: 'LATER1', startsOn: '2026-11-23' });
    const cad = await createPromotion(db, { code: 'CAD1', currency: 'CAD' });
    const existing = await createPromotion(db, { code: 'EXIST1', customerType: 'E' });
    const changed = await createPromotion(db, { code: 'CHANGED1', amountCents: 75_00 });
    const cases: [Json, string][] = [
      [entryOf(expired), 'expired on 2026-11-21'],
      [entryOf(later), 'starts on 2026-11-23'],
      [entryOf(cad), 'is for CAD orders'],
      [entryOf(existing), 'existing customers only'],
      [entryOf(changed), 'changed since it was applied'],
    ];
    for (const [entry, words] of cases) {
      const res = await submitNew(orderWith([entry]));
      expect([res.status, res.body.error?.fields?.PromotionInfo]).toEqual([400, expect.stringContaining(words)]);
    }
  });

  it('an existing customer may use an E promotion; 404 for the orders of an unknown promotion', async () => {
    const db = t.database.db;
    const customer = await createCustomer(db, { country: 'US' });
    const store = await createStore(db, { customerId: customer.id, country: 'US' });
    const p = await createPromotion(db, { code: 'EXIST2', customerType: 'E' });
    const order = await createOrder(db, { customerId: customer.id, storeId: store.id });
    const res = await call('POST', saveOrder(order.id), {
      json: orderWith([entryOf(p)]),
      version: order.version,
      submit: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const used = await call('GET', ordersOf(p.id, 'marketing'));
    expect(used.body.info.items).toMatchObject([{ order_id: order.id, customer_id: customer.id, amount_cents: 50_00 }]);
    // A new order started from an existing customer (New order for a customer) is one too.
    const forCustomer = orderWith([entryOf(p)]);
    forCustomer.additionalInfo = { ...forCustomer.additionalInfo, customerID: customer.id } as never;
    expect((await submitNew(forCustomer)).status).toBe(200);
    const missing = await call('GET', ordersOf(999_999, 'marketing'));
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
  });

  it('a T promotion fits only a transfer: refused on an add-on (E) and a new merchant, accepted on a transfer (163)', async () => {
    const db = t.database.db;
    const customer = await createCustomer(db, { country: 'US' });
    const store = await createStore(db, { customerId: customer.id, country: 'US' });
    const p = await createPromotion(db, { code: 'MOVEIN', customerType: 'T' });
    const forCustomer = (saleKind?: string) => {
      const doc = orderWith([entryOf(p)]);
      doc.additionalInfo = { ...doc.additionalInfo, customerID: customer.id, saleKind } as never;
      return doc;
    };
    // An existing customer's order that says nothing (older orders) or E is an add-on: refused, the draft stays.
    const order = await createOrder(db, { customerId: customer.id, storeId: store.id });
    const addOn = await call('POST', saveOrder(order.id), {
      json: forCustomer(),
      version: order.version,
      submit: true,
    });
    expect([addOn.status, addOn.body.error?.fields?.PromotionInfo]).toEqual([
      400,
      'Promotion MOVEIN is for transfers only; this order is an add-on for an existing store. Remove it from the order to submit.',
    ]);
    const [kept] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(kept!.status).toBe('1');
    expect((await submitNew(forCustomer('E'))).body.error?.fields?.PromotionInfo).toContain('is for transfers only');
    // A new merchant's order is N whatever it says about the kind of sale.
    const newMerchant = orderWith([entryOf(p)]);
    newMerchant.additionalInfo = { ...newMerchant.additionalInfo, saleKind: 'T' } as never;
    expect((await submitNew(newMerchant)).body.error?.fields?.PromotionInfo).toContain(
      'this order is for a new merchant.',
    );
    // The same order as a transfer is accepted and counted; the document keeps its kind of sale.
    const transfer = await call('POST', saveOrder(order.id), {
      json: forCustomer('T'),
      version: kept!.version,
      submit: true,
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);
    const [row] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect((row!.document as OrderDocument).additionalInfo?.saleKind).toBe('T');
    const used = await call('GET', ordersOf(p.id, 'marketing'));
    expect(used.body.info.items).toMatchObject([{ order_id: order.id, customer_id: customer.id, counts: true }]);
    // An E promotion still fits the transfer (every existing-store order); an unknown kind of sale is refused as a field.
    const anyExisting = await createPromotion(db, { code: 'EXIST3', customerType: 'E' });
    const doc = forCustomer('U');
    doc.PromotionInfo = [entryOf(anyExisting)];
    expect((await submitNew(doc)).status).toBe(200);
    const bad = await submitNew(forCustomer('N'));
    expect([bad.status, Object.keys(bad.body.error?.fields ?? {})]).toEqual([400, ['additionalInfo.saleKind']]);
  });
});
