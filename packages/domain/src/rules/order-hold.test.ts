import { describe, expect, it } from 'vitest';
import { orderHoldMessage } from './order-hold';

const base = {
  order_id: 7,
  method: 'card' as const,
  installments: false,
  upfront_cents: 206_763,
  currency: 'USD' as const,
  authorization_id: null,
  amount_cents: null,
  card: null,
  decline_reason: null,
  at: null,
  settlement: null,
};

describe('orderHoldMessage', () => {
  it('says what is held on which card', () => {
    expect(
      orderHoldMessage({
        ...base,
        state: 'authorized',
        amount_cents: 206_763,
        card: { brand: 'visa', last4: '4242' },
      }),
    ).toBe('Authorized $2,067.63 on Visa ending 4242: captured when the order is complete.');
  });

  it('gives the decline in words and what to do', () => {
    expect(
      orderHoldMessage({
        ...base,
        state: 'declined',
        card: { brand: 'visa', last4: '9995' },
        decline_reason: 'Insufficient funds',
      }),
    ).toBe('Visa ending 9995 was declined: Insufficient funds. Enter another card, or try this one again.');
  });

  it('says how the money comes when no hold is taken', () => {
    expect(orderHoldMessage({ ...base, state: 'not_needed', method: 'bank', currency: 'CAD' })).toBe(
      'No card hold: the bank account is debited C$2,067.63 when the order is complete.',
    );
    expect(orderHoldMessage({ ...base, state: 'not_needed', method: 'cash' })).toMatch(/cash or check; AR records/);
    expect(orderHoldMessage({ ...base, state: 'not_needed', installments: true, upfront_cents: 0 })).toMatch(
      /^Installments: nothing is paid upfront/,
    );
    expect(orderHoldMessage({ ...base, state: 'needs_card' })).toBe(
      'Enter the card: $2,067.63 (tax included) is authorized on it when you save.',
    );
  });

  it("says how a closed order's hold was settled", () => {
    const card = { brand: 'visa' as const, last4: '4242' };
    const settled = { amount_cents: 206_763, invoice_number: 'INV-2026-0000042', failure_reason: null };
    expect(
      orderHoldMessage({
        ...base,
        state: 'closed',
        card,
        settlement: { ...settled, action: 'capture', status: 'done' },
      }),
    ).toBe('Captured $2,067.63 on Visa ending 4242 for invoice INV-2026-0000042.');
    expect(
      orderHoldMessage({
        ...base,
        state: 'closed',
        card,
        settlement: { ...settled, invoice_number: null, action: 'release', status: 'done' },
      }),
    ).toBe('Released: the hold of $2,067.63 on Visa ending 4242 was voided; nothing was charged.');
  });
});
