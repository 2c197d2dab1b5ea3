import { mayAccessAgent, type AgentScope } from './agent-scope';
import { mayAccessOrder, type OrderAgents, type OrderScope } from './order-scope';

/*
 * Which customers (merchants) and stores a session may see (decisions 124, 140). The one rule; the server builds its
 * SQL from it (apps/server/src/access/stores.ts) and answers a store or customer the session may not see exactly like
 * one that does not exist (404).
 *
 * - Every staff session that is not agent-scoped (order-scope.ts) sees every customer and store.
 * - An agent-scoped session sees a store linked to its agent or to one of its sub-agents (agent_stores), and the store
 *   of an order it may see (order-scope.ts). It sees a customer when it sees one of the customer's stores or one of
 *   the customer's orders (a new customer whose order has no store yet). Without an agent it sees none.
 * - What belongs to a store (terminals, plans, billing items, bundles, promotions, transactions and invoices of the
 *   store, returns, tax certificates) is visible exactly when the store is; what belongs to the customer alone
 *   (payment instruments, notes, receipts, memos and invoices without a store) exactly when the customer is
 *   (record-scope.ts).
 */

/** An agent linked to a store (agent_stores), with that agent's ancestors (parent, grandparent, …). */
export interface LinkedAgent {
  readonly agentId: number;
  readonly ancestorIds: readonly number[];
}

/** What the rule needs to know about a store. */
export interface StoreOwners {
  /** The agents the store is linked to in agent_stores. */
  readonly linkedAgents: readonly LinkedAgent[];
  /** The store's orders (their agent and agent_orders assignments). */
  readonly orders: readonly OrderAgents[];
}

/** What the rule needs to know about a customer: its stores and its orders (with or without a store). */
export interface CustomerOwners {
  readonly stores: readonly StoreOwners[];
  readonly orders: readonly OrderAgents[];
}

const orderScopeFor = (scope: AgentScope): OrderScope =>
  scope.kind === 'all' ? scope : { kind: 'agent', agentId: scope.agentId };

/** May a session with `scope` (agent-scope.ts: all, or an agent's tree) see this store? */
export function mayAccessStore(scope: AgentScope, store: StoreOwners): boolean {
  if (scope.kind === 'all') return true;
  const orders = orderScopeFor(scope);
  return (
    store.linkedAgents.some((a) => mayAccessAgent(scope, a.agentId, a.ancestorIds)) ||
    store.orders.some((o) => mayAccessOrder(orders, o))
  );
}

/** May a session with `scope` see this customer? */
export function mayAccessCustomer(scope: AgentScope, customer: CustomerOwners): boolean {
  if (scope.kind === 'all') return true;
  const orders = orderScopeFor(scope);
  return (
    customer.stores.some((s) => mayAccessStore(scope, s)) || customer.orders.some((o) => mayAccessOrder(orders, o))
  );
}
