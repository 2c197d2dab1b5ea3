import type {
  AgentList,
  AgentOrderAssignments,
  AgentOrderRequest,
  AgentOrderUpdateRequest,
  AgentRecord,
  GetAgentsQuery,
} from '@pos/domain';
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { agentOrders, agents, orders } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, versionConflict } from '../../http/errors';
import type { SessionContext } from '../../http/session';
import { loadVisibleOrder } from '../orders';
import { visibleAgentsWhere } from '../../access';

type AgentRow = typeof agents.$inferSelect;

function agentOut(r: AgentRow): AgentRecord {
  return {
    agent_id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    type: r.type as AgentRecord['type'],
    sales_channel: r.salesChannel,
    sales_channel_code: r.salesChannelCode,
    parent_agent_id: r.parentAgentId,
    active: r.active,
  };
}

/** `%text%` for ILIKE with the pattern characters escaped. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * GET /api/customers/getagents/{token}: active agents matching the filter (at most one; none: all the caller may see),
 * by name then id, one page.
 * search: name or e-mail contains the text (any case; the name has a trigram index); type / types: the agent
 * type(s); email: the e-mail, lowercased, exactly (agents_email_uq is on lower(email)).
 */
export async function listAgents(ctx: ServiceCtx, query: GetAgentsQuery): Promise<AgentList> {
  const where: (SQL | undefined)[] = [eq(agents.active, true), visibleAgentsWhere(ctx.session)];
  if (query.search !== undefined) {
    const p = likePattern(query.search);
    where.push(sql`(${agents.name} ilike ${p} or lower(${agents.email}) like lower(${p}))`);
  } else if (query.type !== undefined) {
    where.push(eq(agents.type, query.type));
  } else if (query.types !== undefined) {
    where.push(inArray(agents.type, query.types));
  } else if (query.email !== undefined) {
    where.push(sql`lower(${agents.email}) = ${query.email}`);
  }
  const db = ctx.app.database.db;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(agents)
      .where(and(...where))
      .orderBy(asc(agents.name), asc(agents.id))
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ n: count() })
      .from(agents)
      .where(and(...where)),
  ]);
  return { agents: rows.map(agentOut), total: Number(total?.n ?? 0), limit: query.limit, offset: query.offset };
}

/** The order of the body, locked; 404 (field order_id) also for an order the caller may not see (decision 102). */
async function lockOrder(db: Db, session: SessionContext, orderId: number) {
  return loadVisibleOrder(db, session, { id: orderId }, { lock: true, field: 'order_id' });
}

async function activeAgent(db: Db, agentId: number): Promise<AgentRow> {
  const [agent] = await db.select().from(agents).where(eq(agents.id, agentId));
  if (!agent)
    throw new AppError('not_found', `Agent ${agentId} was not found.`, { agent_id: `There is no agent ${agentId}.` });
  if (!agent.active) {
    const message = `Agent ${agent.name} is not active; choose another agent.`;
    throw new AppError('validation_failed', message, { agent_id: message });
  }
  return agent;
}

/** The order's agents (by assignment time) with its main agent and version. */
export async function orderAgents(db: Db, orderId: number): Promise<AgentOrderAssignments> {
  const [order] = await db
    .select({ agentId: orders.agentId, version: orders.version })
    .from(orders)
    .where(eq(orders.id, orderId));
  const rows = await db
    .select({
      agentId: agentOrders.agentId,
      name: agents.name,
      type: agents.type,
      by: agentOrders.assignedByEmail,
      at: agentOrders.assignedAt,
    })
    .from(agentOrders)
    .innerJoin(agents, eq(agents.id, agentOrders.agentId))
    .where(eq(agentOrders.orderId, orderId))
    .orderBy(asc(agentOrders.assignedAt), asc(agentOrders.agentId));
  return {
    order_id: orderId,
    agent_id: order?.agentId ?? null,
    version: order?.version ?? 0,
    agents: rows.map((r) => ({
      agent_id: r.agentId,
      name: r.name,
      type: r.type,
      assigned_by_email: r.by,
      assigned_at: new Date(r.at).toISOString(),
    })),
  };
}

/**
 * GET /api/customers/agentorders/{orderId}/{token}: the order's agents (our addition for the order panel, decision 162).
 * 404 like a missing order for one the caller may not see (decision 102).
 */
export async function listOrderAgents(ctx: ServiceCtx, orderId: number): Promise<AgentOrderAssignments> {
  const db = ctx.app.database.db;
  const order = await loadVisibleOrder(db, ctx.session, { id: orderId });
  return orderAgents(db, order.id);
}

const customerOf = (customerId: number | null) => (customerId === null ? {} : { customer_id: customerId });

