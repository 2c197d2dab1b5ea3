import { BILLING_ITEM_IDS } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createInvoice,
  createPaymentPlan,
  createPromotion,
  createStore,
  createStoreEmail,
  ensureBillingItems,
} from '../../db/factories';
import { auditLog, customerPaymentPlans, invoices, mailLog, stores } from '../../db/schema';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Breath of life (#/breathoflife; issue 18 part 4, decision 131) through HTTP. Today is 2026-11-22 (the test clock).
 * On the list: a US diner whose license lapsed on 2026-10-01, a Canadian café lapsed on 2026-11-01, a US pizzeria
 * lapsed on 2026-10-15, and a US bakery whose monthly plan was canceled on 2026-09-01 (past the 37-day grace). Not on
 * it: a store whose plan was canceled on 2026-11-10 (within the grace), and a licensed store.
 */

let t: TestApp;
let tok: Record<'care' | 'admin' | 'marketing', string>;
const ids = {
  diner: 0,
  cafe: 0,
  pizza: 0,
  bakery: 0,
  closed: 0,
  closedPlan: 0,
  recent: 0,
  fine: 0,
  dinerPlan: 0,
  usPromo: 0,
  caPromo: 0,
};

type Item = {
  store_id: number;
  legal_name: string;
  doing_business_as: string;
  contact_name: string;
  email: string;
  phone: string | null;
  country: string;
  reason: string;
  reason_on: string;
  days_since: number;
  status: string;
  version: number;
  last_invoice_number: string | null;
  last_invoice_cents: number | null;
  last_invoice_status: string | null;
  last_activity: string | null;
};

const get = (url: string, token = tok.care) => t.request({ method: 'GET', url: url.replace('{t}', token) });
const post = (url: string, payload: unknown, token = tok.care, key?: string) =>
  t.request({
    method: 'POST',
    url: `${url}/${token}`,
    payload: payload as Record<string, unknown>,
    headers: key ? { 'idempotency-key': key } : {},
  });
const list = async (query = '') => {
  const res = await get(`/api/breathoflife/{t}${query}`);
  expect(res.statusCode).toBe(200);
  return res.json().info as { items: Item[]; total: number };
};

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = await signInStaff(t, { care: 'Customer Care', admin: 'Admin', marketing: 'Marketing' });
  const db = database.db;
  // The reactivation fee's billing item (30, other charges).
  await ensureBillingItems(db, [BILLING_ITEM_IDS.OTHER_CHARGES]);
  const store = async (legalName: string, dba: string, country: 'US' | 'CA', over: Record<string, unknown> = {}) => {
    const c = await createCustomer(db, { country, legalName, firstName: 'Pat', lastName: dba.split(' ')[0] });
    return createStore(db, { customerId: c.id, country, doingBusinessAs: dba, ...over });
  };
  const diner = await store('Bluebird Diner LLC', 'Bluebird Diner', 'US', {
    licenseExpiresOn: '2026-08-20',
    licenseLapsedOn: '2026-10-01',
  });
  ids.diner = diner.id;
  await createStoreEmail(db, { storeId: diner.id, email: 'billing@bluebird.example', kind: 'billing' });
  ids.dinerPlan = (
    await createPaymentPlan(db, { storeId: diner.id, customerId: diner.customerId, licenseExpiresOn: '2026-08-20' })
  ).id;
  await createInvoice(db, {
    customerId: diner.customerId,
    storeId: diner.id,
    currency: 'USD',
    invoiceNumber: 'INV-2026-0000801',
    issuedOn: '2026-08-01',
  });
  const cafe = await store('Maple Café Inc.', 'Maple Cafe', 'CA', {
    licenseExpiresOn: '2026-09-20',
    licenseLapsedOn: '2026-11-01',
    currency: 'CAD',
  });
  ids.cafe = cafe.id;
  await createPaymentPlan(db, { storeId: cafe.id, customerId: cafe.customerId, licenseExpiresOn: '2026-09-20' });
  const pizza = await store('Fee Pizza Co', 'Fee Pizza', 'US', {
    licenseExpiresOn: '2026-09-05',
    licenseLapsedOn: '2026-10-15',
  });
  ids.pizza = pizza.id;
  await createPaymentPlan(db, { storeId: pizza.id, customerId: pizza.customerId, licenseExpiresOn: '2026-09-05' });
  const bakery = await store('Corner Bakery LLC', 'Corner Bakery', 'US');
  ids.bakery = bakery.id;
  await createPaymentPlan(db, {
    storeId: bakery.id,
    customerId: bakery.customerId,
    status: 'canceled',
    updatedAt: new Date('2026-09-01T15:00:00Z'),
  });
  const closed = await store('Shut Shop LLC', 'Shut Shop', 'US', { status: 'closed', licenseExpiresOn: '2026-07-31' });
  ids.closed = closed.id;
  ids.closedPlan = (
    await createPaymentPlan(db, {
      storeId: closed.id,
      customerId: closed.customerId,
      status: 'canceled',
      licenseExpiresOn: '2026-07-31',
      nextBillingOn: null,
      updatedAt: new Date('2026-07-31T15:00:00Z'),
    })
  ).id;
  const recent = await store('Recent Cancel LLC', 'Recent Cancel', 'US');
  ids.recent = recent.id;
  await createPaymentPlan(db, {
    storeId: recent.id,
    customerId: recent.customerId,
    status: 'canceled',
    updatedAt: new Date('2026-11-10T15:00:00Z'),
  });
  const fine = await store('Licensed Shop LLC', 'Licensed Shop', 'US', { licenseExpiresOn: '2026-12-31' });
  ids.fine = fine.id;
  ids.usPromo = (await createPromotion(db, { code: 'COMEBACK', name: 'Come back', currency: 'USD' })).id;
  await createPromotion(db, { code: 'OLDPROMO', name: 'Retired', currency: 'USD', active: false });
  ids.caPromo = (await createPromotion(db, { code: 'MAPLE', name: 'Maple', currency: 'CAD' })).id;
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/breathoflife/{token}', () => {
  it('lists lapsed and canceled stores, the latest first, with contact, last invoice and reason', async () => {
    const { items, total } = await list();
    expect(total).toBe(5);
    expect(items.map((i) => i.store_id)).toEqual([ids.cafe, ids.pizza, ids.diner, ids.bakery, ids.closed]);
    const diner = items.find((i) => i.store_id === ids.diner)!;
    expect(diner).toMatchObject({
      legal_name: 'Bluebird Diner LLC',
      doing_business_as: 'Bluebird Diner',
      contact_name: 'Pat Bluebird',
      email: 'billing@bluebird.example',
      country: 'US',
      reason: 'lapsed',
      reason_on: '2026-10-01',
      days_since: 52,
      status: 'new',
      version: 0,
      last_invoice_number: 'INV-2026-0000801',
      last_invoice_cents: 79_00,
      last_invoice_status: 'Pending',
      last_activity: null,
    });
    expect(items.find((i) => i.store_id === ids.bakery)).toMatchObject({ reason: 'canceled', reason_on: '2026-09-01' });
  });

  it('filters by reason, country, status and text; sorts; pages; CSV', async () => {
    expect((await list('?reason=canceled')).items.map((i) => i.store_id)).toEqual([ids.bakery, ids.closed]);
    expect((await list('?country=CA')).items.map((i) => i.store_id)).toEqual([ids.cafe]);
    expect((await list('?q=bluebird')).items.map((i) => i.store_id)).toEqual([ids.diner]);
    expect((await list('?status=won')).total).toBe(0);
    expect((await list('?sort=customer')).items.map((i) => i.legal_name)).toEqual([
      'Bluebird Diner LLC',
      'Corner Bakery LLC',
      'Fee Pizza Co',
      'Maple Café Inc.',
      'Shut Shop LLC',
    ]);
    const page = await list('?limit=2&offset=2');
    expect(page.total).toBe(5);
    expect(page.items.map((i) => i.store_id)).toEqual([ids.diner, ids.bakery]);
    expect((await list('?offset=10')).total).toBe(5);
    const csv = await get('/api/breathoflife/{t}?format=csv&country=US');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^store_id,customer_id,legal_name/);
    expect(lines).toHaveLength(5);
  });

  it('400 on a bad filter; 403 without breath_of_life; an admin may', async () => {
    const bad = await get('/api/breathoflife/{t}?reason=moved&status=x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'validation_failed' });
    expect(Object.keys(bad.json().error.fields)).toEqual(expect.arrayContaining(['reason', 'status']));
    expect((await get('/api/breathoflife/{t}', tok.marketing)).statusCode).toBe(403);
    expect((await get(`/api/breathoflife/${ids.diner}/{t}`, tok.marketing)).statusCode).toBe(403);
    expect((await get('/api/breathoflife/{t}', tok.admin)).statusCode).toBe(200);
  });
});

