import { describe, expect, it } from 'vitest';
import { agentScopeOf, mayAccessAgent, mayEditAgents } from './agent-scope';

describe('agent scope (decision 124)', () => {
  it('agent-scoped sessions see their agent tree; other staff see all', () => {
    expect(agentScopeOf({ kind: 'staff', role: 'IS', agentId: null })).toEqual({ kind: 'all' });
    expect(agentScopeOf({ kind: 'staff', role: 'Distributor', agentId: 4 })).toEqual({ kind: 'tree', agentId: 4 });
    expect(agentScopeOf({ kind: 'distributor', role: 'Admin', agentId: 7 })).toEqual({ kind: 'tree', agentId: 7 });
  });

  it('an agent, its sub-agents at any depth, nothing else', () => {
    const scope = { kind: 'tree', agentId: 4 } as const;
    expect(mayAccessAgent(scope, 4, [])).toBe(true);
    expect(mayAccessAgent(scope, 9, [5, 4])).toBe(true);
    expect(mayAccessAgent(scope, 5, [])).toBe(false);
    expect(mayAccessAgent(scope, 2, [1])).toBe(false);
    expect(mayAccessAgent({ kind: 'tree', agentId: null }, 4, [])).toBe(false);
    expect(mayAccessAgent({ kind: 'all' }, 4, [])).toBe(true);
  });

  it('only Admin, RAM and IS staff edit agents', () => {
    expect(mayEditAgents({ kind: 'staff', role: 'Admin' })).toBe(true);
    expect(mayEditAgents({ kind: 'staff', role: 'RAM' })).toBe(true);
    expect(mayEditAgents({ kind: 'staff', role: 'IS' })).toBe(true);
    expect(mayEditAgents({ kind: 'staff', role: 'Marketing' })).toBe(false);
    expect(mayEditAgents({ kind: 'staff', role: 'Distributor' })).toBe(false);
    expect(mayEditAgents({ kind: 'distributor', role: 'Admin' })).toBe(false);
  });
});
