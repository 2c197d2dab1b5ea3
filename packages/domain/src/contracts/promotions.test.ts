import { describe, expect, it } from 'vitest';
import { fieldsFromZodError } from './common';
import { orderDraft } from './orders';
import {
  orderCustomerType,
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

  it("an order's customer type: N without a customer, else its kind of sale (absent or unknown = E)", () => {
    expect(orderCustomerType({ additionalInfo: { customerID: null } })).toBe('N');
    expect(orderCustomerType(null)).toBe('N');
    // A new merchant's order is N whatever the document says about the kind of sale.
    expect(orderCustomerType({ additionalInfo: { customerID: null, saleKind: 'T' } })).toBe('N');
    expect(orderCustomerType({ additionalInfo: { customerID: 42 } })).toBe('E');
    expect(orderCustomerType({ additionalInfo: { customerID: '42', saleKind: 'T' } })).toBe('T');
    expect(orderCustomerType({ additionalInfo: { customerID: 42, saleKind: 'U' } })).toBe('U');
    expect(orderCustomerType({ additionalInfo: { customerID: 42, saleKind: 'R' } })).toBe('R');
    expect(orderCustomerType({ additionalInfo: { customerID: 42, saleKind: 'E' } })).toBe('E');
    expect(orderCustomerType({ additionalInfo: { customerID: 42, saleKind: 'X' } })).toBe('E');
    // The order row's customer counts like the document's.
    expect(orderCustomerType({ additionalInfo: { saleKind: 'R' } }, 7)).toBe('R');
    expect(orderCustomerType({}, 7)).toBe('E');
  });

  it('the order document keeps the kind of sale: E, T, U or R, or none (older orders)', () => {
    expect(orderDraft.safeParse({ additionalInfo: { customerID: 1, saleKind: 'T' } }).success).toBe(true);
    expect(orderDraft.safeParse({ additionalInfo: { customerID: 1 } }).success).toBe(true);
    expect(orderDraft.safeParse({ additionalInfo: { customerID: 1, saleKind: null } }).success).toBe(true);
    const bad = orderDraft.safeParse({ additionalInfo: { customerID: 1, saleKind: 'N' } });
    expect(bad.success ? {} : fieldsFromZodError(bad.error)).toEqual({
      'additionalInfo.saleKind': 'Kind of sale is E (existing store), T (transfer), U (upgrade) or R (replacement).',
    });
  });

  // Rows: the promotion's customer type; columns: the order's (N, E, T, U, R).
  const ORDER_TYPES = ['N', 'E', 'T', 'U', 'R'] as const;
  const FITS: Record<string, readonly boolean[]> = {
    A: [true, true, true, true, true],
    N: [true, false, false, false, false],
    E: [false, true, true, true, true],
    T: [false, false, true, false, false],
    U: [false, false, false, true, false],
    R: [false, false, false, false, true],
  };
  it.each(
    Object.entries(FITS).flatMap(([promotion, row]) => ORDER_TYPES.map((order, i) => [promotion, order, row[i]!])),
  )('a %s promotion on a %s order fits: %s', (promotion, order, fits) => {
    expect(promotionFitsCustomer(promotion as string, order as (typeof ORDER_TYPES)[number])).toBe(fits);
  });

  it('an unknown promotion customer type fits no order', () => {
    expect(ORDER_TYPES.map((o) => promotionFitsCustomer('X', o))).toEqual([false, false, false, false, false]);
  });

  it('why an order may not use it, in words', () => {
    const promo = { ...p, code: 'FALL10', currency: 'USD', customer_type: 'N' };
    const order = { today: '2026-11-15', currency: 'USD', customerType: 'N' as const };
    expect(promotionRefusal(promo, order)).toBeNull();
    expect(promotionRefusal(promo, { ...order, today: '2026-12-01' })).toBe('Promotion FALL10 expired on 2026-11-30.');
    expect(promotionRefusal(promo, { ...order, currency: 'CAD' })).toBe(
      'Promotion FALL10 is for USD orders; this order is in CAD.',
    );
    expect(promotionRefusal(promo, { ...order, customerType: 'E' })).toBe(
      'Promotion FALL10 is for new customers only; this order is an add-on for an existing store.',
    );
    expect(promotionRefusal({ ...promo, usage_count: 2 }, order)).toBe(
      'Promotion FALL10 has reached its limit of 2 orders.',
    );
  });

  it('the customer-type refusal says whom the promotion is for and what the order is', () => {
    const promo = { ...p, code: 'MOVE5', currency: 'USD' };
    const order = { today: '2026-11-15', currency: 'USD' };
    const refusal = (customer_type: string, customerType: 'N' | 'E' | 'T' | 'U' | 'R') =>
      promotionRefusal({ ...promo, customer_type }, { ...order, customerType });
    expect(refusal('T', 'E')).toBe(
      'Promotion MOVE5 is for transfers only; this order is an add-on for an existing store.',
    );
    expect(refusal('T', 'T')).toBeNull();
    expect(refusal('U', 'R')).toBe('Promotion MOVE5 is for upgrades only; this order is a replacement.');
    expect(refusal('R', 'U')).toBe('Promotion MOVE5 is for replacements only; this order is an upgrade.');
    expect(refusal('T', 'N')).toBe('Promotion MOVE5 is for transfers only; this order is for a new merchant.');
    expect(refusal('E', 'N')).toBe('Promotion MOVE5 is for existing customers only; this order is for a new merchant.');
    expect(refusal('N', 'T')).toBe('Promotion MOVE5 is for new customers only; this order is a transfer.');
    expect(refusal('E', 'R')).toBeNull();
    expect(refusal('A', 'N')).toBeNull();
  });
});
