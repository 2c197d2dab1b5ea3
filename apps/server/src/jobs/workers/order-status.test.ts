import { randomUUID } from 'node:crypto';
import type { OrderStatusSnsRequest } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder, createStaffUser, createStatusReason, createStore } from '../../db/factories';
import { orders, orderStatusHistory } from '../../db/schema';
import type { AuditActor } from '../../http/audit';
import { createTestApp, type TestApp } from '../../test/test-app';
import { PermanentJobError } from '../queue';
import { orderStatusWorker } from './order-status';

/* The orderinfo/status/sns worker applies the transition table like PUT /api/customers/ordernotes (decision 073). */

let t: TestApp;
let operations: AuditActor;
let arTeam: AuditActor;
let reason141: number;
const system: AuditActor = { actorType: 'system', actorId: 'crm' };

function run(input: OrderStatusSnsRequest, requestedBy: AuditActor) {
  return orderStatusWorker.run(
    t.app.ctx,
    { input, requestedBy, requestId: null },
    { id: randomUUID(), queue: 'order-status' },
  );
}
async function rejection(p: Promise<unknown>): Promise<PermanentJobError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PermanentJobError);
  return err as PermanentJobError;
}
const statusOf = async (id: number) => (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!.status;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const ops = await createStaffUser(db, { email: 'ops-worker@example.com', role: 'Operations' });
  const ar = await createStaffUser(db, { email: 'ar-worker@example.com', role: 'AR Team' });
  operations = { actorType: 'staff', actorId: ops.id, actorEmail: ops.email };
  arTeam = { actorType: 'staff', actorId: ar.id, actorEmail: ar.email };
  reason141 = (await createStatusReason(db, { status: '141', reason: 'Merchant closed' })).id;
});
afterAll(() => t.close());

describe('order-status worker', () => {
  it('applies an allowed move by a staff user the rule names, with history', async () => {
    // A completed order is onboarded: it needs its store (address), as every submitted order has.
    const order = await createOrder(t.database.db, { status: '140', storeId: (await createStore(t.database.db)).id });
    const out = await run({ orderInfoId: order.id, status: '150', action: 'complete' }, operations);
    expect(out).toEqual({ orderInfoId: order.id, from: '140', to: '150', action: 'complete', changed: true });
    expect(await statusOf(order.id)).toBe('150');
    const history = await t.database.db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order.id));
    expect(history).toMatchObject([{ fromStatus: '140', toStatus: '150', changedByEmail: 'ops-worker@example.com' }]);
  });

  it('refuses a move the table does not have as a permanent invalid_transition error', async () => {
    const order = await createOrder(t.database.db, { status: '150' });
    const err = await rejection(run({ orderInfoId: order.id, status: '1', action: 'reopen' }, system));
    expect(err.code).toBe('invalid_transition');
    expect(await statusOf(order.id)).toBe('150');
  });

  it('refuses a move the requester may not make (forbidden), and one missing its reason (validation_failed)', async () => {
    const order = await createOrder(t.database.db, { status: '140' });
    const forbidden = await rejection(run({ orderInfoId: order.id, status: '150', action: 'complete' }, arTeam));
    expect(forbidden.code).toBe('forbidden');
    expect(forbidden.message).toContain('needs the role Admin, Operations');
    const noReason = await rejection(run({ orderInfoId: order.id, status: '141', action: 'cancel' }, operations));
    expect(noReason.code).toBe('validation_failed');
    expect(await statusOf(order.id)).toBe('140');
    const ok = await run(
      { orderInfoId: order.id, status: '141', action: 'cancel', statusReasonId: reason141 },
      operations,
    );
    expect(ok).toMatchObject({ changed: true, to: '141' });
  });

  it('a system request is checked against the table only; the same status is a no-op', async () => {
    const order = await createOrder(t.database.db, { status: '121' });
    expect(await run({ orderInfoId: order.id, status: '126', action: 'approve' }, system)).toMatchObject({
      changed: true,
    });
    expect(await run({ orderInfoId: order.id, status: '126', action: 'approve' }, operations)).toMatchObject({
      changed: false,
    });
  });
});
