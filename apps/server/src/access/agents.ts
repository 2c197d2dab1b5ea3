import type { AgentScope } from '@pos/domain';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { agents } from '../db/schema';
import { AppError } from '../http/errors';
import { agentScopeOfViewer, type Viewer } from './viewer';

/*
 * "Which agents may this session see" on the server (decision 124): the domain's rule (packages/domain
 * access/agent-scope.ts) as SQL. An agent-scoped session sees its agent and the agent's sub-agents (any depth).
 * Anything else is answered exactly like something missing (404).
 */

/** The ids of the agent's tree (itself and every sub-agent), as a subquery. */
export function agentTreeIds(agentId: number): SQL {
  return sql`(with recursive tree(id) as (select ${agentId}::int union select a.id from ${agents} a join tree on a.parent_agent_id = tree.id) select id from tree)`;
}

/** The condition on `agents` for lists; undefined when the viewer sees every agent. */
export function visibleAgentsWhere(viewer: Viewer | AgentScope): SQL | undefined {
  const scope = agentScopeOfViewer(viewer);
  if (scope.kind === 'all') return undefined;
  if (scope.agentId === null) return sql`false`;
  return sql`${agents.id} in ${agentTreeIds(scope.agentId)}`;
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
