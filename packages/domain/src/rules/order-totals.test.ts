import { describe, expect, it } from 'vitest';
import { blankOrder } from '../contracts/orders';
import { DEFAULT_MARKETPLACE_FEE_ITEM_ID, FEES } from '../codes/billing';
import { AUTHORIZATION_TOLERANCE_PERCENT } from '../limits';
import { isOfferedOnOrders } from './invoice-lines';
import { centsToDecimal } from './money';
import {
  authorizationCeilingCents,
  installmentPlan,
  orderCurrency,
  orderHasNrsPayBundle,
  orderPromotionRewards,
  orderSaleInvoiceLines,
  orderTotals,
  orderUpfrontCents,
} from './order-totals';

describe('orderTotals', () => {
  it('adds hardware, bundles and one-time charges, takes discounts off and adds tax', () => {
    const doc = {
      ...blankOrder(),
      BillingItemInfo: [
        { billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 2, unitPrice: '1499.00' },
        { billingItemId: 20, name: 'Shipping', quantity: 1, unitPrice: '35.00' },
        { billingItemId: 8, name: 'Monthly service fee', quantity: 1, unitPrice: '10.00', recurring: true },
      ],
      BundleInfo: [{ bundleId: 9, name: 'NRS Pay', quantity: 1, unitPrice: '100.00', monthlyPrice: '49.00' }],
      PromotionInfo: [{ promoId: 3, code: 'SPRING', name: 'Spring', method: 'A', amount: '50.00' }],
      additionalDiscount: { type: 'percent', value: 10 },
    };
    const t = orderTotals(doc, 250_00);
    expect(t.subtotalCents).toBe(2 * 1499_00 + 35_00 + 100_00);
    expect(t.discountCents).toBe(50_00 + Math.round(3133_00 / 10));
    expect(t.taxCents).toBe(250_00);
    expect(t.totalCents).toBe(3133_00 - t.discountCents + 250_00);
    expect(t.recurringCents).toBe(10_00 + 49_00);
    expect(t.lines.map((l) => l.section)).toEqual(['hardware', 'charge', 'hardware', 'discount', 'discount', 'tax']);
    expect(t.currency).toBe('USD');
    expect(t.installments).toBeNull();
  });

  it('never discounts below zero and ignores malformed entries', () => {
    const doc = {
      ...blankOrder(),
      BillingItemInfo: [{ billingItemId: 1, name: 'x', quantity: 1, unitPrice: '10.00' }, { nonsense: true }],
      additionalDiscount: '99.00',
    };
    const t = orderTotals(doc);
    expect(t.subtotalCents).toBe(10_00);
    expect(t.discountCents).toBe(10_00);
    expect(t.totalCents).toBe(0);
  });

  it('uses CAD for a Canadian store and yearly interval for plan 5, installments with 5 % interest', () => {
    const doc = blankOrder();
    doc.StoreInfo!.StoreAddress!.country = 'CA';
    doc.PaymentPlanInfo![0] = { ...doc.PaymentPlanInfo![0], paymentPlanId: 2, term: 12 };
    doc.PaymentPlanInfo![1] = { ...doc.PaymentPlanInfo![1], paymentPlanId: 5, recurringAmount: '499.00' };
    doc.BillingItemInfo = [{ billingItemId: 1, productId: 1, name: 'POS', quantity: 1, unitPrice: '1200.00' }];
    const t = orderTotals(doc);
    expect(orderCurrency(doc)).toBe('CAD');
    expect(t.currency).toBe('CAD');
    expect(t.recurringIntervalMonths).toBe(12);
    expect(t.recurringCents).toBe(499_00);
    expect(t.installments).toEqual({ count: 12, amountCents: 105_00, interestCents: 60_00 });
  });

  it('spreads installments with the last cent rounded up', () => {
    expect(installmentPlan(100_00, 3)).toEqual({ count: 3, amountCents: 3500, interestCents: 500 });
  });

  it('finds NRS Pay bundles by flag or id', () => {
    expect(
      orderHasNrsPayBundle({ BundleInfo: [{ bundleId: 9, name: 'a', quantity: 1, unitPrice: '0.00' }] }, [9]),
    ).toBe(true);
    expect(
      orderHasNrsPayBundle({ BundleInfo: [{ bundleId: 3, name: 'a', quantity: 1, unitPrice: '0.00' }] }, [9]),
    ).toBe(false);
  });
});

describe('orderUpfrontCents and the authorization ceiling (decision 142)', () => {
  const sale = {
    ...blankOrder(),
    BillingItemInfo: [{ billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 1, unitPrice: '1499.00' }],
    PromotionInfo: [{ promoId: 3, code: 'SPRING', name: 'Spring', method: 'A', amount: '99.00' }],
  };

  it("a POS order paid upfront: the sale after discounts plus the sale's tax (what onboarding puts on the hardware plan)", () => {
    expect(orderUpfrontCents(sale, 112_00)).toBe(1400_00 + 112_00);
  });

  it('nothing upfront on installments or a non-POS order', () => {
    const installments = {
      ...sale,
      PaymentPlanInfo: sale.PaymentPlanInfo!.map((p, i) => (i === 0 ? { ...p, paymentPlanId: 2, term: 12 } : p)),
    };
    expect(orderUpfrontCents(installments, 112_00)).toBe(0);
    expect(orderUpfrontCents({ ...sale, orderType: 'N' }, 112_00)).toBe(0);
  });

  it('the ceiling is the upfront total plus the stated tolerance', () => {
    expect(AUTHORIZATION_TOLERANCE_PERCENT).toBe(0);
    expect(authorizationCeilingCents(1512_00)).toBe(1512_00);
    expect(authorizationCeilingCents(0)).toBe(0);
  });
});