/** POST /api/customers/agentorders/{token}/add: assign an active agent to an order (409 when it already is). */
export async function addAgentOrder(ctx: ServiceCtx, body: AgentOrderRequest): Promise<AgentOrderAssignments> {
  return withTx(ctx, async (db) => {
    const order = await lockOrder(db, ctx.session, body.order_id);
    const agent = await activeAgent(db, body.agent_id);
    const inserted = await db
      .insert(agentOrders)
      .values({
        orderId: order.id,
        agentId: agent.id,
        assignedByEmail: ctx.session.email,
        assignedAt: ctx.app.clock.now(),
      })
      .onConflictDoNothing()
      .returning({ agentId: agentOrders.agentId });
    if (inserted.length === 0) {
      const message = `Agent ${agent.name} is already on order ${order.id}.`;
      throw new AppError('conflict', message, { agent_id: message });
    }
    await writeAudit(db, {
      ...ctx.actor,
      at: ctx.app.clock.now(),
      action: 'agent_order_add',
      entity: 'order',
      entityId: order.id,
      after: { order_id: order.id, agent_id: agent.id, ...customerOf(order.customerId) },
      requestId: ctx.requestId,
    });
    return orderAgents(db, order.id);
  });
}

/**
 * PUT /api/customers/agentorders/{token}/updateagentid: switch the order to one agent — its agent_orders become
 * just that agent and orders.agent_id is set to it (the order's version goes up). A sent version must be the
 * order's current one (409 version_conflict with the current assignments). Switching to the same sole agent
 * changes nothing and writes no audit entry.
 */
export async function updateAgentOrder(ctx: ServiceCtx, body: AgentOrderUpdateRequest): Promise<AgentOrderAssignments> {
  return withTx(ctx, async (db) => {
    const order = await lockOrder(db, ctx.session, body.order_id);
    if (body.version !== undefined && body.version !== order.version) {
      throw versionConflict(`Order ${order.id}`, await orderAgents(db, order.id), body.version);
    }
    const agent = await activeAgent(db, body.agent_id);
    const before = await db
      .select({ agentId: agentOrders.agentId })
      .from(agentOrders)
      .where(eq(agentOrders.orderId, order.id))
      .orderBy(asc(agentOrders.agentId));
    const beforeIds = before.map((r) => r.agentId);
    if (order.agentId === agent.id && beforeIds.length === 1 && beforeIds[0] === agent.id)
      return orderAgents(db, order.id);
    await db
      .delete(agentOrders)
      .where(and(eq(agentOrders.orderId, order.id), sql`${agentOrders.agentId} <> ${agent.id}`));
    await db
      .insert(agentOrders)
      .values({
        orderId: order.id,
        agentId: agent.id,
        assignedByEmail: ctx.session.email,
        assignedAt: ctx.app.clock.now(),
      })
      .onConflictDoNothing();
    await db
      .update(orders)
      .set({ agentId: agent.id, updatedAt: ctx.app.clock.now(), version: sql`${orders.version} + 1` })
      .where(eq(orders.id, order.id));
    await writeAudit(db, {
      ...ctx.actor,
      at: ctx.app.clock.now(),
      action: 'agent_order_switch',
      entity: 'order',
      entityId: order.id,
      before: { order_id: order.id, agent_id: order.agentId, agent_ids: beforeIds, ...customerOf(order.customerId) },
      after: { order_id: order.id, agent_id: agent.id, agent_ids: [agent.id], ...customerOf(order.customerId) },
      requestId: ctx.requestId,
    });
    return orderAgents(db, order.id);
  });
}

/** DELETE /api/customers/agentorders/{token}/delete: take an agent off an order (404 when it is not on it). */
export async function deleteAgentOrder(ctx: ServiceCtx, body: AgentOrderRequest): Promise<AgentOrderAssignments> {
  return withTx(ctx, async (db) => {
    const order = await lockOrder(db, ctx.session, body.order_id);
    const deleted = await db
      .delete(agentOrders)
      .where(and(eq(agentOrders.orderId, order.id), eq(agentOrders.agentId, body.agent_id)))
      .returning({ agentId: agentOrders.agentId, by: agentOrders.assignedByEmail });
    if (deleted.length === 0) {
      const message = `Agent ${body.agent_id} is not on order ${order.id}.`;
      throw new AppError('not_found', message, { agent_id: message });
    }
    await writeAudit(db, {
      ...ctx.actor,
      at: ctx.app.clock.now(),
      action: 'agent_order_delete',
      entity: 'order',
      entityId: order.id,
      before: {
        order_id: order.id,
        agent_id: body.agent_id,
        assigned_by_email: deleted[0]!.by,
        ...customerOf(order.customerId),
      },
      requestId: ctx.requestId,
    });
    return orderAgents(db, order.id);
  });
}
