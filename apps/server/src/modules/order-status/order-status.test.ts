import {
  ORDER_STATUS_CODES,
  ROLES,
  canTransition,
  effectivePrivileges,
  isAgentScoped,
  mayTransition,
  transitionRequiresReason,
  type OrderStatusCode,
  type Role,
} from '@pos/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createCustomer,
  createDistributorAccount,
  createOrder,
  createOrderNote,
  createStaffUser,
  createStatusReason,
  createStore,
} from '../../db/factories';
import { auditLog, orderNotes, orders, orderStatusHistory } from '../../db/schema';
import { signIn } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Order status reasons, notes, history and status changes (issue 7, part A; decisions 071–073).
 * One app per file; one signed-in staff user per role; each test makes the orders it changes.
 */

let t: TestApp;
const tokens = new Map<Role, string>();
const tok = (role: Role) => tokens.get(role)!;
const BAD_TOKEN = 'Q'.repeat(43);
/** A reason for each status that needs one. */
const reasons = new Map<OrderStatusCode, number>();

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await t.request({ method, url, ...(payload !== undefined && { payload: payload as Json }) });
  return { status: res.statusCode, body: res.json() as Json };
}
const changeStatus = (role: Role, payload: Json) => call('PUT', `/api/customers/ordernotes/${tok(role)}`, payload);
const emailOf = (role: Role) => `${role.toLowerCase().replace(/ /g, '-')}@example.com`;

let storeId: number;
/** The agent of the staff users whose role is agent-scoped (Distributor, RDC: decision 102). */
let staffAgentId: number;
/** The agent an order must have for `role` to see it (none needed for an unscoped role). */
const agentFor = (role: Role) => (isAgentScoped({ kind: 'staff', role }) ? staffAgentId : null);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  staffAgentId = (await createAgent(db, { type: 'RDC' })).id;
  for (const role of ROLES) await createStaffUser(db, { email: emailOf(role), role, agentId: agentFor(role) });
  for (const role of ROLES) tokens.set(role, await signIn(t, emailOf(role)));
  // Orders moved to Complete are onboarded: they need a store (its address), as a submitted order has.
  storeId = (await createStore(db)).id;
  for (const status of ORDER_STATUS_CODES.filter(transitionRequiresReason)) {
    reasons.set(status, (await createStatusReason(db, { status, reason: `Reason for ${status}` })).id);
  }
});
afterAll(() => t.close());

