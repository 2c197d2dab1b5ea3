import { describe, expect, it } from 'vitest';
import { returnBreakdown, returnCreateRequest, returnStatusRequest } from './returns';

describe('returnBreakdown (decision 122)', () => {
  const paidInFull = { open_cents: 0, paid_cents: 2998_00 };

  it('terminals − restocking fee = credit; a paid invoice gets the credit back', () => {
    expect(returnBreakdown({ unit_cents: [1499_00], fee_waived: false, ...paidInFull })).toEqual({
      value_cents: 1499_00,
      fee_cents: 250_00,
      credit_cents: 1249_00,
      refund_cents: 1249_00,
    });
  });

  it('a waived fee credits the whole value', () => {
    expect(returnBreakdown({ unit_cents: [1499_00, 1499_00], fee_waived: true, ...paidInFull })).toMatchObject({
      fee_cents: 0,
      credit_cents: 2998_00,
      refund_cents: 2998_00,
    });
  });

  it('the credit settles what is open first; only the rest goes back, never more than was paid', () => {
    expect(
      returnBreakdown({ unit_cents: [1499_00], fee_waived: false, open_cents: 998_00, paid_cents: 2000_00 }),
    ).toMatchObject({ credit_cents: 1249_00, refund_cents: 251_00 });
    expect(
      returnBreakdown({ unit_cents: [1499_00], fee_waived: false, open_cents: 2998_00, paid_cents: 0 }),
    ).toMatchObject({ credit_cents: 1249_00, refund_cents: 0 });
    expect(
      returnBreakdown({ unit_cents: [1499_00], fee_waived: true, open_cents: 0, paid_cents: 100_00 }),
    ).toMatchObject({ refund_cents: 100_00 });
  });

  it('a fee above the value leaves no negative credit', () => {
    expect(returnBreakdown({ unit_cents: [100_00], fee_waived: false, ...paidInFull })).toMatchObject({
      fee_cents: 100_00,
      credit_cents: 0,
      refund_cents: 0,
    });
  });
});

describe('return requests', () => {
  it('a waiver needs its reason; a reject needs its reason', () => {
    const bad = returnCreateRequest.safeParse({ store_id: 1, terminal_ids: [2], reason: 'x', waive_fee: true });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['fee_waived_reason']);
    expect(returnStatusRequest.safeParse({ action: 'reject', version: 1 }).success).toBe(false);
    expect(returnStatusRequest.safeParse({ action: 'receive', version: 1 }).success).toBe(true);
  });

  it('a terminal is listed once', () => {
    const twice = returnCreateRequest.safeParse({ store_id: 1, terminal_ids: [2, 2], reason: 'x' });
    expect(twice.error?.issues[0]?.message).toBe('A terminal is listed twice.');
  });
});
