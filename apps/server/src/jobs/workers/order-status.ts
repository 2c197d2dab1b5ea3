import { JOB_QUEUE, ORDER_STATUS } from '@pos/domain';
import { eq, sql } from 'drizzle-orm';
import { orders, orderStatusHistory, statusReasons } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';
import { PermanentJobError } from '../queue';

/**
 * Order status change + action: the order takes the new status and the change is recorded in
 * order_status_history (with the reason and note) and the audit log. Any §4 status is accepted for now — the
 * allowed transitions arrive with the orders issue, which will check them here and in the route.
 * An order already in the requested status is left as it is.
 */
export const orderStatusWorker: WorkerDefinition<typeof JOB_QUEUE.orderStatus> = {
  queue: JOB_QUEUE.orderStatus,
  async run(ctx, request, job) {
    const { orderInfoId, status, action, statusReasonId, note } = request.input;
    return applyOnce(ctx, job, async (tx, now, mark) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderInfoId)).for('update');
      if (!order) throw new PermanentJobError(`Order ${orderInfoId} does not exist.`, 'not_found');
      mark.customerId = order.customerId;
      if (statusReasonId !== undefined) {
        const [reason] = await tx.select({ id: statusReasons.id }).from(statusReasons).where(eq(statusReasons.id, statusReasonId));
        if (!reason) throw new PermanentJobError(`Status reason ${statusReasonId} does not exist.`, 'not_found');
      }
      if (order.status === status) return { orderInfoId, from: order.status, to: status, action, changed: false };

      const by = requesterEmail(request);
      await tx
        .update(orders)
        .set({
          status,
          updatedAt: now,
          version: sql`${orders.version} + 1`,
          ...(status === ORDER_STATUS.COMPLETE ? { completedAt: now } : {}),
          ...(status === ORDER_STATUS.SUBMITTED_TO_SUPPORT && !order.submittedAt ? { submittedAt: now } : {}),
        })
        .where(eq(orders.id, order.id));
      const [history] = await tx
        .insert(orderStatusHistory)
        .values({ orderId: order.id, fromStatus: order.status, toStatus: status, statusReasonId: statusReasonId ?? null, note: note ?? null, changedByEmail: by, changedAt: now })
        .returning({ id: orderStatusHistory.id });
      await writeAudit(tx, {
        ...systemActor(job),
        at: now,
        action: 'status_change',
        entity: 'order',
        entityId: order.id,
        customerId: order.customerId,
        before: { status: order.status },
        after: { status, action, status_reason_id: statusReasonId ?? null, note: note ?? null, history_id: history!.id, requested_by: by },
      });
      return { orderInfoId, from: order.status, to: status, action, changed: true };
    });
  },
};