describe('GET /api/customers/orderstatus/{token}', () => {
  it('lists reasons grouped by status, in workflow and sort order; ?status= filters', async () => {
    await createStatusReason(t.database.db, { status: '3', reason: 'Aaa first by sort', sortOrder: -1 });
    const all = await call('GET', `/api/customers/orderstatus/${tok('AR Team')}`);
    expect(all.status).toBe(200);
    const statuses = (all.body.info.statuses as Json[]).map((s) => s.status);
    expect(statuses).toEqual(['3', '141', '142']);
    expect(all.body.info.statuses[0]).toMatchObject({
      label: 'Rejected',
      reasons: [{ reason: 'Aaa first by sort', sort_order: -1 }, { reason: 'Reason for 3' }],
    });
    const one = await call('GET', `/api/customers/orderstatus/${tok('Operations')}?status=141`);
    expect(one.status).toBe(200);
    expect(one.body.info.statuses).toEqual([
      {
        status: '141',
        label: 'POS Canceled',
        reasons: [{ id: reasons.get('141'), reason: 'Reason for 141', sort_order: 0 }],
      },
    ]);
    const none = await call('GET', `/api/customers/orderstatus/${tok('Operations')}?status=150`);
    expect(none.body.info.statuses).toEqual([]);
  });

  it('a bad status → 400; no order privilege or no session → 403', async () => {
    const bad = await call('GET', `/api/customers/orderstatus/${tok('AR Team')}?status=7`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty('status');
    expect((await call('GET', `/api/customers/orderstatus/${BAD_TOKEN}`)).status).toBe(403);
    // Distributor: create_distributor_orders is enough to read.
    expect((await call('GET', `/api/customers/orderstatus/${tok('Distributor')}`)).status).toBe(200);
  });
});

describe('order notes', () => {
  it('GET lists notes newest first with the status reason; POST adds an order_note with an audit entry', async () => {
    const db = t.database.db;
    const customer = await createCustomer(db);
    const order = await createOrder(db, { customerId: customer.id });
    await createOrderNote(db, { orderId: order.id, body: 'older', createdAt: new Date('2026-11-01T00:00:00Z') });
    await createOrderNote(db, {
      orderId: order.id,
      noteType: 'status_reason',
      statusReasonId: reasons.get('3'),
      body: 'why',
      createdAt: new Date('2026-11-02T00:00:00Z'),
    });
    const added = await call('POST', `/api/customers/ordernotes/${order.id}/${tok('Customer Care')}`, {
      note: '  Call after 5pm  ',
    });
    expect(added.status).toBe(201);
    expect(added.body.info.note).toMatchObject({
      order_id: order.id,
      note_type: 'order_note',
      body: 'Call after 5pm',
      created_by_email: emailOf('Customer Care'),
    });

    const list = await call('GET', `/api/customers/ordernotes/${order.id}/${tok('Marketing')}`);
    expect(list.status).toBe(200);
    expect((list.body.info.notes as Json[]).map((n) => n.body)).toEqual(['Call after 5pm', 'why', 'older']);
    expect(list.body.info.notes[1]).toMatchObject({ note_type: 'status_reason', reason: 'Reason for 3' });

    const audit = await db.select().from(auditLog).where(eq(auditLog.entity, 'order_note'));
    const mine = audit.find((a) => a.entityId === String(added.body.info.note.id));
    expect(mine).toMatchObject({ action: 'create', actorEmail: emailOf('Customer Care'), customerId: customer.id });
    expect(mine!.after).toMatchObject({ customer_id: customer.id, order_id: order.id, body: 'Call after 5pm' });
  });

  it('400 for an empty or too long note or a bad id; 403 for a read-only role; 404 for an unknown order', async () => {
    const order = await createOrder(t.database.db);
    const empty = await call('POST', `/api/customers/ordernotes/${order.id}/${tok('AR Team')}`, { note: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toHaveProperty('note');
    expect(
      (await call('POST', `/api/customers/ordernotes/${order.id}/${tok('AR Team')}`, { note: 'x'.repeat(4001) }))
        .status,
    ).toBe(400);
    expect((await call('GET', `/api/customers/ordernotes/abc/${tok('AR Team')}`)).status).toBe(400);
    const readOnly = await call('POST', `/api/customers/ordernotes/${order.id}/${tok('Marketing')}`, { note: 'hi' });
    expect(readOnly.status).toBe(403);
    expect((await call('GET', `/api/customers/ordernotes/${order.id}/${BAD_TOKEN}`)).status).toBe(403);
    expect((await call('GET', `/api/customers/ordernotes/999999/${tok('AR Team')}`)).status).toBe(404);
    expect((await call('POST', `/api/customers/ordernotes/999999/${tok('AR Team')}`, { note: 'hi' })).status).toBe(404);
    expect(await t.database.db.select().from(orderNotes).where(eq(orderNotes.orderId, order.id))).toEqual([]);
  });
});

describe('PUT /api/customers/ordernotes/{token} (status change)', () => {
  const allowedPairs = ORDER_STATUS_CODES.flatMap((from) =>
    ORDER_STATUS_CODES.filter((to) => canTransition(from, to)).map((to) => [from, to] as const),
  );

  it('drives the table: every allowed move succeeds for a role that may make it, and is recorded', async () => {
    expect(allowedPairs.length).toBeGreaterThan(30);
    const db = t.database.db;
    for (const [from, to] of allowedPairs) {
      const role = ROLES.find(
        (r) => r !== 'Admin' && mayTransition(from, to, { role: r, privileges: effectivePrivileges(r) }),
      )!;
      const order = await createOrder(db, { status: from, agentId: agentFor(role), ...(to === '150' && { storeId }) });
      const res = await changeStatus(role, {
        order_id: order.id,
        status: to,
        version: order.version,
        ...(transitionRequiresReason(to) && { status_reason_id: reasons.get(to) }),
      });
      expect([from, to, role, res.status]).toEqual([from, to, role, 200]);
      expect(res.body.info.order).toMatchObject({ id: order.id, status: to, version: order.version + 1 });
      const history = await db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, order.id));
      expect(history).toMatchObject([{ fromStatus: from, toStatus: to, changedByEmail: emailOf(role) }]);
    }
  });

  it('a sample of forbidden moves → 409 conflict invalid_transition, even for Admin; nothing changes', async () => {
    const db = t.database.db;
    const forbidden = ORDER_STATUS_CODES.flatMap((from) =>
      ORDER_STATUS_CODES.filter((to) => !canTransition(from, to)).map((to) => [from, to] as const),
    );
    const sample = forbidden
      .filter((_, i) => i % 9 === 0)
      .concat([
        ['150', '1'],
        ['1', '150'],
        ['3', '1'],
        ['140', '140'],
      ]);
    for (const [from, to] of sample) {
      const order = await createOrder(db, { status: from });
      const res = await changeStatus('Admin', {
        order_id: order.id,
        status: to,
        version: order.version,
        ...(transitionRequiresReason(to) && { status_reason_id: reasons.get(to) }),
      });
      expect([from, to, res.status]).toEqual([from, to, 409]);
      expect(res.body.error).toMatchObject({ code: 'conflict', reason: 'invalid_transition', from, to });
      const [row] = await db.select().from(orders).where(eq(orders.id, order.id));
      expect(row).toMatchObject({ status: from, version: order.version });
    }
  });

  it('a role the rule does not name → 403 naming the rule; no read privilege to write → 403', async () => {
    const order = await createOrder(t.database.db, { status: '140' });
    const res = await changeStatus('AR Team', { order_id: order.id, status: '150', version: order.version });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'forbidden',
      message: 'Moving an order from status 140 to 150 needs the role Admin, Operations.',
    });
    expect(
      (await changeStatus('Marketing', { order_id: order.id, status: '150', version: order.version })).status,
    ).toBe(403);
    expect(
      (
        await call('PUT', `/api/customers/ordernotes/${BAD_TOKEN}`, {
          order_id: order.id,
          status: '150',
          version: order.version,
        })
      ).status,
    ).toBe(403);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.status).toBe('140');
  });

  it('a missing reason, a reason of another status or a bad body → 400 with fields', async () => {
    const order = await createOrder(t.database.db, { status: '140' });
    const missing = await changeStatus('Operations', { order_id: order.id, status: '142', version: order.version });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ status_reason_id: 'Choose a reason for POS Postponed.' });
    const wrong = await changeStatus('Operations', {
      order_id: order.id,
      status: '142',
      status_reason_id: reasons.get('141'),
      version: order.version,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toHaveProperty('status_reason_id');
    const bad = await changeStatus('Operations', { order_id: order.id, status: '99', version: order.version });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty('status');
    expect((await changeStatus('Operations', { order_id: order.id, status: '150' })).status).toBe(400);
  });

  it('an unknown order → 404', async () => {
    expect((await changeStatus('Admin', { order_id: 999999, status: '2', version: 0 })).status).toBe(404);
  });

  it('a stale version → 409 version_conflict with the current status', async () => {
    const order = await createOrder(t.database.db, { status: '140' });
    expect(
      (
        await changeStatus('Operations', {
          order_id: order.id,
          status: '142',
          status_reason_id: reasons.get('142'),
          version: order.version,
        })
      ).status,
    ).toBe(200);
    const stale = await changeStatus('Operations', {
      order_id: order.id,
      status: '141',
      status_reason_id: reasons.get('141'),
      version: order.version,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'version_conflict',
      current: { id: order.id, status: '142', version: order.version + 1 },
    });
  });

  it('two concurrent changes with the same version → one 200, one 409', async () => {
    // 140 → 142 and 140 → 141 (and 142 → 141) are all allowed: only the version check can refuse the second.
    const order = await createOrder(t.database.db, { status: '140' });
    const results = await Promise.all([
      changeStatus('Operations', {
        order_id: order.id,
        status: '142',
        status_reason_id: reasons.get('142'),
        version: order.version,
      }),
      changeStatus('Admin', {
        order_id: order.id,
        status: '141',
        status_reason_id: reasons.get('141'),
        version: order.version,
      }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.error.code).toBe('version_conflict');
    const history = await t.database.db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order.id));
    expect(history).toHaveLength(1);
  });

  it('a reasoned change writes history (who and why), a status_reason note, timestamps and an audit entry under the customer', async () => {
    const db = t.database.db;
    const customer = await createCustomer(db);
    const order = await createOrder(db, { status: '11', customerId: customer.id });
    const res = await changeStatus('RAM Support', {
      order_id: order.id,
      status: '3',
      status_reason_id: reasons.get('3'),
      note: 'Licence expired',
      version: order.version,
    });
    expect(res.status).toBe(200);
    expect(res.body.info.history).toMatchObject({
      from_status: '11',
      to_status: '3',
      reason: 'Reason for 3',
      note: 'Licence expired',
      changed_by_email: emailOf('RAM Support'),
    });

    const history = await call('GET', `/api/customers/orderstatus/history/${order.id}/${tok('AR Team')}`);
    expect(history.status).toBe(200);
    expect(history.body.info.history).toMatchObject([
      {
        from_status: '11',
        to_status: '3',
        status_reason_id: reasons.get('3'),
        reason: 'Reason for 3',
        note: 'Licence expired',
      },
    ]);
    const notes = await call('GET', `/api/customers/ordernotes/${order.id}/${tok('AR Team')}`);
    expect(notes.body.info.notes).toMatchObject([
      { note_type: 'status_reason', status_reason_id: reasons.get('3'), body: 'Reason for 3: Licence expired' },
    ]);

    const [audit] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(order.id)))
      .then((rows) => rows.filter((r) => r.entity === 'order'));
    expect(audit).toMatchObject({
      action: 'status_change',
      actorEmail: emailOf('RAM Support'),
      customerId: customer.id,
    });
    expect(audit!.before).toMatchObject({ customer_id: customer.id, status: '11' });
    expect(audit!.after).toMatchObject({
      customer_id: customer.id,
      status: '3',
      status_reason_id: reasons.get('3'),
      note: 'Licence expired',
    });

    const done = await createOrder(db, { status: '140', storeId });
    const complete = await changeStatus('Operations', { order_id: done.id, status: '150', version: done.version });
    expect(complete.body.info.order.completed_at).toBe(t.clock.now().toISOString());
    const draft = await createOrder(db, { status: '1' });
    const submitted = await changeStatus('IS', { order_id: draft.id, status: '11', version: draft.version });
    expect(submitted.body.info.order).toMatchObject({ submitted_at: t.clock.now().toISOString(), completed_at: null });
  });

  it('history: 404 for an unknown order, 403 without a session', async () => {
    expect((await call('GET', `/api/customers/orderstatus/history/999999/${tok('AR Team')}`)).status).toBe(404);
    expect((await call('GET', `/api/customers/orderstatus/history/1/${BAD_TOKEN}`)).status).toBe(403);
    expect((await call('GET', `/api/customers/orderstatus/history/0/${tok('AR Team')}`)).status).toBe(400);
  });
});

