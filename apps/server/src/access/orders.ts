import { mayAccessOrder, orderScopeOf, type OrderScope, type OrderScopeSubject } from '@pos/domain';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { agentOrders, distributorAccounts, orders, roles, staffUsers } from '../db/schema';
import type { AuditActor } from '../http/audit';
import { AppError, notFound } from '../http/errors';

/*
 * "Which orders may this session see and act on" on the server (decision 102): the domain's rule
 * (packages/domain access/order-scope.ts) as the SQL filter of every order list and as the loader of every call that
 * names one order. Every endpoint that takes an order id goes through here; an order the caller may not see is
 * answered exactly like one that does not exist (404 not_found, same message), so its existence is not revealed.
 */

type OrderRow = typeof orders.$inferSelect;

/** A session (or anything shaped like one) or an already computed scope. */
export type OrderViewer = OrderScopeSubject | OrderScope;

/** How a call names its order: by id (path or body) or by unified order id. */
export type OrderKey = { readonly id: number } | { readonly unifiedId: string };

const scopeOf = (viewer: OrderViewer): OrderScope => ('role' in viewer ? orderScopeOf(viewer) : viewer);

/**
 * The condition on `orders` that keeps the orders `viewer` may see, for lists (queue, pending lists, the order
 * search, a customer's orders, bulk calls); undefined when it sees all. Drizzle's `and()` drops an undefined
 * condition, so callers pass it along with their own filters.
 */
export function visibleOrdersWhere(viewer: OrderViewer): SQL | undefined {
  const scope = scopeOf(viewer);
  if (scope.kind === 'all') return undefined;
  if (scope.agentId === null) return sql`false`;
  const agentId = scope.agentId;
  return sql`(${orders.agentId} = ${agentId} or exists (select 1 from ${agentOrders} where ${agentOrders.orderId} = ${orders.id} and ${agentOrders.agentId} = ${agentId}))`;
}

/**
 * The same condition for a raw SQL text with positional parameters (the global search): `alias` names the orders
 * table in the query, `bind` adds a parameter and returns its placeholder. Null when the viewer sees all.
 */
export function visibleOrdersSqlText(
  viewer: OrderViewer,
  alias: string,
  bind: (value: unknown) => string,
): string | null {
  const scope = scopeOf(viewer);
  if (scope.kind === 'all') return null;
  if (scope.agentId === null) return 'false';
  const agent = bind(scope.agentId);
  return `(${alias}.agent_id = ${agent} or exists (select 1 from agent_orders ao where ao.order_id = ${alias}.id and ao.agent_id = ${agent}))`;
}

/** The answer for an order that does not exist or that the caller may not see: the same in both cases. */
export function orderNotFound(key: OrderKey, field?: string): AppError {
  const error = notFound(`Order ${'id' in key ? key.id : key.unifiedId}`);
  return field ? new AppError('not_found', error.message, { [field]: error.message }) : error;
}

/** May `viewer` see this order? The domain's predicate, fed with the order's agent and its agent_orders rows. */
export async function isOrderVisible(
  db: Db,
  viewer: OrderViewer,
  order: Pick<OrderRow, 'id' | 'agentId'>,
): Promise<boolean> {
  const scope = scopeOf(viewer);
  const assigned =
    scope.kind === 'agent' && scope.agentId !== null
      ? await db.select({ agentId: agentOrders.agentId }).from(agentOrders).where(eq(agentOrders.orderId, order.id))
      : [];
  return mayAccessOrder(scope, { agentId: order.agentId, assignedAgentIds: assigned.map((a) => a.agentId) });
}

export interface LoadOrderOptions {
  /** Lock the row (`for update`) — a write inside a transaction. */
  readonly lock?: boolean;
  /** The request field that named the order (an id in the body): the 404 lists its message under this field. */
  readonly field?: string;
}

/**
 * The order `key` names, when `viewer` may see it; otherwise 404 not_found, worded as for a missing order. The one
 * way a call that takes an order id reads its order.
 */
export async function loadVisibleOrder(
  db: Db,
  viewer: OrderViewer,
  key: OrderKey,
  options: LoadOrderOptions = {},
): Promise<OrderRow> {
  const query = db
    .select()
    .from(orders)
    .where('id' in key ? eq(orders.id, key.id) : eq(orders.unifiedOrderId, key.unifiedId));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row || !(await isOrderVisible(db, viewer, row))) throw orderNotFound(key, options.field);
  return row;
}

/**
 * The scope of whoever asked for a queued job (its audit actor), for a worker that acts on orders: null for the
 * system (no limit); a staff user by their current role and agent (inactive or unknown → no order); a distributor
 * login by its account's agent; a make-token session by its agent (`agent:<id>`); anyone else sees no order.
 */
export async function orderScopeOfRequester(db: Db, actor: AuditActor): Promise<OrderScope | null> {
  const none: OrderScope = { kind: 'agent', agentId: null };
  if (actor.actorType === 'system') return null;
  const id = actor.actorId == null ? '' : String(actor.actorId);
  if (actor.actorType === 'staff' && /^\d+$/.test(id)) {
    const [user] = await db
      .select({ role: roles.name, agentId: staffUsers.agentId, active: staffUsers.active })
      .from(staffUsers)
      .innerJoin(roles, eq(roles.id, staffUsers.roleId))
      .where(eq(staffUsers.id, Number(id)));
    return user?.active ? orderScopeOf({ kind: 'staff', role: user.role, agentId: user.agentId }) : none;
  }
  if (actor.actorType === 'distributor') {
    const agent = /^agent:(\d+)$/.exec(id);
    if (agent) return { kind: 'agent', agentId: Number(agent[1]) };
    if (/^\d+$/.test(id)) {
      const [account] = await db
        .select({ agentId: distributorAccounts.agentId })
        .from(distributorAccounts)
        .where(eq(distributorAccounts.id, Number(id)));
      return { kind: 'agent', agentId: account?.agentId ?? null };
    }
  }
  return none;
}
