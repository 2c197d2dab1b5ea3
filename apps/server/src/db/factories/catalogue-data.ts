import {
  BILLING_ITEM_IDS,
  CURRENCY_SYMBOLS,
  DEFAULT_MARKETPLACE_FEE_ITEM_ID,
  FEES,
  MARKETPLACE_FEE_ITEM_IDS,
  NRS_PAY_BUNDLE_IDS,
  NRS_PAY_SOFTWARE_FEATURES,
  OTHER_IDS,
  PROMOTION_ITEM_IDS,
  PROVIDER_FEE_ITEM_IDS,
  type CurrencyCode,
} from '@pos/domain';

/**
 * The product catalogue: every billing-item id of spec §9 with a name and a USD/CAD price, the NRS Pay bundles
 * by their ids, the terminal (1) and Petro (2) products and accessories. Ids the spec does not give
 * (hardware lines, feature items, other bundles, accessories) are ours (decision 017).
 */

export type Prices = Partial<Record<CurrencyCode, number>>;

export const CURRENCY_ROWS: { code: CurrencyCode; symbol: string; name: string }[] = [
  { code: 'USD', symbol: CURRENCY_SYMBOLS.USD, name: 'US dollar' },
  { code: 'CAD', symbol: CURRENCY_SYMBOLS.CAD, name: 'Canadian dollar' },
];

export const BILLING_ITEM_CATEGORIES = [
  'Hardware',
  'Service fees',
  'Software features',
  'Taxes',
  'Discounts and promotions',
  'Installments',
  'Fees',
  'Shipping',
  'Marketplace',
] as const;
export type BillingItemCategory = (typeof BILLING_ITEM_CATEGORIES)[number];

export interface BillingItemDef {
  id: number;
  name: string;
  category: BillingItemCategory;
  feature?: 'Y' | 'N';
  chargeAtLevel?: 'S' | 'C';
  recurring?: boolean;
  prices: Prices;
}

/** Hardware lines on sale invoices (not spec ids). */
export const HARDWARE_ITEM_IDS = { TERMINAL: 3, PETRO: 4, ACCESSORIES: 5 } as const;
/** The US failed-payment and reactivation fees of §9 (the spec gives amounts, not item ids). */
export const FEE_ITEM_IDS = PROVIDER_FEE_ITEM_IDS;
/** Software feature items: the ten NRS Pay features are 201–210, other features follow. */
export const FEATURE_ITEM_BASE_ID = 201;

const B = BILLING_ITEM_IDS;

function cad(usdCents: number): number {
  // Catalogue CAD prices: about 1.35 × USD, rounded up to the next dollar minus a cent.
  return usdCents === 0 ? 0 : Math.ceil((usdCents * 1.35) / 100) * 100 - 1;
}
function both(usdCents: number): Prices {
  return { USD: usdCents, CAD: cad(usdCents) };
}

const MARKETPLACE_NAMES: Record<(typeof MARKETPLACE_FEE_ITEM_IDS)[number], string> = {
  113: 'Marketplace fee',
  114: 'Marketplace fee - premium listing',
  115: 'Marketplace fee - enterprise listing',
};
const PROMOTION_NAMES: Record<(typeof PROMOTION_ITEM_IDS)[number], string> = {
  1: 'Promotion credit',
  66: 'Promotion - hardware discount',
  67: 'Promotion - free months of service',
  68: 'Promotion - referral credit',
};

export const FEATURE_PRICES_USD: readonly number[] = [1500, 1000, 2500, 1000, 1500, 500, 900, 2000, 1900, 1500];

