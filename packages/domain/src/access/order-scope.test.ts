import { describe, expect, it } from 'vitest';
import { AGENT_SCOPED_ROLES, isAgentScoped, mayAccessOrder, orderScopeOf, type OrderScope } from './order-scope';
import { ROLES } from './roles';

const own = { agentId: 7, assignedAgentIds: [] };
const foreign = { agentId: 8, assignedAgentIds: [] };
const assigned = { agentId: 8, assignedAgentIds: [9, 7] };
const unowned = { agentId: null, assignedAgentIds: [] };

describe('order scope (decision 102)', () => {
  it('staff with the Distributor or RDC role are agent-scoped; every other staff role is not', () => {
    expect(AGENT_SCOPED_ROLES).toEqual(['Distributor', 'RDC']);
    for (const role of ROLES) {
      expect(isAgentScoped({ kind: 'staff', role }), role).toBe(role === 'Distributor' || role === 'RDC');
    }
  });

  it('every session that is not staff is agent-scoped, whatever its role (distributor login, make-token, unknown)', () => {
    for (const kind of ['distributor', 'maketoken', 'something-new']) {
      expect(isAgentScoped({ kind, role: 'Admin' }), kind).toBe(true);
      expect(isAgentScoped({ kind, role: '' }), kind).toBe(true);
    }
  });

  it("the scope names the session's agent, or all orders", () => {
    expect(orderScopeOf({ kind: 'staff', role: 'RDC', agentId: 7 })).toEqual({ kind: 'agent', agentId: 7 });
    expect(orderScopeOf({ kind: 'distributor', role: 'Distributor', agentId: null })).toEqual({
      kind: 'agent',
      agentId: null,
    });
    expect(orderScopeOf({ kind: 'staff', role: 'AR Team', agentId: 7 })).toEqual({ kind: 'all' });
  });

  it('an agent sees its own orders and those assigned to it through agent_orders, not another agent’s', () => {
    const scope: OrderScope = { kind: 'agent', agentId: 7 };
    expect(mayAccessOrder(scope, own)).toBe(true);
    expect(mayAccessOrder(scope, assigned)).toBe(true);
    expect(mayAccessOrder(scope, foreign)).toBe(false);
    expect(mayAccessOrder(scope, { agentId: 8, assignedAgentIds: [9] })).toBe(false);
    expect(mayAccessOrder(scope, unowned)).toBe(false);
  });

  it('an agent-scoped session without an agent sees nothing, not even orders without an agent', () => {
    const scope: OrderScope = { kind: 'agent', agentId: null };
    for (const order of [own, foreign, assigned, unowned]) expect(mayAccessOrder(scope, order)).toBe(false);
  });

  it('an unscoped session sees every order', () => {
    for (const order of [own, foreign, assigned, unowned]) expect(mayAccessOrder({ kind: 'all' }, order)).toBe(true);
  });
});
