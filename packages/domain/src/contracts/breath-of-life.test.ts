import { describe, expect, it } from 'vitest';
import { winbackActivityCreate, winbackListQuery, winbackOfferCreate, winbackOutcomeCreate } from './breath-of-life';

describe('breath of life contracts (decision 131)', () => {
  it('an offer of a promotion names it; a waived fee names none', () => {
    expect(winbackOfferCreate.safeParse({ offer: 'fee_waived', version: 0 }).success).toBe(true);
    expect(winbackOfferCreate.safeParse({ offer: 'promotion', promotion_id: 7, version: 2 }).success).toBe(true);
    const missing = winbackOfferCreate.safeParse({ offer: 'promotion', version: 0 });
    expect(missing.error?.issues.map((i) => i.path.join('.'))).toEqual(['promotion_id']);
    expect(winbackOfferCreate.safeParse({ offer: 'fee_waived', promotion_id: 7, version: 0 }).success).toBe(false);
  });

  it('lost needs a reason; won does not; a note needs text', () => {
    expect(winbackOutcomeCreate.safeParse({ outcome: 'won', version: 1 }).success).toBe(true);
    expect(winbackOutcomeCreate.safeParse({ outcome: 'lost', version: 1 }).error?.issues[0]?.path).toEqual(['reason']);
    expect(winbackActivityCreate.safeParse({ kind: 'note', text: '   ', version: 0 }).success).toBe(false);
    expect(winbackActivityCreate.safeParse({ kind: 'email', text: 'x', version: 0 }).success).toBe(false);
  });

  it('the list query: known filters and sorts, two letters of search at least', () => {
    expect(winbackListQuery.parse({})).toMatchObject({ limit: 50, offset: 0, format: 'json' });
    expect(winbackListQuery.safeParse({ sort: '-days_since', status: 'offer_made' }).success).toBe(true);
    expect(winbackListQuery.safeParse({ sort: 'amount' }).success).toBe(false);
    expect(winbackListQuery.safeParse({ q: 'a' }).success).toBe(false);
  });
});
