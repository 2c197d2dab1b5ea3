import {
  JOB_QUEUE,
  ORDER_STATUS,
  effectivePrivileges,
  isOrderStatusCode,
  type OrderStatusCode,
  type TransitionRequester,
} from '@pos/domain';
import { eq, sql } from 'drizzle-orm';
import { systemCtx } from '../../context';
import type { Db } from '../../db/client';
import { orders, orderStatusHistory, privileges, roles, staffUsers, userAdditionalPrivileges } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { applyStatusEffects, isOrderVisible, orderScopeOfRequester } from '../../modules/orders';
import { AppError } from '../../http/errors';
import { checkTransition, statusTimestamps } from '../../modules/order-status';
import { settleOrderHolds } from '../../modules/payments';
import { requesterEmail, type JobRequest, type WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';
import { PermanentJobError } from '../queue';

/**
 * The requester of a job as the transition table sees them: a staff user's current role and privileges
 * (role + additional); null for a system request (only the table applies then). A staff user who no longer
 * exists or is inactive may make no move.
 */
async function requesterOf(db: Db, request: JobRequest): Promise<TransitionRequester | null> {
  const by = request.requestedBy;
  if (by.actorType === 'system' || by.actorId == null) return null;
  if (by.actorType !== 'staff') return { role: '', privileges: [] };
  const [user] = await db
    .select({ id: staffUsers.id, active: staffUsers.active, role: roles.name })
    .from(staffUsers)
    .innerJoin(roles, eq(roles.id, staffUsers.roleId))
    .where(eq(staffUsers.id, Number(by.actorId)));
  if (!user || !user.active) return { role: '', privileges: [] };
  const extra = await db
    .select({ name: privileges.name })
    .from(userAdditionalPrivileges)
    .innerJoin(privileges, eq(privileges.id, userAdditionalPrivileges.privilegeId))
    .where(eq(userAdditionalPrivileges.userId, user.id));
  return {
    role: user.role,
    privileges: effectivePrivileges(
      user.role,
      extra.map((e) => e.name),
    ),
  };
}

/**
 * Order status change + action: the order takes the new status and the change is recorded in
 * order_status_history (with the reason and note) and the audit log. The move is checked like
 * PUT /api/customers/ordernotes (decision 073): it must be in the transition table, the requesting staff
 * user's role/privileges must allow it, and a reason must be given where the table needs one — otherwise
 * the job fails permanently (no retry). An order already in the requested status is left as it is.
 */
export const orderStatusWorker: WorkerDefinition<typeof JOB_QUEUE.orderStatus> = {
  queue: JOB_QUEUE.orderStatus,
  async run(ctx, request, job) {
    const { orderInfoId, status, action, statusReasonId, note } = request.input;
    const result = await applyOnce(ctx, job, async (tx, now, mark) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderInfoId)).for('update');
      // Decision 102: acting for a person, the job sees only the orders that person may see (the rest do not exist).
      const scope = await orderScopeOfRequester(tx, request.requestedBy);
      if (!order || (scope && !(await isOrderVisible(tx, scope, order))))
        throw new PermanentJobError(`Order ${orderInfoId} does not exist.`, 'not_found');
      mark.customerId = order.customerId;
      if (order.status === status) return { orderInfoId, from: order.status, to: status, action, changed: false };
      if (!isOrderStatusCode(order.status))
        throw new PermanentJobError(
          `Order ${orderInfoId} has an unknown status ${order.status}.`,
          'invalid_transition',
        );
      const from: OrderStatusCode = order.status;
      try {
        await checkTransition(tx, { from, to: status, statusReasonId, who: await requesterOf(tx, request) });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const code = err.code === 'conflict' ? 'invalid_transition' : err.code;
        throw new PermanentJobError(
          err.fields ? `${err.message} ${Object.values(err.fields).join(' ')}` : err.message,
          code,
        );
      }

      const by = requesterEmail(request);
      const [moved] = await tx
        .update(orders)
        .set({ status, updatedAt: now, version: sql`${orders.version} + 1`, ...statusTimestamps(order, status, now) })
        .where(eq(orders.id, order.id))
        .returning();
      const [history] = await tx
        .insert(orderStatusHistory)
        .values({
          orderId: order.id,
          fromStatus: order.status,
          toStatus: status,
          statusReasonId: statusReasonId ?? null,
          note: note ?? null,
          changedByEmail: by,
          changedAt: now,
        })
        .returning({ id: orderStatusHistory.id });
      await writeAudit(tx, {
        ...systemActor(job),
        at: now,
        action: 'status_change',
        entity: 'order',
        entityId: order.id,
        customerId: order.customerId,
        before: { status: order.status },
        after: {
          status,
          action,
          status_reason_id: statusReasonId ?? null,
          note: note ?? null,
          history_id: history!.id,
          requested_by: by,
        },
      });
      const effects = systemCtx(ctx, { ...systemActor(job), actorEmail: by }, job.id);
      await applyStatusEffects(effects, tx, { order: moved!, from, to: status, now });
      return { orderInfoId, from: order.status, to: status, action, changed: true };
    });
    // After the commit (decision 148): the holds the move queued are captured or released now (else by the sweep).
    if (result.changed && SETTLES_HOLDS.includes(status))
      await settleOrderHolds(ctx, orderInfoId, systemActor(job), job.id);
    return result;
  },
};

/** The moves after which an order's card holds are captured or released. */
const SETTLES_HOLDS: readonly string[] = [ORDER_STATUS.COMPLETE, ORDER_STATUS.REJECTED, ORDER_STATUS.POS_CANCELED];