describe('orderSaleInvoiceLines (decision 148)', () => {
  const sale = {
    ...blankOrder(),
    BillingItemInfo: [
      { billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 2, unitPrice: '899.00' },
      { billingItemId: 20, name: 'Shipping', quantity: 1, unitPrice: '35.00' },
      { billingItemId: 213, name: 'Extra terminal license', quantity: 1, unitPrice: '10.00', recurring: true },
    ],
    BundleInfo: [{ bundleId: 5, name: 'NRS Pay Plus', quantity: 1, unitPrice: '120.00', monthlyPrice: '29.00' }],
    PromotionInfo: [{ promoId: 3, code: 'SPRING', name: 'Spring', method: 'A', amount: '99.00' }],
  };

  it('one line per product, charge, bundle and discount, the tax last as its own line; they add up to the upfront total', () => {
    const lines = orderSaleInvoiceLines(sale, 118_94, 'State sales tax');
    expect(lines.map((l) => [l.billingItemId, l.description, l.quantity, l.amountCents])).toEqual([
      [1, 'POS terminal', 2, 1798_00],
      [20, 'Shipping', 1, 35_00],
      [30, 'NRS Pay Plus', 1, 120_00],
      [7, 'Promotion SPRING', 1, -99_00],
      [6, 'State sales tax', 1, 118_94],
    ]);
    expect(lines.reduce((s, l) => s + l.amountCents, 0)).toBe(orderUpfrontCents(sale, 118_94));
  });

  it('a marketplace fee the rep added (items 113–115, FEES.MARKETPLACE_FEE_CENTS) is its own line under its own item', () => {
    const withFee = {
      ...sale,
      BillingItemInfo: [
        ...sale.BillingItemInfo,
        {
          billingItemId: DEFAULT_MARKETPLACE_FEE_ITEM_ID,
          name: 'Marketplace fee',
          quantity: 1,
          unitPrice: centsToDecimal(FEES.MARKETPLACE_FEE_CENTS),
        },
      ],
    };
    const lines = orderSaleInvoiceLines(withFee, 127_75, 'State sales tax');
    expect(lines.find((l) => l.billingItemId === 113)).toEqual({
      billingItemId: 113,
      description: 'Marketplace fee',
      quantity: 1,
      unitCents: 141_00,
      amountCents: 141_00,
    });
    expect(isOfferedOnOrders(113)).toBe(true);
    expect(lines.reduce((s, l) => s + l.amountCents, 0)).toBe(orderUpfrontCents(withFee, 127_75));
  });

  it('discounts never take the lines below zero; nothing for installments', () => {
    const free = { ...sale, additionalDiscount: '5000.00' };
    const lines = orderSaleInvoiceLines(free, 0);
    expect(lines.reduce((s, l) => s + l.amountCents, 0)).toBe(orderUpfrontCents(free, 0));
    const installments = {
      ...sale,
      PaymentPlanInfo: sale.PaymentPlanInfo!.map((p, i) => (i === 0 ? { ...p, paymentPlanId: 2, term: 12 } : p)),
    };
    expect(orderSaleInvoiceLines(installments, 118_94)).toEqual([]);
  });
});

describe('orderPromotionRewards (decision 152)', () => {
  const promo = (code: string, amount: string) => ({ promoId: 1, code, name: code, method: 'A' as const, amount });

  it('a promotion the one-time lines cannot take is a reward; what they take is a discount', () => {
    const doc = {
      ...blankOrder(),
      BillingItemInfo: [{ billingItemId: 20, name: 'Shipping', quantity: 1, unitPrice: '100.00' }],
      PromotionInfo: [promo('WELCOME', '60.00'), promo('LOYAL', '75.00')],
    };
    // $100.00 of lines: WELCOME takes $60.00, LOYAL $40.00 of its $75.00; $35.00 of LOYAL is credited.
    expect(orderPromotionRewards(doc)).toEqual([
      {
        billingItemId: 7,
        description: 'Promotion LOYAL (reward)',
        quantity: 1,
        unitCents: -35_00,
        amountCents: -35_00,
      },
    ]);
    expect(orderTotals(doc).discountCents + 35_00).toBe(135_00);
  });

  it('a service-only order credits its promotion whole; an order that takes it all credits nothing', () => {
    expect(
      orderPromotionRewards({ ...blankOrder(), orderType: 'N', PromotionInfo: [promo('SERVICE', '49.00')] }),
    ).toEqual([
      {
        billingItemId: 7,
        description: 'Promotion SERVICE (reward)',
        quantity: 1,
        unitCents: -49_00,
        amountCents: -49_00,
      },
    ]);
    const hardware = {
      ...blankOrder(),
      BillingItemInfo: [{ billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 1, unitPrice: '899.00' }],
      PromotionInfo: [
        promo('SPRING', '99.00'),
        { ...promo('HALF', '0'), method: 'P' as const, amount: null, percent: 50 },
      ],
    };
    expect(orderPromotionRewards(hardware)).toEqual([]);
  });
});
