import { describe, expect, it } from 'vitest';
import { planSearch } from './search-kind';

describe('planSearch: what the one search box asks for', () => {
  it.each([
    ['100001', 'customerid', '100001', 'Searching customer id 100001'],
    ['C100001', 'customerid', '100001', 'Searching customer id 100001'],
    ['S500002', 'storeid', '500002', 'Searching store id 500002'],
    ['s500002', 'storeid', '500002', 'Searching store id 500002'],
    ['12-3456789', 'federaltaxid', '12-3456789', 'Searching federal tax id 12-3456789'],
    ['123456789', 'federaltaxid', '12-3456789', 'Searching federal tax id 12-3456789'],
    ['  Corner Deli ', 'search', 'Corner Deli', 'Searching text “Corner Deli”'],
  ])('%j → %s %s', (text, kind, value, description) => {
    expect(planSearch(text)).toEqual({ state: 'ready', kind, value, description });
  });

  it('blank text asks for nothing', () => {
    expect(planSearch('   ')).toEqual({ state: 'empty' });
  });

  it('free text under 3 characters waits and says why', () => {
    const plan = planSearch('ab');
    expect(plan.state).toBe('too_short');
    expect(plan.state === 'too_short' && plan.message).toMatch(/at least 3 characters/);
    expect(planSearch('abc').state).toBe('ready');
  });
});
