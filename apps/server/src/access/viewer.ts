import { agentScopeOf, orderScopeOf, type AgentScope, type OrderScope, type OrderScopeSubject } from '@pos/domain';
import type { SessionContext } from '../http/session-store';

/*
 * Who is looking (decision 140): a session (its kind, role and agent decide what it sees through the domain's owner
 * rules), or the product itself — a worker, a scheduled job, a merchant's link page whose token already named the
 * record — which sees every record (`ALL_RECORDS`).
 */
export type Viewer = OrderScopeSubject | { readonly kind: 'all' };

export const ALL_RECORDS: Viewer = { kind: 'all' };

const isSubject = (v: Viewer | OrderScope | AgentScope): v is OrderScopeSubject => 'role' in v;

/** The viewer of a service call: its session, or the product itself when there is none. */
export function viewerOf(ctx: { readonly session: SessionContext | null }): Viewer {
  return ctx.session ?? ALL_RECORDS;
}

/** The order scope of a viewer (order-scope.ts). */
export function orderScopeOfViewer(viewer: Viewer | OrderScope): OrderScope {
  if (isSubject(viewer)) return orderScopeOf(viewer);
  return viewer.kind === 'all' ? { kind: 'all' } : viewer;
}

/** The agent scope of a viewer (agent-scope.ts). */
export function agentScopeOfViewer(viewer: Viewer | AgentScope): AgentScope {
  if (isSubject(viewer)) return agentScopeOf(viewer);
  return viewer.kind === 'all' ? { kind: 'all' } : viewer;
}
