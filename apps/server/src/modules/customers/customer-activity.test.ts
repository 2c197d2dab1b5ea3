import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createCustomerNote,
  createDomainData,
  createOrder,
  createSalesPerson,
  createStore,
  createStoreEmail,
} from '../../db/factories';
import { auditLog, customerNotes, customers, mailLog, salesHistory } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Customers core (issue 6), the customer's activity: notes, orders, store e-mails, sales person, sales
 * history, the audit trail, and the domain data look-up lists.
 */

let t: TestApp;
let editor: string;
let viewer: string;
let outsider: string;
const BAD_TOKEN = 'Q'.repeat(43);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function get(url: string): Promise<{ status: number; body: Json }> {
  const res = await t.request({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() as Json };
}
async function post(url: string, payload: unknown): Promise<{ status: number; body: Json }> {
  const res = await t.request({ method: 'POST', url, payload: payload as Json });
  return { status: res.statusCode, body: res.json() as Json };
}

beforeAll(async () => {
  t = await createTestApp();
  ({ editor, viewer, outsider } = await signInStaff(t, {
    editor: { role: 'Customer Support', email: 'support@example.com' },
    viewer: 'AR Team',
    outsider: 'Marketing',
  }));
});
afterAll(() => t.close());

// ── Notes ──────────────────────────────────────────────────────────────────────────────────────────

describe('GET/POST /api/customers/{id}/{token}/customernotes', () => {
  it('adds a note by the signed-in user (default order_note), lists newest first, per store, and audits it', async () => {
    const store = await createStore(t.database.db);
    const c = store.customerId;
    t.clock.advance(1000);
    await createCustomerNote(t.database.db, {
      customerId: c,
      storeId: null,
      body: 'Customer-wide note',
      createdAt: new Date('2026-11-01T00:00:00Z'),
    });
    const { status, body } = await post(`/api/customers/${c}/${editor}/customernotes`, {
      customer_store_id: store.id,
      note: '  Called about the install.  ',
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.info).toEqual({
      id: expect.any(Number),
      customer_id: c,
      customer_store_id: store.id,
      note_type: 'order_note',
      note: 'Called about the install.',
      created_by: 'support@example.com',
      created_at: t.clock.now().toISOString(),
    });
    const all = await get(`/api/customers/${c}/${viewer}/customernotes`);
    expect(all.body.info.total).toBe(2);
    expect(all.body.info.items.map((n: Json) => n.note)).toEqual(['Called about the install.', 'Customer-wide note']);
    const ofStore = await get(`/api/customers/${c}/${viewer}/customernotes?customer_store_id=${store.id}`);
    expect(ofStore.body.info).toEqual({ items: [body.info], total: 1 });
    const paged = await get(`/api/customers/${c}/${viewer}/customernotes?limit=1&offset=1`);
    expect(paged.body.info.items.map((n: Json) => n.note)).toEqual(['Customer-wide note']);

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'customer_note'));
    expect(audit.filter((a) => a.entityId === String(body.info.id))).toEqual([
      expect.objectContaining({
        action: 'customer_note_create',
        actorEmail: 'support@example.com',
        customerId: c,
        after: {
          customer_id: c,
          customer_store_id: store.id,
          note_type: 'order_note',
          note: 'Called about the install.',
        },
      }),
    ]);
  });

  it('bad input → 400 with field messages; a store of another customer → 404 on customer_store_id (like a missing one)', async () => {
    const c = await createCustomer(t.database.db);
    const other = await createStore(t.database.db);
    const url = `/api/customers/${c.id}/${editor}/customernotes`;
    expect((await post(url, { note: '   ' })).body.error.fields).toEqual({ note: 'Write the note.' });
    expect((await post(url, { note: 'x'.repeat(4001) })).body.error.fields).toEqual({
      note: 'A note has at most 4000 characters.',
    });
    expect((await post(url, { note: 'x', note_type: 'gossip' })).body.error.fields).toEqual({
      note_type: 'Choose one of order_note, status_reason.',
    });
    const foreign = await post(url, { note: 'x', customer_store_id: other.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.fields.customer_store_id).toMatch(/not a store of customer/);
    expect(await t.database.db.select().from(customerNotes).where(eq(customerNotes.customerId, c.id))).toEqual([]);
  });

  it('unknown customer → 404; a store filter of another customer → 404; view-only POST → 403; no session → 403', async () => {
    const c = await createCustomer(t.database.db);
    const other = await createStore(t.database.db);
    expect((await post(`/api/customers/2000000000/${editor}/customernotes`, { note: 'x' })).status).toBe(404);
    expect((await get(`/api/customers/2000000000/${viewer}/customernotes`)).body.error.code).toBe('not_found');
    expect((await get(`/api/customers/${c.id}/${viewer}/customernotes?customer_store_id=${other.id}`)).status).toBe(
      404,
    );
    const forged = await post(`/api/customers/${c.id}/${viewer}/customernotes`, { note: 'forged' });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('forbidden');
    expect((await get(`/api/customers/${c.id}/${BAD_TOKEN}/customernotes`)).status).toBe(403);
    expect((await get(`/api/customers/${c.id}/${outsider}/customernotes`)).status).toBe(403);
    expect(await t.database.db.select().from(customerNotes).where(eq(customerNotes.customerId, c.id))).toEqual([]);
  });
});

// ── Orders ─────────────────────────────────────────────────────────────────────────────────────────

describe('GET /api/customers/{id}/{token}/customerorders', () => {
  it("lists the customer's orders newest first with status labels, store and money; by store; sorted", async () => {
    const db = t.database.db;
    const s1 = await createStore(db, { country: 'CA', doingBusinessAs: 'Order Store One', salesRep: 'Sam Rep' });
    const s2 = await createStore(db, { customerId: s1.customerId, doingBusinessAs: 'Order Store Two' });
    const old = await createOrder(db, {
      storeId: s1.id,
      status: '150',
      totalSaleCents: 129_900,
      orderDate: new Date('2026-01-05T10:00:00Z'),
    });
    const recent = await createOrder(db, {
      storeId: s2.id,
      status: '121',
      totalSaleCents: 5_000,
      orderDate: new Date('2026-10-05T10:00:00Z'),
    });
    await createOrder(db, { status: '1' }); // someone else's

    const { status, body } = await get(`/api/customers/${s1.customerId}/${viewer}/customerorders`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.info.total).toBe(2);
    expect(body.info.items.map((o: Json) => o.order_id)).toEqual([recent.id, old.id]);
    expect(body.info.items[1]).toEqual({
      order_id: old.id,
      unified_order_id: old.unifiedOrderId,
      status: '150',
      status_label: 'Complete',
      flow: 'AR',
      order_type: 'P',
      store_id: s1.id,
      store_name: s1.storeName,
      sales_rep: 'Sam Rep',
      order_date: '2026-01-05T10:00:00.000Z',
      submitted_at: null,
      completed_at: null,
      updated_at: expect.any(String),
      total_sale_cents: 129_900,
      currency: 'CAD',
    });
    expect(body.info.items[0]).toMatchObject({ status: '121', status_label: 'Pending AR Approval' });
    const byStore = await get(`/api/customers/${s1.customerId}/${viewer}/customerorders?storeid=${s2.id}`);
    expect(byStore.body.info.items.map((o: Json) => o.order_id)).toEqual([recent.id]);
    const byTotal = await get(`/api/customers/${s1.customerId}/${viewer}/customerorders?sort=-total_sale_cents`);
    expect(byTotal.body.info.items.map((o: Json) => o.order_id)).toEqual([old.id, recent.id]);
  });

  it('400 for a bad sort; 404 for an unknown customer or a store of another; 403 without privilege', async () => {
    const c = await createCustomer(t.database.db);
    const other = await createStore(t.database.db);
    expect((await get(`/api/customers/${c.id}/${viewer}/customerorders?sort=secret`)).body.error.fields.sort).toMatch(
      /Sort by one of/,
    );
    expect((await get(`/api/customers/2000000000/${viewer}/customerorders`)).status).toBe(404);
    const foreign = await get(`/api/customers/${c.id}/${viewer}/customerorders?storeid=${other.id}`);
    expect(foreign.status).toBe(404);
    // The same answer as the account tabs give for another customer's store (http/customer-refs.ts).
    expect(foreign.body.error.fields).toEqual({ storeid: `Store ${other.id} is not a store of customer ${c.id}.` });
    expect((await get(`/api/customers/${c.id}/${outsider}/customerorders`)).status).toBe(403);
    expect((await get(`/api/customers/${c.id}/${BAD_TOKEN}/customerorders`)).status).toBe(403);
  });
});

// ── Store e-mails ──────────────────────────────────────────────────────────────────────────────────

describe('GET /api/customers/stores/{storeId}/{token}/emails', () => {
  it("lists the store's addresses (primary first), the customer's e-mail, and the mail sent to them", async () => {
    const db = t.database.db;
    const store = await createStore(db);
    const [c] = await db.select().from(customers).where(eq(customers.id, store.customerId));
    const billing = await createStoreEmail(db, {
      storeId: store.id,
      email: 'billing.shop@example.org',
      kind: 'billing',
      isPrimary: false,
    });
    const general = await createStoreEmail(db, {
      storeId: store.id,
      email: 'shop@example.org',
      kind: 'general',
      isPrimary: true,
    });
    const base = {
      subject: 'Update your payment method',
      template: 'update-payment',
      status: 'stored',
      createdAt: new Date('2026-11-01T00:00:00Z'),
    };
    await db.insert(mailLog).values([
      { ...base, to: 'shop@example.org' },
      {
        ...base,
        to: 'someone.else@example.org',
        relatedType: 'store',
        relatedId: String(store.id),
        createdAt: new Date('2026-11-02T00:00:00Z'),
      },
      { ...base, to: 'unrelated@example.org' },
    ]);
    const { status, body } = await get(`/api/customers/stores/${store.id}/${viewer}/emails`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.info.store_id).toBe(store.id);
    expect(body.info.customer_id).toBe(store.customerId);
    expect(body.info.emails).toEqual([
      { id: general.id, email: 'shop@example.org', kind: 'general', is_primary: true, source: 'store' },
      { id: billing.id, email: 'billing.shop@example.org', kind: 'billing', is_primary: false, source: 'store' },
      { id: null, email: c!.email, kind: 'customer', is_primary: false, source: 'customer' },
    ]);
    expect(body.info.sent.map((m: Json) => m.to)).toEqual(['someone.else@example.org', 'shop@example.org']);
    expect(body.info.sent[1]).toMatchObject({
      subject: 'Update your payment method',
      template: 'update-payment',
      status: 'stored',
      sent_at: null,
    });
  });

  it('404 for an unknown store; 400 for a bad id; 403 without session or privilege', async () => {
    const store = await createStore(t.database.db);
    expect((await get(`/api/customers/stores/2000000000/${viewer}/emails`)).status).toBe(404);
    expect((await get(`/api/customers/stores/abc/${viewer}/emails`)).body.error.fields).toEqual({
      storeId: 'Enter a number.',
    });
    expect((await get(`/api/customers/stores/${store.id}/${BAD_TOKEN}/emails`)).status).toBe(403);
    expect((await get(`/api/customers/stores/${store.id}/${outsider}/emails`)).status).toBe(403);
  });
});

// ── Sales person and sales history ─────────────────────────────────────────────────────────────────

describe('GET /api/salesperson/{id}/{token}', () => {
  it('answers the sales person (id = sales person id) with the count of their customers', async () => {
    const sp = await createSalesPerson(t.database.db, { name: 'Pat Seller', salesChannel: 'RAM' });
    await createCustomer(t.database.db, { salesPersonId: sp.id });
    await createCustomer(t.database.db, { salesPersonId: sp.id });
    const { status, body } = await get(`/api/salesperson/${sp.id}/${viewer}`);
    expect(status).toBe(200);
    expect(body.info).toEqual({
      id: sp.id,
      name: 'Pat Seller',
      email: sp.email,
      phone: sp.phone,
      sales_channel: 'RAM',
      agent_id: null,
      active: true,
      customers: 2,
    });
    expect((await get(`/api/salesperson/2000000000/${viewer}`)).status).toBe(404);
    expect((await get(`/api/salesperson/0/${viewer}`)).status).toBe(400);
    expect((await get(`/api/salesperson/${sp.id}/${outsider}`)).status).toBe(403);
    expect((await get(`/api/salesperson/${sp.id}/${BAD_TOKEN}`)).status).toBe(403);
  });
});

describe('GET /api/saleshistory/{id}/{token}', () => {
  it('answers 24 months up to the current one (zeros filled), per store or for the customer, with totals', async () => {
    const db = t.database.db;
    const sp = await createSalesPerson(db);
    const s1 = await createStore(db, { country: 'CA' });
    const s2 = await createStore(db, { customerId: s1.customerId });
    const row = (storeId: number, periodMonth: string, units: number, amountCents: number) => ({
      salesPersonId: sp.id,
      customerId: s1.customerId,
      storeId,
      periodMonth,
      units,
      amountCents,
      currency: 'CAD',
    });
    await db.insert(salesHistory).values([
      row(s1.id, '2026-11-01', 3, 30_000),
      row(s2.id, '2026-11-01', 1, 5_000),
      row(s1.id, '2024-12-01', 2, 20_000), // the first of the 24 months (clock: 2026-11-22)
      row(s1.id, '2024-11-01', 9, 90_000), // 25 months ago: outside
    ]);
    const { status, body } = await get(`/api/saleshistory/${s1.customerId}/${viewer}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const info = body.info as Json;
    expect(info).toMatchObject({
      customer_id: s1.customerId,
      store_id: null,
      currency: 'CAD',
      from_month: '2024-12-01',
      to_month: '2026-11-01',
    });
    expect(info.months).toHaveLength(24);
    expect(info.months[0]).toEqual({ period_month: '2024-12-01', units: 2, amount_cents: 20_000, currency: 'CAD' });
    expect(info.months[1]).toEqual({ period_month: '2025-01-01', units: 0, amount_cents: 0, currency: 'CAD' });
    expect(info.months[23]).toEqual({ period_month: '2026-11-01', units: 4, amount_cents: 35_000, currency: 'CAD' });
    expect(info.totals).toEqual([{ currency: 'CAD', units: 6, amount_cents: 55_000 }]);

    const one = await get(`/api/saleshistory/${s1.customerId}/${viewer}?storeid=${s2.id}`);
    expect(one.body.info.store_id).toBe(s2.id);
    expect(one.body.info.totals).toEqual([{ currency: 'CAD', units: 1, amount_cents: 5_000 }]);
  });

  it('404 for an unknown customer or a store of another; 400 for bad input; 403 without privilege', async () => {
    const c = await createCustomer(t.database.db);
    const other = await createStore(t.database.db);
    expect((await get(`/api/saleshistory/2000000000/${viewer}`)).status).toBe(404);
    expect((await get(`/api/saleshistory/${c.id}/${viewer}?storeid=${other.id}`)).status).toBe(404);
    expect((await get(`/api/saleshistory/${c.id}/${viewer}?storeid=-1`)).body.error.fields).toEqual({
      storeid: 'Enter a positive number.',
    });
    expect((await get(`/api/saleshistory/${c.id}/${outsider}`)).status).toBe(403);
    expect((await get(`/api/saleshistory/${c.id}/${BAD_TOKEN}`)).status).toBe(403);
  });
});

// ── Audit trail ────────────────────────────────────────────────────────────────────────────────────

describe('GET /api/customers/{id}/audit/{token}', () => {
  it("lists the customer's entries newest first: its own, its stores', and any naming it as customer_id", async () => {
    const db = t.database.db;
    const store = await createStore(db);
    const c = store.customerId;
    const stranger = await createCustomer(db);
    await t.request({ method: 'PUT', url: `/api/customerinfo/${c}/${editor}`, payload: { version: 1, title: 'Boss' } });
    t.clock.advance(1000);
    await t.request({
      method: 'PUT',
      url: `/api/storeinfo/${store.id}/${editor}`,
      payload: { version: 1, store_name: 'Renamed' },
    });
    t.clock.advance(1000);
    // Another part's entry (e.g. a terminal retired) that names the customer in `after`.
    await writeAudit(db, {
      actorType: 'system',
      at: t.clock.now(),
      action: 'terminal_retire',
      entity: 'terminal',
      entityId: 77,
      after: { customer_id: c, status: 'retired' },
    });
    // An entry about the customer written without customer_id.
    await writeAudit(db, {
      actorType: 'system',
      at: t.clock.now(),
      action: 'legacy_touch',
      entity: 'customer',
      entityId: c,
    });
    await writeAudit(db, {
      actorType: 'system',
      at: t.clock.now(),
      action: 'noise',
      entity: 'customer',
      entityId: stranger.id,
      after: { customer_id: stranger.id },
    });

    const { status, body } = await get(`/api/customers/${c}/audit/${viewer}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.info.total).toBe(4);
    expect(body.info.items.map((e: Json) => e.action)).toEqual([
      'legacy_touch',
      'terminal_retire',
      'store_update',
      'customer_update',
    ]);
    expect(body.info.items[2]).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      actor_type: 'staff',
      actor_email: 'support@example.com',
      action: 'store_update',
      entity: 'store',
      entity_id: String(store.id),
      before: { customer_id: c, store_id: store.id, store_name: store.storeName },
      after: { customer_id: c, store_id: store.id, store_name: 'Renamed' },
    });
    const page = await get(`/api/customers/${c}/audit/${viewer}?limit=1&offset=3`);
    expect(page.body.info).toMatchObject({ total: 4, items: [{ action: 'customer_update' }] });
  });

  it('404 for an unknown customer; 400 for bad paging; 403 without session or privilege', async () => {
    const c = await createCustomer(t.database.db);
    expect((await get(`/api/customers/2000000000/audit/${viewer}`)).status).toBe(404);
    expect((await get(`/api/customers/${c.id}/audit/${viewer}?limit=501`)).status).toBe(400);
    expect((await get(`/api/customers/${c.id}/audit/${outsider}`)).status).toBe(403);
    expect((await get(`/api/customers/${c.id}/audit/${BAD_TOKEN}`)).status).toBe(403);
  });
});