describe('a case', () => {
  it("shows a store's case with the promotions one may offer; 404 for a store not on the list", async () => {
    const res = await get(`/api/breathoflife/${ids.diner}/{t}`);
    expect(res.statusCode).toBe(200);
    const c = res.json().info;
    expect(c).toMatchObject({ store_id: ids.diner, status: 'new', version: 0, reactivation_fee_cents: 50_00 });
    expect(c.activities).toEqual([]);
    expect(c.promotions.map((p: { code: string }) => p.code)).toEqual(['COMEBACK']);
    expect((await get(`/api/breathoflife/${ids.fine}/{t}`)).statusCode).toBe(404);
    expect((await get(`/api/breathoflife/${ids.recent}/{t}`)).statusCode).toBe(404);
  });

  it('logs a call (contacted) and a note; 400 without text; 409 on a stale version; 403; audited', async () => {
    const url = `/api/breathoflife/${ids.diner}/activities`;
    expect((await post(url, { kind: 'call', text: '', version: 0 })).statusCode).toBe(400);
    expect((await post(url, { kind: 'call', text: 'Hi', version: 0 }, tok.marketing)).statusCode).toBe(403);
    const call = await post(url, { kind: 'call', text: 'Left a voicemail', version: 0 });
    expect(call.statusCode).toBe(200);
    expect(call.json().info).toMatchObject({ status: 'contacted', version: 1 });
    const stale = await post(url, { kind: 'note', text: 'Again', version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_conflict');
    const note = await post(url, { kind: 'note', text: 'Owner calls back Monday', version: 1 });
    expect(note.json().info.activities.map((a: { kind: string; text: string }) => [a.kind, a.text])).toEqual([
      ['note', 'Owner calls back Monday'],
      ['call', 'Left a voicemail'],
    ]);
    const row = (await list('?q=bluebird')).items[0]!;
    expect(row).toMatchObject({ status: 'contacted', last_activity: 'Note: Owner calls back Monday' });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'winback_case'), eq(auditLog.action, 'winback_call')));
    expect(audits).toHaveLength(1);
  });

  it('makes an offer: a promotion of another currency or a retired one is 400; the fee waived; 409 stale', async () => {
    const bakery = `/api/breathoflife/${ids.bakery}/offer`;
    expect((await post(bakery, { offer: 'promotion', version: 0 })).json().error.fields).toHaveProperty('promotion_id');
    const cad = await post(bakery, { offer: 'promotion', promotion_id: ids.caPromo, version: 0 });
    expect(cad.statusCode).toBe(400);
    const promo = await post(bakery, { offer: 'promotion', promotion_id: ids.usPromo, version: 0 });
    expect(promo.statusCode).toBe(200);
    expect(promo.json().info).toMatchObject({
      status: 'offer_made',
      offer_kind: 'promotion',
      offer_promotion_code: 'COMEBACK',
    });
    const diner = `/api/breathoflife/${ids.diner}/offer`;
    expect((await post(diner, { offer: 'fee_waived', version: 1 })).statusCode).toBe(409);
    const waived = await post(diner, { offer: 'fee_waived', version: 2 });
    expect(waived.json().info).toMatchObject({ status: 'offer_made', reactivation_fee_cents: null, version: 3 });
  });

  it('records an outcome: lost needs a reason; a closed case takes no offer nor reactivation', async () => {
    const url = `/api/breathoflife/${ids.bakery}/outcome`;
    expect((await post(url, { outcome: 'lost', version: 1 })).json().error.fields).toHaveProperty('reason');
    expect((await post(url, { outcome: 'lost', reason: 'Moved', version: 0 })).statusCode).toBe(409);
    const lost = await post(url, { outcome: 'lost', reason: 'Went to a competitor', version: 1 });
    expect(lost.json().info).toMatchObject({ status: 'lost', outcome_reason: 'Went to a competitor' });
    const again = await post(`/api/breathoflife/${ids.bakery}/reactivate`, { version: 2 }, tok.care, 'k-bakery');
    expect(again.statusCode).toBe(409);
    expect((await list('?status=lost')).items.map((i) => i.store_id)).toEqual([ids.bakery]);
  });
});

