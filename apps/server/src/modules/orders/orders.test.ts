import { blankOrder, orderDraft, type OrderDocument } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createCustomer, createDistributorAccount, createOrder, createStore } from '../../db/factories';
import { agentOrders, auditLog, orderStatusHistory, orders } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { completeOrder } from '../../test/orders';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Orders (issue 7, part C): the order document (GET/POST orderinfo), the role queues, the pending lists and the
 * deliberate test error. One app per file; each test makes the orders it changes.
 */

let t: TestApp;
/** Admin: everything, queue Draft. */
let admin: string;
/** RAM (internal sales): search_orders_* + create_distributor_orders, may submit. */
let sales: string;
/** AR Team: search_orders_view/edit, queue Pending AR Approval; may save but not submit. */
let ar: string;
/** Marketing: search_orders_view only (queue Complete). */
let marketing: string;
/** Distributor of agent A. */
let distributor: string;
let agentA: number;
let agentB: number;
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
const info = (tok: string, query = '') => `/api/customers/orderinfo/${tok}${query ? `?${query}` : ''}`;
const save = (id: number | string, tok: string) => `/api/customers/orderinfo/${id}/${tok}`;
const pending = (tok: string, query: string) => `/api/customers/orderinfo/pending/${tok}?${query}`;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  ({ admin, sales, ar, marketing } = await signInStaff(t, {
    admin: 'Admin',
    sales: { role: 'RAM', email: 'ram@example.com' },
    ar: 'AR Team',
    marketing: 'Marketing',
  }));
  agentA = (await createAgent(db, { type: 'Distributor' })).id;
  agentB = (await createAgent(db, { type: 'Distributor' })).id;
  await createDistributorAccount(db, {
    email: 'dist-orders@example.com',
    password: 'distributor-demo',
    agentId: agentA,
  });
  const login = await t.request({
    method: 'POST',
    url: '/api/auth/distributor/login',
    payload: { email: 'dist-orders@example.com', password: 'distributor-demo' },
  });
  if (login.statusCode !== 200) throw new Error(login.body);
  distributor = login.json().info.token as string;
});
afterAll(() => t.close());

