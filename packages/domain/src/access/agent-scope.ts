import { isAgentScoped, type OrderScopeSubject } from './order-scope';
import { ROLE, type Role } from './roles';

/*
 * Which agents (and so which agents' stores and referrals) a session may see, and who may change agents
 * (decision 124). The one rule; the server builds its SQL from it (apps/server/src/modules/agents/agent-access.ts).
 *
 * - An agent-scoped session (order-scope.ts: every non-staff session, and staff with the Distributor or RDC role)
 *   sees its own agent and that agent's sub-agents (parent_agent_id, any depth) — never a sibling, a parent or
 *   another distributor. Without an agent it sees none.
 * - Every other staff session sees every agent.
 * - Creating, editing, inviting and deactivating agents: staff sessions with the Admin, RAM or IS role.
 */

/** The agents a session may see: all of them, or one agent's tree (none when the agent is null). */
export type AgentScope = { readonly kind: 'all' } | { readonly kind: 'tree'; readonly agentId: number | null };

export function agentScopeOf(subject: OrderScopeSubject): AgentScope {
  return isAgentScoped(subject) ? { kind: 'tree', agentId: subject.agentId } : { kind: 'all' };
}

/** Staff roles that create, edit, invite and deactivate agents. */
export const AGENT_EDITOR_ROLES: readonly Role[] = [ROLE.ADMIN, ROLE.RAM, ROLE.IS];

export function mayEditAgents(subject: Pick<OrderScopeSubject, 'kind' | 'role'>): boolean {
  return subject.kind === 'staff' && (AGENT_EDITOR_ROLES as readonly string[]).includes(subject.role);
}

/**
 * May a session with `scope` see the agent `agentId`, whose ancestors (parent, grandparent, …) are `ancestorIds`?
 */
export function mayAccessAgent(scope: AgentScope, agentId: number, ancestorIds: readonly number[]): boolean {
  if (scope.kind === 'all') return true;
  return scope.agentId !== null && (agentId === scope.agentId || ancestorIds.includes(scope.agentId));
}
