import { describe, expect, it } from 'vitest';
import { OTHER_IDS } from './billing';
import {
  CARD_BRAND_LABELS,
  CARD_BRANDS,
  PAYMENT_METHOD_CODE,
  PAYMENT_METHOD_KINDS,
  PAYMENT_METHOD_TYPE_IDS,
  paymentMethodCodeFor,
  paymentMethodKindOf,
} from './payment-methods';

describe('payment methods', () => {
  it('card 1, bank 2, cash 3 (the spec’s cash payment method id)', () => {
    expect(PAYMENT_METHOD_KINDS).toEqual(['card', 'bank', 'cash']);
    expect(PAYMENT_METHOD_TYPE_IDS).toEqual({ card: 1, bank: 2, cash: 3 });
    expect(PAYMENT_METHOD_TYPE_IDS.cash).toBe(OTHER_IDS.CASH_PAYMENT_METHOD_ID);
  });

  it('reads a type id as a number or as text; anything else is no method', () => {
    expect(paymentMethodKindOf(1)).toBe('card');
    expect(paymentMethodKindOf('2')).toBe('bank');
    expect(paymentMethodKindOf(3)).toBe('cash');
    for (const none of [null, undefined, '', 0, 4, 'card', Number.NaN]) expect(paymentMethodKindOf(none)).toBeNull();
  });

  it('codes: CC, ACH for a US bank account, CAD for a Canadian one, CASH', () => {
    expect(paymentMethodCodeFor('card', 'CA')).toBe(PAYMENT_METHOD_CODE.CARD);
    expect(paymentMethodCodeFor('bank', 'US')).toBe('ACH');
    expect(paymentMethodCodeFor('bank', null)).toBe('ACH');
    expect(paymentMethodCodeFor('bank', 'CA')).toBe('CAD');
    expect(paymentMethodCodeFor('cash', 'US')).toBe('CASH');
  });

  it('brand labels for every brand the gateway names', () => {
    expect(Object.keys(CARD_BRAND_LABELS)).toEqual([...CARD_BRANDS]);
    expect(CARD_BRAND_LABELS.amex).toBe('American Express');
  });
});
