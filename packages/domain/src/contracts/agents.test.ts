import { describe, expect, it } from 'vitest';
import { agentOrderUpdateRequest, getAgentsQuery } from './agents';
import { lineTaxCents, taxFetchRequest } from './catalogue';

describe('getAgentsQuery', () => {
  it('takes at most one filter (none: every agent, a page) and normalises it', () => {
    expect(getAgentsQuery.parse({ types: ' REFP , Distributor,REFP,' })).toMatchObject({
      types: ['REFP', 'Distributor'],
      limit: 50,
      offset: 0,
    });
    expect(getAgentsQuery.parse({ email: ' Ann@Example.COM ' }).email).toBe('ann@example.com');
    expect(getAgentsQuery.parse({ search: '  abc ', type: '' })).toMatchObject({ search: 'abc', type: undefined });
    expect(getAgentsQuery.parse({})).toEqual({ limit: 50, offset: 0 });
    expect(getAgentsQuery.safeParse({ type: 'REFP', email: 'a@example.com' }).success).toBe(false);
    expect(getAgentsQuery.safeParse({ types: ',' }).success).toBe(false);
  });

  it('agentOrderUpdateRequest: version optional, positive ids, no extra keys', () => {
    expect(agentOrderUpdateRequest.parse({ order_id: 1, agent_id: 2 })).toEqual({ order_id: 1, agent_id: 2 });
    expect(agentOrderUpdateRequest.safeParse({ order_id: 1, agent_id: 2, extra: 1 }).success).toBe(false);
    expect(agentOrderUpdateRequest.safeParse({ order_id: '1', agent_id: 2 }).success).toBe(false);
  });
});

describe('taxFetchRequest and lineTaxCents', () => {
  it('wants a store or a state and country, not both', () => {
    const lines = [{ amount_cents: 100 }];
    expect(taxFetchRequest.parse({ state: 'on', country: 'ca', lines })).toMatchObject({
      state: 'ON',
      country: 'CA',
      lines: [{ amount_cents: 100, quantity: 1 }],
    });
    expect(taxFetchRequest.safeParse({ store_id: 3, lines }).success).toBe(true);
    expect(taxFetchRequest.safeParse({ store_id: 3, state: 'ON', lines }).success).toBe(false);
    expect(taxFetchRequest.safeParse({ state: 'ON', lines }).success).toBe(false);
  });

  it('rounds each line half up', () => {
    expect([lineTaxCents(0, 1300), lineTaxCents(200, 625), lineTaxCents(199, 625), lineTaxCents(10_000, 1498)]).toEqual(
      [0, 13, 12, 1498],
    );
  });
});
