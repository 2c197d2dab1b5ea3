import { ownerOfRecord, type RecordPlace } from '@pos/domain';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { customers, stores } from '../db/schema';
import { agentTreeIds } from './agents';
import { agentScopeOfViewer, type Viewer } from './viewer';

/*
 * "Which stores and customers may this session see" on the server (decisions 124, 140): the domain's rule (packages/
 * domain access/store-scope.ts) as SQL. An agent-scoped session sees the stores linked to its agent tree in
 * agent_stores and the stores of the orders it may see (the order rule, decision 102); a customer when it sees one of
 * its stores or one of its orders. Every other session sees all. Callers answer what is not visible exactly like
 * something missing (404).
 */

/**
 * An order `vo` the agent may see (the order rule, decision 102), with aliases of its own so that it can sit inside a
 * query that reads `orders` itself.
 */
function agentOrderSql(agentId: number): SQL {
  return sql`(vo.agent_id = ${agentId} or exists (select 1 from agent_orders vao where vao.order_id = vo.id and vao.agent_id = ${agentId}))`;
}

/** The condition that keeps the stores the viewer may see (a store id column or expression given); undefined = all. */
export function visibleStoresWhere(
  viewer: Viewer,
  storeId: SQL | SQL.Aliased | AnyPgColumn = stores.id,
): SQL | undefined {
  const scope = agentScopeOfViewer(viewer);
  if (scope.kind === 'all') return undefined;
  if (scope.agentId === null) return sql`false`;
  return sql`(exists (select 1 from agent_stores vas where vas.store_id = ${storeId} and vas.agent_id in ${agentTreeIds(scope.agentId)}) or exists (select 1 from orders vo where vo.store_id = ${storeId} and ${agentOrderSql(scope.agentId)}))`;
}

/** The condition that keeps the customers the viewer may see (a customer id column or expression given). */
export function visibleCustomersWhere(
  viewer: Viewer,
  customerId: SQL | SQL.Aliased | AnyPgColumn = customers.id,
): SQL | undefined {
  const scope = agentScopeOfViewer(viewer);
  if (scope.kind === 'all') return undefined;
  if (scope.agentId === null) return sql`false`;
  return sql`(exists (select 1 from stores vs where vs.customer_id = ${customerId} and ${visibleStoresWhere(viewer, sql.raw('vs.id'))}) or exists (select 1 from orders vo where vo.customer_id = ${customerId} and ${agentOrderSql(scope.agentId)}))`;
}

/** May the viewer see this store? */
export async function isStoreVisible(db: Db, viewer: Viewer, storeId: number): Promise<boolean> {
  const where = visibleStoresWhere(viewer);
  if (where === undefined) return true;
  const [row] = await db
    .select({ id: stores.id })
    .from(stores)
    .where(sql`${eq(stores.id, storeId)} and ${where}`);
  return row !== undefined;
}

/** May the viewer see this customer? */
export async function isCustomerVisible(db: Db, viewer: Viewer, customerId: number): Promise<boolean> {
  const where = visibleCustomersWhere(viewer);
  if (where === undefined) return true;
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(sql`${eq(customers.id, customerId)} and ${where}`);
  return row !== undefined;
}

/**
 * May the viewer see a record hung under a merchant (record-scope.ts): its store's rule when it has a store, else its
 * customer's.
 */
export async function isRecordVisible(db: Db, viewer: Viewer, place: RecordPlace): Promise<boolean> {
  const owner = ownerOfRecord(place);
  return owner.kind === 'store' ? isStoreVisible(db, viewer, owner.id) : isCustomerVisible(db, viewer, owner.id);
}

/**
 * The same rules as SQL text for statements written by hand with positional parameters (the customer search, the
 * global search): `bind` adds a parameter and returns its placeholder. Null when the viewer sees all.
 */
export function visibleStoresSqlText(viewer: Viewer, storeId: string, bind: (value: unknown) => string): string | null {
  const scope = agentScopeOfViewer(viewer);
  if (scope.kind === 'all') return null;
  if (scope.agentId === null) return 'false';
  const agent = bind(scope.agentId);
  const tree = `(with recursive tree(id) as (select ${agent}::int union select a.id from agents a join tree on a.parent_agent_id = tree.id) select id from tree)`;
  return `(exists (select 1 from agent_stores vas where vas.store_id = ${storeId} and vas.agent_id in ${tree}) or exists (select 1 from orders vo where vo.store_id = ${storeId} and (vo.agent_id = ${agent} or exists (select 1 from agent_orders vao where vao.order_id = vo.id and vao.agent_id = ${agent}))))`;
}

/** A customer the viewer may see, as SQL text (see visibleStoresSqlText). */
export function visibleCustomersSqlText(
  viewer: Viewer,
  customerId: string,
  bind: (value: unknown) => string,
): string | null {
  const scope = agentScopeOfViewer(viewer);
  if (scope.kind === 'all') return null;
  if (scope.agentId === null) return 'false';
  const stores = visibleStoresSqlText(viewer, 'vcs.id', bind)!;
  const agent = bind(scope.agentId);
  return `(exists (select 1 from stores vcs where vcs.customer_id = ${customerId} and ${stores}) or exists (select 1 from orders vco where vco.customer_id = ${customerId} and (vco.agent_id = ${agent} or exists (select 1 from agent_orders vcao where vcao.order_id = vco.id and vcao.agent_id = ${agent}))))`;
}