describe('POST /api/customers/orderinfo/{orderInfoId}/{token}', () => {
  it("'new' creates a Draft with a unified order id, its history row and an audit entry; the document keeps the indexed columns in step", async () => {
    const doc = completeOrder();
    const { status, body } = await post(save('new', sales), { json: doc });
    expect(status, JSON.stringify(body)).toBe(200);
    const { orderInfoId, unifiedOrderId, version } = body.info;
    expect(body.info.status).toBe('1');
    expect(unifiedOrderId).toBe(`UO-20261122-${orderInfoId}`);
    expect(version).toBe(1);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderInfoId));
    expect(row).toMatchObject({
      status: '1',
      createdByEmail: 'ram@example.com',
      agentId: null,
      fedTaxId: '41-7100001',
      legalName: 'Ada Holdings LLC',
      dbaName: 'Ada Mart',
      salesRep: 'Dana Whitfield',
      totalSaleCents: 149950,
      country: 'US',
      currency: 'USD',
    });
    expect(row!.document).toMatchObject({ orderInfoId, unifiedOrderId, totalSalePrice: '1499.50' });
    const history = await t.database.db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, orderInfoId));
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.changedByEmail])).toEqual([[null, '1', 'ram@example.com']]);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(orderInfoId))));
    expect(audit.map((a) => a.action)).toEqual(['order.create']);
  });

  it('a draft may be incomplete; a Canadian store sets country and currency', async () => {
    const doc = blankOrder();
    doc.StoreInfo!.StoreAddress = { address1: '1 Rue', city: 'Ottawa', state: 'ON', zip: 'K1A 0B1', country: 'CA' };
    const { status, body } = await post(save('new', admin), { json: doc });
    expect(status, JSON.stringify(body)).toBe(200);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, body.info.orderInfoId));
    expect(row).toMatchObject({ country: 'CA', currency: 'CAD', totalSaleCents: 0, legalName: null });
  });

  it('400 for a malformed draft, with field paths of the document', async () => {
    const doc = blankOrder();
    doc.CustomerInfo!.email = 'nope';
    doc.HomeAddress!.zip = '123';
    doc.PaymentInstrumentInfo![1]!.creditCardNumber = '4111111111111111';
    const { status, body } = await post(save('new', sales), { json: doc });
    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_failed');
    expect(Object.keys(body.error.fields).sort()).toEqual([
      'CustomerInfo.email',
      'HomeAddress.zip',
      'PaymentInstrumentInfo.1.creditCardNumber',
    ]);
    expect(JSON.stringify(await t.database.db.select({ d: orders.document }).from(orders))).not.toContain(
      '4111111111111111',
    );
  });

  it('400 for a bad body or id, and an update without version', async () => {
    expect((await post(save('new', sales), { nothing: true })).status).toBe(400);
    expect((await post(save('new', sales), { json: 'text' })).status).toBe(400);
    expect((await post(save('0', sales), { json: {} })).status).toBe(400);
    expect((await post(save('abc', sales), { json: {} })).status).toBe(400);
    const order = await createOrder(t.database.db);
    const res = await post(save(order.id, sales), { json: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toHaveProperty('version');
  });

  it('403 without a write privilege or session, 404 for an unknown order', async () => {
    const m = await post(save('new', marketing), { json: {} });
    expect([m.status, m.body.error.code]).toEqual([403, 'forbidden']);
    expect((await post(save('new', BAD_TOKEN), { json: {} })).status).toBe(403);
    const missing = await post(save(99_999_999, admin), { json: {}, version: 1 });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
  });

  it('updates with the version read; a stale version → 409 version_conflict with the current order', async () => {
    const order = await createOrder(t.database.db);
    const doc = { ...(order.document as OrderDocument), salesRep: 'Rory Q', totalSalePrice: '20.00' };
    const ok = await post(save(order.id, ar), { json: doc, version: order.version });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.info).toMatchObject({ orderInfoId: order.id, status: '1', version: order.version + 1 });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({ salesRep: 'Rory Q', totalSaleCents: 2000, unifiedOrderId: order.unifiedOrderId });
    expect(row!.document).toMatchObject({ orderInfoId: order.id, unifiedOrderId: order.unifiedOrderId });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(order.id))));
    expect(audit[0]).toMatchObject({ action: 'order.update', actorEmail: 'ar@example.com' });
    expect(audit[0]!.after).toMatchObject({ changed: ['salesRep', 'totalSalePrice'] });

    const stale = await post(save(order.id, ar), { json: doc, version: order.version });
    expect([stale.status, stale.body.error.code]).toEqual([409, 'version_conflict']);
    expect(stale.body.error.current).toMatchObject({ orderInfoId: order.id, version: order.version + 1 });
  });

  it('two concurrent saves of one order with the same version → exactly one 409', async () => {
    const order = await createOrder(t.database.db);
    const doc = order.document as OrderDocument;
    const results = await Promise.all([
      post(save(order.id, ar), { json: { ...doc, salesRep: 'First' }, version: order.version }),
      post(save(order.id, admin), { json: { ...doc, salesRep: 'Second' }, version: order.version }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.version).toBe(order.version + 1);
    const winner = results.find((r) => r.status === 200)!;
    expect(row!.salesRep).toBe(winner === results[0] ? 'First' : 'Second');
  });

  it('a complete order cannot change (409)', async () => {
    const order = await createOrder(t.database.db, { status: '150' });
    const res = await post(save(order.id, admin), { json: {}, version: order.version });
    expect([res.status, res.body.error.code]).toEqual([409, 'conflict']);
  });

  describe('submit', () => {
    it('400 with the missing fields when the order is incomplete; the order stays a Draft', async () => {
      const created = await post(save('new', sales), { json: blankOrder() });
      const res = await post(save(created.body.info.orderInfoId, sales), {
        json: blankOrder(),
        version: 1,
        submit: true,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toHaveProperty(['CustomerInfo.email']);
      expect(res.body.error.fields).toHaveProperty(['StoreInfo.StoreAddress.zip']);
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, created.body.info.orderInfoId));
      expect([row!.status, row!.version]).toEqual(['1', 1]);
    });

    it('moves Draft → Pending Contract Sign (11) with history and audit', async () => {
      const created = await post(save('new', sales), { json: blankOrder() });
      const id = created.body.info.orderInfoId as number;
      const res = await post(save(id, sales), { json: completeOrder(), version: 1, submit: true });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.info).toMatchObject({ status: '11', version: 3 });
      const history = await t.database.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, id));
      expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([
        [null, '1'],
        ['1', '11'],
      ]);
      const audit = await t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(id))));
      // The submit also makes the contract and e-mails the merchant its signing link (decision 082).
      expect(audit.map((a) => a.action).sort()).toEqual([
        'contract.generate',
        'contract.sign_link_sent',
        'order.create',
        'order.status',
        'order.update',
      ]);
      const again = await post(save(id, sales), { json: completeOrder(), version: 3, submit: true });
      expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
    });

    it('a submit with a new order moves it straight to 11; Incomplete may be submitted too', async () => {
      const created = await post(save('new', sales), { json: completeOrder(), submit: true });
      expect(created.body.info.status).toBe('11');
      const incomplete = await createOrder(t.database.db, { status: '2' });
      const res = await post(save(incomplete.id, sales), {
        json: completeOrder(),
        version: incomplete.version,
        submit: true,
      });
      expect(res.body.info?.status, JSON.stringify(res.body)).toBe('11');
    });

    it('403 for a role outside the Draft queue (AR Team), and nothing is saved', async () => {
      const order = await createOrder(t.database.db);
      const res = await post(save(order.id, ar), { json: completeOrder(), version: order.version, submit: true });
      expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
      expect([row!.status, row!.version]).toEqual(['1', order.version]);
    });
  });
});

