import { describe, expect, it } from 'vitest';
import {
  AGENT_TYPES,
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
  SALES_CHANNELS,
  SALES_CHANNEL_CODES,
  TEST_STORE_TYPES,
  isAgentType,
  isBillableStoreType,
  isTestOrDemoStoreType,
  salesChannelForCode,
} from './sales';

describe('sales codes', () => {
  it('customer types A/N/E/T/U/R', () => {
    expect(CUSTOMER_TYPES).toEqual(['A', 'N', 'E', 'T', 'U', 'R']);
    expect(CUSTOMER_TYPE_LABELS).toEqual({
      A: 'Any',
      N: 'New Store',
      E: 'Existing Store',
      T: 'Transfers',
      U: 'Upgrades',
      R: 'Replacements',
    });
  });

  it('sales channels and their codes', () => {
    expect(SALES_CHANNELS).toEqual(['IS', 'RAM', 'Distributor', 'MSS']);
    expect(SALES_CHANNEL_CODES).toEqual({ IS: [1], RAM: [2, 4], Distributor: [5, 7, 8], MSS: [10] });
  });

  it.each([
    [1, 'IS'],
    [2, 'RAM'],
    [4, 'RAM'],
    [5, 'Distributor'],
    [7, 'Distributor'],
    [8, 'Distributor'],
    [10, 'MSS'],
    ['10', 'MSS'],
    [' 4 ', 'RAM'],
  ] as const)('code %s is %s', (code, channel) => {
    expect(salesChannelForCode(code)).toBe(channel);
  });

  it.each([3, 6, 9, 0, 11, '', 'x', '1.0'])('code %s has no channel', (code) => {
    expect(salesChannelForCode(code)).toBeUndefined();
  });

  it('agent types and test/demo store types', () => {
    expect(AGENT_TYPES).toEqual(['Distributor', 'REFP', 'RDC']);
    expect(isAgentType('REFP')).toBe(true);
    expect(isAgentType('IS')).toBe(false);
    expect(TEST_STORE_TYPES).toEqual(['T', 'D']);
    expect(isTestOrDemoStoreType('D')).toBe(true);
    expect(isTestOrDemoStoreType('P')).toBe(false);
  });

  it('billable store types: every type but test and demo; no store is billable (decision 149)', () => {
    expect(isBillableStoreType('R')).toBe(true);
    expect(isBillableStoreType('T')).toBe(false);
    expect(isBillableStoreType('D')).toBe(false);
    expect(isBillableStoreType(null)).toBe(true);
    expect(isBillableStoreType(undefined)).toBe(true);
  });
});