export const BILLING_ITEM_DEFS: readonly BillingItemDef[] = [
  { id: HARDWARE_ITEM_IDS.TERMINAL, name: 'POS terminal (hardware)', category: 'Hardware', prices: both(1499_00) },
  { id: HARDWARE_ITEM_IDS.PETRO, name: 'Petro POS system (hardware)', category: 'Hardware', prices: both(2499_00) },
  { id: HARDWARE_ITEM_IDS.ACCESSORIES, name: 'Accessories (hardware)', category: 'Hardware', prices: both(0) },
  { id: B.TAX, name: 'Sales tax', category: 'Taxes', prices: both(0) },
  { id: B.DISCOUNT, name: 'Discount', category: 'Discounts and promotions', prices: both(0) },
  {
    id: B.MONTHLY_SERVICE_FEE,
    name: 'Monthly service fee',
    category: 'Service fees',
    recurring: true,
    prices: both(79_00),
  },
  {
    id: B.YEARLY_SERVICE_FEE,
    name: 'Yearly service fee',
    category: 'Service fees',
    recurring: true,
    prices: both(799_00),
  },
  { id: B.INSTALLMENT, name: 'Hardware installment', category: 'Installments', recurring: true, prices: both(0) },
  {
    id: B.INTEREST,
    name: `Interest on installment (${FEES.INSTALLMENT_INTEREST_PERCENT}%)`,
    category: 'Installments',
    recurring: true,
    prices: both(0),
  },
  { id: B.MARKET_FEE, name: 'Market fee', category: 'Fees', recurring: true, prices: both(15_00) },
  { id: B.SHIPPING, name: 'Shipping', category: 'Shipping', prices: both(49_00) },
  { id: B.RESTOCKING_FEE, name: 'Restocking fee', category: 'Fees', prices: both(FEES.RESTOCKING_FEE_CENTS) },
  { id: B.OTHER_CHARGES, name: 'Other charges', category: 'Fees', prices: both(0) },
  { id: B.CASH_CHECK_FEE, name: 'Cash / check payment fee', category: 'Fees', prices: both(5_00) },
  { id: B.CANCELLATION_FEE, name: 'Cancellation fee', category: 'Fees', prices: both(250_00) },
  {
    id: FEE_ITEM_IDS.FAILED_PAYMENT,
    name: 'Failed payment fee',
    category: 'Fees',
    prices: { USD: FEES.US_FAILED_PAYMENT_FEE_CENTS },
  },
  {
    id: FEE_ITEM_IDS.REACTIVATION,
    name: 'Reactivation fee',
    category: 'Fees',
    prices: { USD: FEES.US_REACTIVATION_FEE_CENTS },
  },
  ...MARKETPLACE_FEE_ITEM_IDS.map((id): BillingItemDef => ({
    id,
    name: MARKETPLACE_NAMES[id],
    category: 'Marketplace',
    recurring: true,
    prices: both(id === DEFAULT_MARKETPLACE_FEE_ITEM_ID ? FEES.MARKETPLACE_FEE_CENTS : id === 114 ? 199_00 : 299_00),
  })),
  ...PROMOTION_ITEM_IDS.map((id): BillingItemDef => ({
    id,
    name: PROMOTION_NAMES[id],
    category: 'Discounts and promotions',
    prices: both(0),
  })),
  ...NRS_PAY_SOFTWARE_FEATURES.map((name, i): BillingItemDef => ({
    id: FEATURE_ITEM_BASE_ID + i,
    name,
    category: 'Software features',
    feature: 'Y',
    recurring: true,
    prices: both(FEATURE_PRICES_USD[i]!),
  })),
  {
    id: 211,
    name: 'Loyalty program',
    category: 'Software features',
    feature: 'Y',
    recurring: true,
    prices: both(12_00),
  },
  { id: 212, name: 'Gift cards', category: 'Software features', feature: 'Y', recurring: true, prices: both(9_00) },
  {
    id: 213,
    name: 'Additional register license',
    category: 'Software features',
    feature: 'Y',
    recurring: true,
    prices: both(29_00),
  },
  {
    id: 214,
    name: 'Online ordering',
    category: 'Software features',
    feature: 'Y',
    chargeAtLevel: 'C',
    recurring: true,
    prices: both(39_00),
  },
];

export const FEATURE_ITEM_IDS: readonly number[] = BILLING_ITEM_DEFS.filter((d) => d.feature === 'Y').map((d) => d.id);

export interface BundleDef {
  id: number;
  name: string;
  description: string;
  nrsPay: boolean;
  /** Billing items in the bundle with their monthly USD price. */
  items: readonly { billingItemId: number; usdCents: number }[];
}

const feature = (name: (typeof NRS_PAY_SOFTWARE_FEATURES)[number]) =>
  FEATURE_ITEM_BASE_ID + NRS_PAY_SOFTWARE_FEATURES.indexOf(name);

const NRS_PAY_BUNDLE_CONTENT: Record<
  (typeof NRS_PAY_BUNDLE_IDS)[number],
  { name: string; features: (typeof NRS_PAY_SOFTWARE_FEATURES)[number][] }
> = {
  2: { name: 'NRS Pay Essentials', features: ['No Ads', 'Employee Time Clock'] },
  7: { name: 'NRS Pay Plus', features: ['No Ads', 'Employee Time Clock', 'Item Modifiers', 'Customer Tabs'] },
  9: {
    name: 'NRS Pay Pro',
    features: ['No Ads', 'Advanced Data', 'Employee Time Clock', 'Item Modifiers', 'Customer Tabs'],
  },
  13: { name: 'NRS Pay EBT', features: ['Unlimited EBT', 'eWIC'] },
  17: { name: 'NRS Pay E-commerce', features: ['E-commerce', 'Advanced Data'] },
  41: { name: 'NRS Pay Tobacco', features: ['Request Tobacco Scan Data', 'Advanced Data'] },
  53: { name: 'NRS Pay Security', features: ['Security Camera Integration', 'Employee Time Clock'] },
  64: { name: 'NRS Pay Complete', features: [...NRS_PAY_SOFTWARE_FEATURES] },
};