describe('GET /api/customers/orderinfo/{token}', () => {
  it('returns one order by id or unifiedid with status and version; the factory document is a valid draft', async () => {
    const customer = await createCustomer(t.database.db);
    const store = await createStore(t.database.db, { customerId: customer.id });
    const order = await createOrder(t.database.db, { storeId: store.id, status: '121' });
    for (const q of [`id=${order.id}`, `unifiedid=${order.unifiedOrderId}`]) {
      const { status, body } = await get(info(marketing, q));
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.info.order).toMatchObject({
        orderInfoId: order.id,
        unifiedOrderId: order.unifiedOrderId,
        status: '121',
        version: order.version,
        customer_id: customer.id,
      });
      expect(body.info.order.json.orderInfoId).toBe(order.id);
    }
    expect(orderDraft.safeParse(order.document).success).toBe(true);
  });

  it('400 for bad query, 403 without session, 404 unknown', async () => {
    expect((await get(info(admin, 'id=abc'))).status).toBe(400);
    expect((await get(info(admin, 'id=1&unifiedid=x'))).status).toBe(400);
    expect((await get(info(admin, 'limit=0'))).status).toBe(400);
    expect((await get(info(BAD_TOKEN, 'id=1'))).status).toBe(403);
    expect((await get(info(admin, 'id=99999999'))).status).toBe(404);
    expect((await get(info(admin, 'unifiedid=UO-none'))).status).toBe(404);
  });

  it("without id: the caller's queue, the status its role starts from, paged", async () => {
    const a = await createOrder(t.database.db, { status: '121' });
    const b = await createOrder(t.database.db, { status: '121' });
    const other = await createOrder(t.database.db, { status: '140' });
    const { status, body } = await get(info(ar, 'limit=500'));
    expect(status).toBe(200);
    expect(body.info.queue.status).toBe('121');
    const ids = (body.info.queue.items as Json[]).map((i) => i.orderInfoId);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(ids).not.toContain(other.id);
    expect(new Set((body.info.queue.items as Json[]).map((i) => i.status))).toEqual(new Set(['121']));
    expect(body.info.queue.total).toBe(ids.length);
    const page = await get(info(ar, 'limit=1&offset=1'));
    expect(page.body.info.queue.items).toHaveLength(1);
    expect(page.body.info.queue.total).toBe(ids.length);
    const mk = await get(info(marketing));
    expect(mk.body.info.queue.status).toBe('150');
    expect((await get(info(admin))).body.info.queue.status).toBe('1');
  });
});

