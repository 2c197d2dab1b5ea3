import { agentScopeOf, type AgentScope, type OrderScopeSubject } from '@pos/domain';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agents, agentStores, orders, stores } from '../../db/schema';
import { AppError } from '../../http/errors';
import { visibleOrdersWhere } from '../orders';

/*
 * "Which agents and which stores may this session see" on the server (decision 124): the domain's rule
 * (packages/domain access/agent-scope.ts) as SQL. An agent-scoped session sees its agent and the agent's sub-agents
 * (any depth), and the stores linked to them in agent_stores plus the stores of the orders it may see (the order-
 * access rule, decision 102). Anything else is answered exactly like something missing (404).
 */

type Viewer = OrderScopeSubject;

/** The ids of the agent's tree (itself and every sub-agent), as a subquery. */
function treeIds(agentId: number): SQL {
  return sql`(with recursive tree(id) as (select ${agentId}::int union select a.id from ${agents} a join tree on a.parent_agent_id = tree.id) select id from tree)`;
}

/** The condition on `agents` for lists; undefined when the viewer sees every agent. */
export function visibleAgentsWhere(viewer: Viewer | AgentScope): SQL | undefined {
  const scope = 'role' in viewer ? agentScopeOf(viewer) : viewer;
  if (scope.kind === 'all') return undefined;
  if (scope.agentId === null) return sql`false`;
  return sql`${agents.id} in ${treeIds(scope.agentId)}`;
}

/** The condition on `stores` (a store's id column given) that keeps the stores the viewer may see. */
export function visibleStoresWhere(viewer: Viewer, storeId: SQL | typeof stores.id = stores.id): SQL | undefined {
  const scope = agentScopeOf(viewer);
  if (scope.kind === 'all') return undefined;
  if (scope.agentId === null) return sql`false`;
  return sql`(exists (select 1 from ${agentStores} where ${agentStores.storeId} = ${storeId} and ${agentStores.agentId} in ${treeIds(scope.agentId)}) or exists (select 1 from ${orders} where ${orders.storeId} = ${storeId} and ${visibleOrdersWhere(viewer)}))`;
}

/** May the viewer see this store? (The catalogue's store-priced calls answer 404 when not.) */
export async function isStoreVisible(db: Db, viewer: Viewer, storeId: number): Promise<boolean> {
  const where = visibleStoresWhere(viewer);
  if (where === undefined) return true;
  const [row] = await db
    .select({ id: stores.id })
    .from(stores)
    .where(sql`${eq(stores.id, storeId)} and ${where}`);
  return row !== undefined;
}

/** May the viewer see this agent? */
export async function isAgentVisible(db: Db, viewer: Viewer, agentId: number): Promise<boolean> {
  const where = visibleAgentsWhere(viewer);
  if (where === undefined) return true;
  const [row] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(sql`${eq(agents.id, agentId)} and ${where}`);
  return row !== undefined;
}

export const agentNotFound = (agentId: number, field?: string) => {
  const message = `Agent ${agentId} was not found.`;
  return new AppError('not_found', message, field ? { [field]: `There is no agent ${agentId}.` } : undefined);
};
