import { JOB_QUEUE } from '@pos/domain';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { agentOrders, agents, orders } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { orderScopeOfRequester, visibleOrdersWhere } from '../../modules/orders';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, soleCustomer, systemActor } from '../effect';
import { PermanentJobError } from '../queue';

/** Move orders to another agent: orders.agent_id, and the order's agent_orders row replaced by the new agent's. */
export const agentSwitchWorker: WorkerDefinition<typeof JOB_QUEUE.agentSwitch> = {
  queue: JOB_QUEUE.agentSwitch,
  async run(ctx, request, job) {
    const { orderInfoIds, agent_id: agentId } = request.input;
    return applyOnce(ctx, job, async (tx, now, mark) => {
      const [agent] = await tx
        .select({ id: agents.id, active: agents.active })
        .from(agents)
        .where(eq(agents.id, agentId));
      if (!agent) throw new PermanentJobError(`Agent ${agentId} does not exist.`, 'not_found');
      if (!agent.active) throw new PermanentJobError(`Agent ${agentId} is not active.`, 'validation_failed');
      // Decision 102: acting for a person, the job sees only the orders that person may see (the rest do not exist).
      const scope = await orderScopeOfRequester(tx, request.requestedBy);
      const rows = await tx
        .select({ id: orders.id, agentId: orders.agentId, customerId: orders.customerId })
        .from(orders)
        .where(and(inArray(orders.id, orderInfoIds), scope ? visibleOrdersWhere(scope) : undefined))
        .orderBy(orders.id)
        .for('update');
      const missing = orderInfoIds.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length > 0) throw new PermanentJobError(`Order(s) ${missing.join(', ')} do not exist.`, 'not_found');
      mark.customerId = soleCustomer(rows.map((r) => r.customerId));

      const by = requesterEmail(request);
      const switched: number[] = [];
      for (const order of rows) {
        if (order.agentId !== agentId) {
          await tx
            .update(orders)
            .set({ agentId, updatedAt: now, version: sql`${orders.version} + 1` })
            .where(eq(orders.id, order.id));
        }
        await tx.delete(agentOrders).where(and(eq(agentOrders.orderId, order.id), ne(agentOrders.agentId, agentId)));
        await tx
          .insert(agentOrders)
          .values({ agentId, orderId: order.id, assignedByEmail: by, assignedAt: now })
          .onConflictDoNothing();
        await writeAudit(tx, {
          ...systemActor(job),
          at: now,
          action: 'agent_switch',
          entity: 'order',
          entityId: order.id,
          customerId: order.customerId,
          before: { agent_id: order.agentId },
          after: { agent_id: agentId, requested_by: by },
        });
        switched.push(order.id);
      }
      return { agentId, orders: switched };
    });
  },
};