describe('a distributor works only on its own agent’s orders', () => {
  it('creates orders for its agent, sees them (and assigned ones) in its queue, not another agent’s', async () => {
    const created = await post(save('new', distributor), { json: blankOrder() });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.info.orderInfoId as number;
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(row!.agentId).toBe(agentA);
    const foreign = await createOrder(t.database.db, { agentId: agentB });
    const assigned = await createOrder(t.database.db, { agentId: agentB });
    await t.database.db
      .insert(agentOrders)
      .values({ agentId: agentA, orderId: assigned.id, assignedByEmail: 'admin@example.com' });

    const queue = await get(info(distributor, 'limit=500'));
    const ids = (queue.body.info.queue.items as Json[]).map((i) => i.orderInfoId);
    expect(ids).toEqual(expect.arrayContaining([id, assigned.id]));
    expect(ids).not.toContain(foreign.id);

    expect((await get(info(distributor, `id=${assigned.id}`))).status).toBe(200);
    // Decision 102: another agent's order is answered as if it did not exist.
    const read = await get(info(distributor, `id=${foreign.id}`));
    expect([read.status, read.body.error]).toEqual([
      404,
      { code: 'not_found', message: `Order ${foreign.id} was not found.` },
    ]);
    const byUnifiedId = await get(info(distributor, `unifiedid=${foreign.unifiedOrderId}`));
    expect([byUnifiedId.status, byUnifiedId.body.error.message]).toEqual([
      404,
      `Order ${foreign.unifiedOrderId} was not found.`,
    ]);
    const write = await post(save(foreign.id, distributor), { json: {}, version: foreign.version });
    expect([write.status, write.body.error.code]).toEqual([404, 'not_found']);
    const [untouched] = await t.database.db.select().from(orders).where(eq(orders.id, foreign.id));
    expect(untouched!.version).toBe(foreign.version);
  });

  it('cannot change its order once it is past Draft/Incomplete', async () => {
    const order = await createOrder(t.database.db, { agentId: agentA, status: '121' });
    const res = await post(save(order.id, distributor), { json: {}, version: order.version });
    expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
  });
});

describe('GET /api/customers/orderinfo/pending/{token}', () => {
  it('type=ar lists 121/125/126, type=ram lists 11, with data as JSON text; id narrows to one', async () => {
    const inAr = await Promise.all(['121', '125', '126'].map((s) => createOrder(t.database.db, { status: s })));
    const inRam = await createOrder(t.database.db, { status: '11', salesRep: 'Pat Ram' });
    const arList = await get(pending(ar, 'type=ar'));
    expect(arList.status).toBe(200);
    const arIds = (arList.body.info.orders as Json[]).map((o) => o.id);
    expect(arIds).toEqual(expect.arrayContaining(inAr.map((o) => o.id)));
    expect(arIds).not.toContain(inRam.id);
    expect(new Set((arList.body.info.orders as Json[]).map((o) => o.status))).toEqual(new Set(['121', '125', '126']));

    const ramList = await get(pending(ar, `type=ram&id=${inRam.id}`));
    expect(ramList.body.info.orders).toHaveLength(1);
    const [one] = ramList.body.info.orders as Json[];
    expect(one).toMatchObject({ id: inRam.id, status: '11', sales_rep: 'Pat Ram' });
    expect(JSON.parse(one!.data as string)).toMatchObject({ orderInfoId: inRam.id });
    expect((await get(pending(ar, `type=ram&id=${inAr[0]!.id}`))).body.info.orders).toEqual([]);
  });

  it('400 for a bad type, 403 without session', async () => {
    expect((await get(pending(ar, 'type=xx'))).status).toBe(400);
    expect((await get(pending(ar, ''))).status).toBe(400);
    expect((await get(pending(BAD_TOKEN, 'type=ar'))).status).toBe(403);
  });
});

describe('GET /api/customers/{token}/error/test', () => {
  it('answers a 500 test_error envelope, and 403 without a session', async () => {
    const { status, body } = await get(`/api/customers/${admin}/error/test`);
    expect(status).toBe(500);
    expect(body.error).toMatchObject({ code: 'test_error' });
    expect(body.error.message).toMatch(/deliberate/);
    expect((await get(`/api/customers/${BAD_TOKEN}/error/test`)).status).toBe(403);
  });
});

describe('OpenAPI document', () => {
  it('describes the order routes', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const doc = res.json() as Json;
    expect(doc.paths['/api/customers/orderinfo/{token}']?.get?.parameters?.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['id', 'unifiedid', 'limit', 'offset']),
    );
    expect(doc.paths['/api/customers/orderinfo/pending/{token}']?.get?.parameters?.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['type', 'id']),
    );
    expect(doc.paths).toHaveProperty(['/api/customers/orderinfo/{orderInfoId}/{token}', 'post']);
    expect(doc.paths).toHaveProperty(['/api/customers/{token}/error/test', 'get']);
  });
});
