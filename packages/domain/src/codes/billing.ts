/**
 * Business ids, fees and thresholds of spec §9.
 * Amounts in the spec are plain numbers; we read them as US dollars and keep money in integer cents
 * (`…_CENTS`), as the architecture asks. The grace period is read as days and the installment interest
 * as a percentage.
 */

export const BILLING_ITEM_IDS = {
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
} as const;
export type BillingItemIdName = keyof typeof BILLING_ITEM_IDS;

export const MARKETPLACE_FEE_ITEM_IDS = [113, 114, 115] as const;
export type MarketplaceFeeItemId = (typeof MARKETPLACE_FEE_ITEM_IDS)[number];
export const DEFAULT_MARKETPLACE_FEE_ITEM_ID: MarketplaceFeeItemId = 113;

export const PROMOTION_ITEM_IDS = [1, 66, 67, 68] as const;
export type PromotionItemId = (typeof PROMOTION_ITEM_IDS)[number];

export function isMarketplaceFeeItemId(id: number): id is MarketplaceFeeItemId {
  return (MARKETPLACE_FEE_ITEM_IDS as readonly number[]).includes(id);
}
export function isPromotionItemId(id: number): id is PromotionItemId {
  return (PROMOTION_ITEM_IDS as readonly number[]).includes(id);
}

export const FEES = {
  MARKETPLACE_FEE_CENTS: 141_00,
  RESTOCKING_FEE_CENTS: 250_00,
  CREDIT_THRESHOLD_CENTS: 1000_00,
  US_FAILED_PAYMENT_FEE_CENTS: 25_00,
  US_REACTIVATION_FEE_CENTS: 50_00,
  INSTALLMENT_INTEREST_PERCENT: 5,
  LICENSE_EXPIRY_GRACE_PERIOD_DAYS: 37,
} as const;

export const OTHER_IDS = {
  TERMINAL_PRODUCT_ID: 1,
  /** "product id 2 (Petro product id 2)". */
  PETRO_PRODUCT_ID: 2,
  CASH_PAYMENT_METHOD_ID: 3,
  MONTHLY_PLAN_ID: 4,
  YEARLY_PLAN_ID: 5,
  CASH_OPTION_PLAN_ID: 5,
  UPFRONT_PAYMENT_PLAN_ID: 1,
  /** Payment plans whose term, interval and amounts are all zero. */
  CREDIT_MEMO_PAYMENT_PLAN_ID: 30,
  DUE_AMOUNT_PAYMENT_PLAN_ID: 40,
  PROMOTION_TYPE: 'H',
  PROMOTION_METHOD: 'A',
  /** Store id meaning "all stores / customer level" when fetching customer billing items (§7 default). */
  ALL_STORES_CUST_STORE_ID: 999999999,
} as const;

/** Payment plan ids carried with zeros for term, interval and amounts (§9). */
export const ZERO_AMOUNT_PAYMENT_PLAN_IDS = [
  OTHER_IDS.CREDIT_MEMO_PAYMENT_PLAN_ID,
  OTHER_IDS.DUE_AMOUNT_PAYMENT_PLAN_ID,
] as const;
export function isZeroAmountPaymentPlan(paymentPlanId: number): boolean {
  return (ZERO_AMOUNT_PAYMENT_PLAN_IDS as readonly number[]).includes(paymentPlanId);
}

/** Billing terms in months. */
export const BILLING_TERM = {
  MONTHLY: 1,
  YEARLY: 12,
} as const;
export type BillingTerm = (typeof BILLING_TERM)[keyof typeof BILLING_TERM];

/** Billing item `charge_at_level` (S = store) and the `feature` flag (Y/N) of §3. */
export const CHARGE_AT_LEVEL = { STORE: 'S' } as const;
export const YES_NO = { YES: 'Y', NO: 'N' } as const;
export type YesNo = (typeof YES_NO)[keyof typeof YES_NO];

/** NRS Pay (payment product) bundle ids (§9). */
export const NRS_PAY_BUNDLE_IDS = [9, 17, 2, 7, 13, 64, 53, 41] as const;
export function isNrsPayBundle(bundleId: number): boolean {
  return (NRS_PAY_BUNDLE_IDS as readonly number[]).includes(bundleId);
}

/** The ten NRS Pay software features (§9). */
export const NRS_PAY_SOFTWARE_FEATURES = [
  'Advanced Data',
  'Customer Tabs',
  'E-commerce',
  'Employee Time Clock',
  'eWIC',
  'Item Modifiers',
  'No Ads',
  'Request Tobacco Scan Data',
  'Security Camera Integration',
  'Unlimited EBT',
] as const;
export type NrsPaySoftwareFeature = (typeof NRS_PAY_SOFTWARE_FEATURES)[number];