// ── Domain data ────────────────────────────────────────────────────────────────────────────────────

describe('GET /api/domaindata/{token}?type=', () => {
  it('lists the active entries of a type in display order, for any signed-in user', async () => {
    const db = t.database.db;
    const closed = await createDomainData(db, {
      type: 'retire_reason',
      code: 'store_closed',
      label: 'Store closed',
      sortOrder: 2,
    });
    const defective = await createDomainData(db, {
      type: 'retire_reason',
      code: 'defective',
      label: 'Defective hardware',
      sortOrder: 1,
    });
    await createDomainData(db, {
      type: 'retire_reason',
      code: 'old_reason',
      label: 'No longer used',
      sortOrder: 0,
      active: false,
    });
    await createDomainData(db, { type: 'business_type', code: 'llc', label: 'LLC' });
    const { status, body } = await get(`/api/domaindata/${outsider}?type=retire_reason`);
    expect(status).toBe(200);
    expect(body.info).toEqual({
      type: 'retire_reason',
      items: [
        { id: defective.id, code: 'defective', label: 'Defective hardware' },
        { id: closed.id, code: 'store_closed', label: 'Store closed' },
      ],
    });
  });

  it('an unknown or missing type → 400; no session → 403', async () => {
    const unknown = await get(`/api/domaindata/${viewer}?type=colours`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.type).toMatch(/Choose a type: retire_reason/);
    expect((await get(`/api/domaindata/${viewer}`)).status).toBe(400);
    expect((await get(`/api/domaindata/${BAD_TOKEN}?type=retire_reason`)).status).toBe(403);
  });
});