describe('distributor sessions', () => {
  it("see and change only their own agent's orders (others are 404)", async () => {
    const db = t.database.db;
    const account = await createDistributorAccount(db, {
      email: 'dist-orders@example.com',
      password: 'distributor-demo',
    });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/distributor/login',
      payload: { email: 'dist-orders@example.com', password: 'distributor-demo' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const dist = (login.json() as Json).info.token as string;
    const own = await createOrder(db, { status: '1', agentId: account.agentId });
    const other = await createOrder(db, { status: '1' });

    expect((await call('GET', `/api/customers/ordernotes/${own.id}/${dist}`)).status).toBe(200);
    expect((await call('GET', `/api/customers/ordernotes/${other.id}/${dist}`)).status).toBe(404);
    expect((await call('GET', `/api/customers/orderstatus/history/${other.id}/${dist}`)).status).toBe(404);
    expect((await call('POST', `/api/customers/ordernotes/${other.id}/${dist}`, { note: 'hi' })).status).toBe(404);
    expect(
      (
        await call('PUT', `/api/customers/ordernotes/${dist}`, {
          order_id: other.id,
          status: '11',
          version: other.version,
        })
      ).status,
    ).toBe(404);
    const moved = await call('PUT', `/api/customers/ordernotes/${dist}`, {
      order_id: own.id,
      status: '11',
      version: own.version,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.info.history).toMatchObject({
      from_status: '1',
      to_status: '11',
      changed_by_email: 'dist-orders@example.com',
    });
    const approve = await call('PUT', `/api/customers/ordernotes/${dist}`, {
      order_id: own.id,
      status: '121',
      version: own.version + 1,
    });
    expect(approve.status).toBe(403);
  });
});