export const BUNDLE_DEFS: readonly BundleDef[] = [
  ...NRS_PAY_BUNDLE_IDS.map((id): BundleDef => {
    const c = NRS_PAY_BUNDLE_CONTENT[id];
    return {
      id,
      name: c.name,
      description: `${c.features.join(', ')}.`,
      nrsPay: true,
      // A bundle costs about 80% of its features bought one by one.
      items: c.features.map((f) => ({
        billingItemId: feature(f),
        usdCents: Math.round((FEATURE_PRICES_USD[feature(f) - FEATURE_ITEM_BASE_ID]! * 0.8) / 100) * 100,
      })),
    };
  }),
  {
    id: 100,
    name: 'Starter POS bundle',
    description: 'One terminal, monthly service and shipping.',
    nrsPay: false,
    items: [
      { billingItemId: HARDWARE_ITEM_IDS.TERMINAL, usdCents: 1299_00 },
      { billingItemId: B.MONTHLY_SERVICE_FEE, usdCents: 69_00 },
      { billingItemId: B.SHIPPING, usdCents: 0 },
    ],
  },
  {
    id: 101,
    name: 'Petro station bundle',
    description: 'Petro POS system, monthly service and market fee.',
    nrsPay: false,
    items: [
      { billingItemId: HARDWARE_ITEM_IDS.PETRO, usdCents: 2299_00 },
      { billingItemId: B.MONTHLY_SERVICE_FEE, usdCents: 89_00 },
      { billingItemId: B.MARKET_FEE, usdCents: 10_00 },
    ],
  },
  {
    id: 102,
    name: 'Loyalty and gift cards',
    description: 'Loyalty program and gift cards together.',
    nrsPay: false,
    items: [
      { billingItemId: 211, usdCents: 10_00 },
      { billingItemId: 212, usdCents: 7_00 },
    ],
  },
];

export interface ProductDef {
  id: number;
  name: string;
  sku: string;
  kind: 'terminal' | 'accessory' | 'software' | 'service';
  description: string;
  usdCents: number;
}

export const PRODUCT_DEFS: readonly ProductDef[] = [
  {
    id: OTHER_IDS.TERMINAL_PRODUCT_ID,
    name: 'NRS POS Terminal',
    sku: 'POS-T1',
    kind: 'terminal',
    description: 'Touch-screen register with scanner and receipt printer.',
    usdCents: 1499_00,
  },
  {
    id: OTHER_IDS.PETRO_PRODUCT_ID,
    name: 'NRS Petro POS',
    sku: 'PETRO-P1',
    kind: 'terminal',
    description: 'Register with fuel-pump controller integration.',
    usdCents: 2499_00,
  },
  {
    id: 3,
    name: 'Handheld barcode scanner',
    sku: 'ACC-SCAN',
    kind: 'accessory',
    description: '2D wireless scanner.',
    usdCents: 149_00,
  },
  {
    id: 4,
    name: 'Cash drawer',
    sku: 'ACC-DRAWER',
    kind: 'accessory',
    description: 'Five-bill, eight-coin drawer.',
    usdCents: 99_00,
  },
  {
    id: 5,
    name: 'Receipt printer',
    sku: 'ACC-PRINT',
    kind: 'accessory',
    description: 'Thermal 80 mm receipt printer.',
    usdCents: 199_00,
  },
  {
    id: 6,
    name: 'Customer-facing display',
    sku: 'ACC-CFD',
    kind: 'accessory',
    description: '10-inch second screen.',
    usdCents: 179_00,
  },
  {
    id: 7,
    name: 'Label printer',
    sku: 'ACC-LABEL',
    kind: 'accessory',
    description: 'Shelf and price label printer.',
    usdCents: 129_00,
  },
  {
    id: 8,
    name: 'Deli scale',
    sku: 'ACC-SCALE',
    kind: 'accessory',
    description: 'Legal-for-trade scale with POS link.',
    usdCents: 299_00,
  },
  {
    id: 9,
    name: 'PIN pad card reader',
    sku: 'ACC-PINPAD',
    kind: 'accessory',
    description: 'EMV and contactless PIN pad.',
    usdCents: 249_00,
  },
  {
    id: 10,
    name: 'Receipt paper (50 rolls)',
    sku: 'ACC-PAPER50',
    kind: 'accessory',
    description: 'Thermal paper, case of 50.',
    usdCents: 59_00,
  },
  {
    id: 11,
    name: 'NRS Pay app',
    sku: 'SW-NRSPAY',
    kind: 'software',
    description: 'Payments app on the terminal.',
    usdCents: 0,
  },
  {
    id: 12,
    name: 'Installation and training',
    sku: 'SVC-INSTALL',
    kind: 'service',
    description: 'On-site installation and two hours of training.',
    usdCents: 149_00,
  },
];

export function cadPrice(usdCents: number): number {
  return cad(usdCents);
}
