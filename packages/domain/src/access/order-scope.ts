import { assertNever } from '../util/assert-never';
import type { Permission } from './permissions';
import { ROLE, type Role } from './roles';

/*
 * Which orders a session may see and act on (decision 102). The one rule; the server builds its SQL filter and its
 * "load a visible order" from it (apps/server/src/modules/orders/order-access.ts).
 *
 * - Agent-scoped: every session that is not a staff session (distributor login, make-token), and a staff session
 *   whose role is an external agent's (Distributor, RDC). Its agent is the session's agent; without one it sees
 *   no order at all.
 * - An agent-scoped session sees an order whose agent_id is its agent, or that is assigned to its agent through
 *   agent_orders. Nothing else: parent agents, the customer, the sales rep do not widen it.
 * - Every other staff session sees every order (what it may do with one is the route guard's and the transition
 *   table's business, not this rule's).
 */

/** Staff roles that work for an external agent and so see only that agent's orders. */
export const AGENT_SCOPED_ROLES: readonly Role[] = [ROLE.DISTRIBUTOR, ROLE.RDC];

/** What the rule needs to know about a session (the server's session satisfies it). */
export interface OrderScopeSubject {
  /** 'staff', or another kind of session ('distributor', 'maketoken', …): every non-staff kind is agent-scoped. */
  readonly kind: string;
  readonly role: string;
  /** The agent the session works for, if any. */
  readonly agentId: number | null;
}

/** The orders a session may see: all of them, or one agent's (none when the agent is null). */
export type OrderScope = { readonly kind: 'all' } | { readonly kind: 'agent'; readonly agentId: number | null };

/** What the rule needs to know about an order. */
export interface OrderAgents {
  /** orders.agent_id: the agent that owns the order. */
  readonly agentId: number | null;
  /** The agents the order is assigned to in agent_orders. */
  readonly assignedAgentIds: readonly number[];
}

/** Is this session limited to its agent's orders? Staff with an agent role, and every non-staff session. */
export function isAgentScoped(subject: Pick<OrderScopeSubject, 'kind' | 'role'>): boolean {
  return subject.kind !== 'staff' || (AGENT_SCOPED_ROLES as readonly string[]).includes(subject.role);
}

/** The orders `subject` may see. */
export function orderScopeOf(subject: OrderScopeSubject): OrderScope {
  return isAgentScoped(subject) ? { kind: 'agent', agentId: subject.agentId } : { kind: 'all' };
}

/** May a session with `scope` see (and so act on) an order owned by / assigned to these agents? */
export function mayAccessOrder(scope: OrderScope, order: OrderAgents): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'agent':
      return (
        scope.agentId !== null && (order.agentId === scope.agentId || order.assignedAgentIds.includes(scope.agentId))
      );
    default:
      return assertNever(scope);
  }
}

/**
 * The privileges an agent-scoped session may hold (decision 140): selling (orders, the new-order pages), following its
 * own merchants (customer details, their features) and reading promotions. The provider-wide screens — AR, invoices,
 * receipts, approvals, failed payments, reports, win-back, promotion editing — work on the whole book and are never an
 * external agent's, whatever its role or extra privileges say.
 */
export const AGENT_SCOPED_PRIVILEGES: readonly Permission[] = [
  'create_distributor_orders',
  'search_orders_view',
  'search_orders_edit',
  'customer_details_view',
  'customer_details_edit',
  'customer_features_edit',
  'customer_features_limited',
  'promotions_view',
];

/** The privileges a session of `subject` holds out of `granted`: all of them, or for an agent-scoped session those it may. */
export function privilegesInScope(
  subject: Pick<OrderScopeSubject, 'kind' | 'role'>,
  granted: Iterable<string>,
): string[] {
  const list = [...granted];
  return isAgentScoped(subject) ? list.filter((p) => (AGENT_SCOPED_PRIVILEGES as readonly string[]).includes(p)) : list;
}