describe('POST …/{storeId}/reactivate', () => {
  const mailsTo = (storeId: number) =>
    t.database.db
      .select()
      .from(mailLog)
      .where(and(eq(mailLog.relatedType, 'store'), eq(mailLog.relatedId, String(storeId))));
  const feeInvoices = (storeId: number) =>
    t.database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.storeId, storeId), eq(invoices.type, 'S')));

  it('fee waived: the license and plan are active again, no fee invoice, one payment link; the same key once', async () => {
    const url = `/api/breathoflife/${ids.diner}/reactivate`;
    expect((await post(url, { version: 3 }, tok.marketing, 'k-diner')).statusCode).toBe(403);
    expect((await post(url, { version: 'x' }, tok.care, 'k-diner')).statusCode).toBe(400);
    expect((await post(url, { version: 1 }, tok.care, 'k-stale')).statusCode).toBe(409);
    const first = await post(url, { version: 3 }, tok.care, 'k-diner');
    expect(first.statusCode).toBe(200);
    const second = await post(url, { version: 3 }, tok.care, 'k-diner');
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    const info = first.json().info;
    expect(info).toMatchObject({ fee_invoice_number: null, payment_link_sent_to: 'billing@bluebird.example' });
    expect(info.case).toMatchObject({ status: 'won', version: 4 });
    expect(info.case.activities[0].text).toContain('reactivation fee waived');
    const [store] = await t.database.db.select().from(stores).where(eq(stores.id, ids.diner));
    expect(store).toMatchObject({ licenseLapsedOn: null, licenseExpiresOn: '2026-11-22' });
    const [plan] = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(eq(customerPaymentPlans.id, ids.dinerPlan));
    expect(plan).toMatchObject({ status: 'active', licenseExpiresOn: '2026-11-22' });
    expect(await feeInvoices(ids.diner)).toHaveLength(0);
    const mails = await mailsTo(ids.diner);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'billing@bluebird.example' });
    expect(mails[0]!.text).toContain('/#/customer/payment/');
    // It shows as won.
    expect((await list('?status=won')).items.map((i) => i.store_id)).toEqual([ids.diner]);
  });

  it('without a waiver a US store gets the reactivation fee invoice; a Canadian one none', async () => {
    const pizza = await post(`/api/breathoflife/${ids.pizza}/reactivate`, { version: 0 }, tok.care, 'k-pizza');
    expect(pizza.statusCode).toBe(200);
    expect(pizza.json().info.fee_invoice_number).toMatch(/^INV-2026-/);
    const [fee] = await feeInvoices(ids.pizza);
    expect(fee).toMatchObject({ totalCents: 50_00, currency: 'USD' });
    expect(await mailsTo(ids.pizza)).toHaveLength(1);
    const cafe = await post(`/api/breathoflife/${ids.cafe}/reactivate`, { version: 0 }, tok.care, 'k-cafe');
    expect(cafe.statusCode).toBe(200);
    expect(cafe.json().info.fee_invoice_number).toBeNull();
    expect(await feeInvoices(ids.cafe)).toHaveLength(0);
  });

  it('a closed store with a canceled plan: the plan is re-opened and billed from today, the store active again', async () => {
    const res = await post(`/api/breathoflife/${ids.closed}/reactivate`, { version: 0 }, tok.admin, 'k-closed');
    expect(res.statusCode).toBe(200);
    expect(res.json().info.fee_invoice_number).toMatch(/^INV-2026-/);
    const [plan] = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(eq(customerPaymentPlans.id, ids.closedPlan));
    expect(plan).toMatchObject({ status: 'active', nextBillingOn: '2026-11-22', licenseExpiresOn: '2026-11-22' });
    const [store] = await t.database.db.select().from(stores).where(eq(stores.id, ids.closed));
    expect(store).toMatchObject({ status: 'active', licenseExpiresOn: '2026-11-22' });
    // The same key with another request is refused; an unknown store is 404.
    const reused = await post(`/api/breathoflife/${ids.closed}/reactivate`, { version: 1 }, tok.admin, 'k-closed');
    expect(reused.statusCode).toBe(422);
    expect((await post('/api/breathoflife/999999/reactivate', { version: 0 }, tok.care, 'k-none')).statusCode).toBe(
      404,
    );
    expect(
      (await post('/api/breathoflife/999999/activities', { kind: 'note', text: 'x', version: 0 })).statusCode,
    ).toBe(404);
  });
});
