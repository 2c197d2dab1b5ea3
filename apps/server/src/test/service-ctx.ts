import type { ServiceCtx } from '../context';
import type { TestApp } from './test-app';

/**
 * A service context with an agent-scoped session that holds `privileges` as given — for the defence-in-depth tests of
 * the agent filters of lists whose guard no agent-scoped session passes any more (decision 140: such a session is
 * made without provider-wide privileges, so only a service call can still ask as one).
 */
export function agentScopedCtx(t: TestApp, agentId: number, privileges: readonly string[]): ServiceCtx {
  const now = t.clock.now();
  return {
    app: t.app.ctx,
    session: {
      id: 0,
      kind: 'staff',
      role: 'Distributor',
      privileges: [...privileges],
      email: 'agent-scoped@example.com',
      name: 'Agent scoped',
      accountManagerUsername: null,
      staffUserId: null,
      distributorAccountId: null,
      agentId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + 3_600_000),
    },
    actor: { actorType: 'staff', actorId: null, actorEmail: 'agent-scoped@example.com' },
    requestId: 'agent-scoped-test',
    ip: null,
    userAgent: null,
  };
}
