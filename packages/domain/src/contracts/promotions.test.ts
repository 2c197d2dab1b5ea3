import { describe, expect, it } from 'vitest';
import { fieldsFromZodError } from './common';
import {
  promotionCreateRequest,
  promotionFitsCustomer,
  promotionRefusal,
  promotionState,
  promotionUpdateRequest,
} from './promotions';

const valid = { code: 'fall10', name: 'Fall', method: 'P', percent: 10, currency: 'USD' } as const;
const fields = (input: unknown) => {
  const r = promotionCreateRequest.safeParse(input);
  return r.success ? {} : fieldsFromZodError(r.error);
};

describe('promotion requests', () => {
  it('upper-cases the code and fills the defaults', () => {
    expect(promotionCreateRequest.parse(valid)).toEqual({
      code: 'FALL10',
      name: 'Fall',
      type: 'H',
      method: 'P',
      amount_cents: null,
      percent: 10,
      customer_type: 'A',
      currency: 'USD',
      billing_item_ids: [],
      starts_on: null,
      expires_on: null,
      usage_limit: null,
    });
  });

  it('percent 0 to 100 with 2 decimals; an amount for method A and only then', () => {
    expect(fields({ ...valid, percent: 100 })).toEqual({});
    expect(fields({ ...valid, percent: 0 })).toEqual({});
    expect(fields({ ...valid, percent: 12.5 })).toEqual({});
    expect(fields({ ...valid, percent: 100.01 })).toEqual({ percent: 'Enter a percentage from 0 to 100.' });
    expect(fields({ ...valid, percent: -1 })).toEqual({ percent: 'Enter a percentage from 0 to 100.' });
    expect(fields({ ...valid, percent: 1.234 })).toEqual({ percent: 'A percentage has at most 2 decimals.' });
    expect(fields({ ...valid, percent: null })).toHaveProperty('percent');
    expect(fields({ ...valid, amount_cents: 500 })).toHaveProperty('amount_cents');
    expect(fields({ ...valid, method: 'A', percent: null, amount_cents: -1 })).toHaveProperty('amount_cents');
    expect(fields({ ...valid, method: 'A', percent: null, amount_cents: 0 })).toEqual({});
  });

  it('a code of 3 to 30 letters, digits, - or _; dates in order; billing items once each', () => {
    expect(fields({ ...valid, code: 'ab' })).toHaveProperty('code');
    expect(fields({ ...valid, code: 'has space' })).toHaveProperty('code');
    expect(fields({ ...valid, code: 'OK-CODE_1' })).toEqual({});
    expect(fields({ ...valid, starts_on: '2026-12-01', expires_on: '2026-11-30' })).toEqual({
      expires_on: 'The expiry date is before the start date.',
    });
    expect(fields({ ...valid, starts_on: '2026-02-30' })).toEqual({ starts_on: 'The start date is not a real date.' });
    expect(promotionCreateRequest.parse({ ...valid, billing_item_ids: [66, 66, 1] }).billing_item_ids).toEqual([66, 1]);
    expect(fields({ ...valid, usage_limit: 0 })).toHaveProperty('usage_limit');
  });

  it('an edit needs the version and keeps the same rules', () => {
    expect(promotionUpdateRequest.safeParse(valid).success).toBe(false);
    expect(promotionUpdateRequest.safeParse({ ...valid, version: 2, percent: 101 }).success).toBe(false);
    expect(promotionUpdateRequest.parse({ ...valid, version: 2 }).version).toBe(2);
  });
});

describe('promotion rules', () => {
  const p = { active: true, starts_on: '2026-11-01', expires_on: '2026-11-30', usage_limit: 2, usage_count: 1 };

  it('state by the day (both dates included) and the usage', () => {
    expect(promotionState(p, '2026-10-31')).toBe('scheduled');
    expect(promotionState(p, '2026-11-01')).toBe('current');
    expect(promotionState(p, '2026-11-30')).toBe('current');
    expect(promotionState(p, '2026-12-01')).toBe('expired');
    expect(promotionState({ ...p, usage_count: 2 }, '2026-11-15')).toBe('used_up');
    expect(promotionState({ ...p, usage_limit: null, usage_count: 99 }, '2026-11-15')).toBe('current');
    expect(promotionState({ ...p, active: false }, '2026-11-15')).toBe('inactive');
  });

  it('customer types: N new merchants, E/T/U/R existing customers, A everyone', () => {
    expect(['A', 'N', 'E', 'T', 'U', 'R'].map((t) => promotionFitsCustomer(t, false))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(['A', 'N', 'E', 'T', 'U', 'R'].map((t) => promotionFitsCustomer(t, true))).toEqual([
      true,
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it('why an order may not use it, in words', () => {
    const promo = { ...p, code: 'FALL10', currency: 'USD', customer_type: 'N' };
    const order = { today: '2026-11-15', currency: 'USD', existingCustomer: false };
    expect(promotionRefusal(promo, order)).toBeNull();
    expect(promotionRefusal(promo, { ...order, today: '2026-12-01' })).toBe('Promotion FALL10 expired on 2026-11-30.');
    expect(promotionRefusal(promo, { ...order, currency: 'CAD' })).toBe(
      'Promotion FALL10 is for USD orders; this order is in CAD.',
    );
    expect(promotionRefusal(promo, { ...order, existingCustomer: true })).toBe(
      'Promotion FALL10 is for new customers only.',
    );
    expect(promotionRefusal({ ...promo, usage_count: 2 }, order)).toBe(
      'Promotion FALL10 has reached its limit of 2 orders.',
    );
  });
});
