import { describe, expect, it } from 'vitest';
import {
  BILLING_ITEM_IDS,
  BILLING_TERM,
  CHARGE_AT_LEVEL,
  DEFAULT_MARKETPLACE_FEE_ITEM_ID,
  FEES,
  MARKETPLACE_FEE_ITEM_IDS,
  NRS_PAY_BUNDLE_IDS,
  NRS_PAY_SOFTWARE_FEATURES,
  OTHER_IDS,
  PROMOTION_ITEM_IDS,
  isMarketplaceFeeItemId,
  isNrsPayBundle,
  isPromotionItemId,
  isZeroAmountPaymentPlan,
} from './billing';
import { SPINNER } from './spinner';

describe('billing ids and fees (§9)', () => {
  it('billing item ids', () => {
    expect(BILLING_ITEM_IDS).toEqual({
      TAX: 6,
      DISCOUNT: 7,
      MONTHLY_SERVICE_FEE: 8,
      YEARLY_SERVICE_FEE: 9,
      INSTALLMENT: 10,
      INTEREST: 11,
      MARKET_FEE: 19,
      SHIPPING: 20,
      RESTOCKING_FEE: 28,
      OTHER_CHARGES: 30,
      CASH_CHECK_FEE: 53,
      CANCELLATION_FEE: 91,
    });
  });

  it('marketplace fee items 113–115 with default 113; promotion items 1, 66, 67, 68', () => {
    expect(MARKETPLACE_FEE_ITEM_IDS).toEqual([113, 114, 115]);
    expect(DEFAULT_MARKETPLACE_FEE_ITEM_ID).toBe(113);
    expect(isMarketplaceFeeItemId(114)).toBe(true);
    expect(isMarketplaceFeeItemId(19)).toBe(false);
    expect(PROMOTION_ITEM_IDS).toEqual([1, 66, 67, 68]);
    expect(isPromotionItemId(66)).toBe(true);
    expect(isPromotionItemId(65)).toBe(false);
  });

  it('fees and thresholds in cents, days and percent', () => {
    expect(FEES.MARKETPLACE_FEE_CENTS).toBe(14100);
    expect(FEES.RESTOCKING_FEE_CENTS).toBe(25000);
    expect(FEES.CREDIT_THRESHOLD_CENTS).toBe(100000);
    expect(FEES.US_FAILED_PAYMENT_FEE_CENTS).toBe(2500);
    expect(FEES.US_REACTIVATION_FEE_CENTS).toBe(5000);
    expect(FEES.INSTALLMENT_INTEREST_PERCENT).toBe(5);
    expect(FEES.LICENSE_EXPIRY_GRACE_PERIOD_DAYS).toBe(37);
  });

  it('other ids', () => {
    expect(OTHER_IDS.TERMINAL_PRODUCT_ID).toBe(1);
    expect(OTHER_IDS.PETRO_PRODUCT_ID).toBe(2);
    expect(OTHER_IDS.CASH_PAYMENT_METHOD_ID).toBe(3);
    expect(OTHER_IDS.MONTHLY_PLAN_ID).toBe(4);
    expect(OTHER_IDS.YEARLY_PLAN_ID).toBe(5);
    expect(OTHER_IDS.CASH_OPTION_PLAN_ID).toBe(5);
    expect(OTHER_IDS.UPFRONT_PAYMENT_PLAN_ID).toBe(1);
    expect(OTHER_IDS.CREDIT_MEMO_PAYMENT_PLAN_ID).toBe(30);
    expect(OTHER_IDS.DUE_AMOUNT_PAYMENT_PLAN_ID).toBe(40);
    expect(OTHER_IDS.PROMOTION_TYPE).toBe('H');
    expect(OTHER_IDS.PROMOTION_METHOD).toBe('A');
    expect(OTHER_IDS.ALL_STORES_CUST_STORE_ID).toBe(999999999);
    expect(isZeroAmountPaymentPlan(30)).toBe(true);
    expect(isZeroAmountPaymentPlan(40)).toBe(true);
    expect(isZeroAmountPaymentPlan(4)).toBe(false);
  });

  it('billing terms and levels', () => {
    expect(BILLING_TERM).toEqual({ MONTHLY: 1, YEARLY: 12 });
    expect(CHARGE_AT_LEVEL.STORE).toBe('S');
  });

  it('NRS Pay bundles and the ten software features', () => {
    expect(NRS_PAY_BUNDLE_IDS).toEqual([9, 17, 2, 7, 13, 64, 53, 41]);
    expect(isNrsPayBundle(64)).toBe(true);
    expect(isNrsPayBundle(1)).toBe(false);
    expect(NRS_PAY_SOFTWARE_FEATURES).toHaveLength(10);
    expect(new Set(NRS_PAY_SOFTWARE_FEATURES).size).toBe(10);
    expect(NRS_PAY_SOFTWARE_FEATURES).toContain('eWIC');
    expect(NRS_PAY_SOFTWARE_FEATURES).toContain('Unlimited EBT');
    expect(NRS_PAY_SOFTWARE_FEATURES).toContain('Request Tobacco Scan Data');
  });

  it('spinner: red chasing dots, 50 ms debounce, 300 ms minimum', () => {
    expect(SPINNER).toEqual({ color: 'red', type: 'chasing-dots', debounceMs: 50, minimumDisplayMs: 300 });
  });
});
