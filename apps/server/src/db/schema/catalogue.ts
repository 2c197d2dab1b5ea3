import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { CURRENCY_CODES, CUSTOMER_TYPES, MERCHANT_COUNTRY_CODES, TAX_COMPONENTS } from '@pos/domain';
import { agents } from './agents';
import { inList, nonNegative, timestamps, version } from './columns';

export const currencies = pgTable('currencies', {
  code: text().primaryKey(),
  symbol: text().notNull(),
  name: text().notNull(),
});

export const PRODUCT_KINDS = ['terminal', 'accessory', 'software', 'service'] as const;

/** Hardware and software the order flow sells. Product id 1 is the terminal product, 2 the Petro product (§9). */
export const products = pgTable(
  'products',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    sku: text().notNull(),
    kind: text().notNull(),
    description: text(),
    active: boolean().notNull().default(true),
    ...timestamps,
    ...version,
  },
  (t) => [
    uniqueIndex('products_sku_uq').on(t.sku),
    index('products_kind_idx').on(t.kind),
    check('products_kind_check', inList(t.kind, PRODUCT_KINDS)),
  ],
);

export const productPrices = pgTable(
  'product_prices',
  {
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    currency: text().notNull(),
    priceCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.currency] }),
    check('product_prices_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('product_prices_price_check', nonNegative(t.priceCents)),
  ],
);

export const billingItemCategories = pgTable(
  'billing_item_categories',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
  },
  (t) => [uniqueIndex('billing_item_categories_name_uq').on(t.name)],
);

/** Billing items keep the spec's ids (tax 6, discount 7, monthly service fee 8, …). */
export const billingItems = pgTable(
  'billing_items',
  {
    id: integer().primaryKey(),
    name: text().notNull(),
    /** Y when the item is a software feature a merchant can switch on or off. */
    feature: text().notNull().default('N'),
    /** S: charged per store; C: once per customer. */
    chargeAtLevel: text().notNull().default('S'),
    categoryId: integer().references(() => billingItemCategories.id),
    recurring: boolean().notNull().default(false),
    active: boolean().notNull().default(true),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('billing_items_category_idx').on(t.categoryId),
    check('billing_items_feature_check', inList(t.feature, ['Y', 'N'])),
    check('billing_items_charge_at_level_check', inList(t.chargeAtLevel, ['S', 'C'])),
  ],
);

export const billingItemPrices = pgTable(
  'billing_item_prices',
  {
    billingItemId: integer()
      .notNull()
      .references(() => billingItems.id, { onDelete: 'cascade' }),
    currency: text().notNull(),
    priceCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.billingItemId, t.currency] }),
    check('billing_item_prices_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('billing_item_prices_price_check', nonNegative(t.priceCents)),
  ],
);

export const bundles = pgTable(
  'bundles',
  {
    id: integer().primaryKey(),
    name: text().notNull(),
    description: text(),
    nrsPay: boolean().notNull().default(false),
    active: boolean().notNull().default(true),
    ...timestamps,
    ...version,
  },
  (t) => [index('bundles_nrs_pay_idx').on(t.nrsPay)],
);

/** What a bundle costs, per currency and optional reference (e.g. a plan term), item by item. */
export const bundlePriceOptions = pgTable(
  'bundle_price_options',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bundleId: integer()
      .notNull()
      .references(() => bundles.id, { onDelete: 'cascade' }),
    billingItemId: integer()
      .notNull()
      .references(() => billingItems.id),
    currency: text().notNull(),
    referenceId: integer(),
    label: text().notNull(),
    priceCents: bigint({ mode: 'number' }).notNull(),
    term: integer().notNull().default(1),
  },
  (t) => [
    index('bundle_price_options_bundle_idx').on(t.bundleId, t.currency, t.referenceId),
    index('bundle_price_options_item_idx').on(t.billingItemId),
    check('bundle_price_options_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('bundle_price_options_price_check', nonNegative(t.priceCents)),
  ],
);

/** Promotions by code: type (H = hardware), method (A = amount, P = percent), customer type A/N/E/T/U/R. */
export const promotions = pgTable(
  'promotions',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    code: text().notNull(),
    name: text().notNull(),
    type: text().notNull().default('H'),
    method: text().notNull().default('A'),
    amountCents: bigint({ mode: 'number' }),
    percent: numeric({ precision: 5, scale: 2 }),
    customerType: text().notNull().default('A'),
    currency: text().notNull(),
    /** The first of its billing items (kept for older readers); the full list is promotion_billing_items. */
    billingItemId: integer().references(() => billingItems.id),
    startsOn: date({ mode: 'string' }),
    expiresOn: date({ mode: 'string' }),
    /** How many orders may use it (null: no limit); the count is derived from order_promotions (decision 125). */
    usageLimit: integer(),
    active: boolean().notNull().default(true),
    ...timestamps,
    ...version,
  },
  (t) => [
    check('promotions_usage_limit_check', sql`${t.usageLimit} is null or ${t.usageLimit} >= 0`),
    check(
      'promotions_dates_check',
      sql`${t.startsOn} is null or ${t.expiresOn} is null or ${t.startsOn} <= ${t.expiresOn}`,
    ),
    uniqueIndex('promotions_code_currency_uq').on(sql`upper(${t.code})`, t.currency),
    index('promotions_expires_idx').on(t.expiresOn),
    index('promotions_billing_item_idx').on(t.billingItemId),
    check('promotions_method_check', inList(t.method, ['A', 'P'])),
    check('promotions_type_check', inList(t.type, ['H', 'S', 'R'])),
    check('promotions_customer_type_check', inList(t.customerType, CUSTOMER_TYPES)),
    check('promotions_currency_check', inList(t.currency, CURRENCY_CODES)),
    check(
      'promotions_value_check',
      sql`(${t.method} = 'A' and ${t.amountCents} is not null and ${t.amountCents} >= 0 and ${t.percent} is null) or (${t.method} = 'P' and ${t.percent} between 0 and 100 and ${t.amountCents} is null)`,
    ),
  ],
);

/** The billing items a promotion applies to (decision 125); none: the order's whole one-time subtotal. */
export const promotionBillingItems = pgTable(
  'promotion_billing_items',
  {
    promotionId: integer()
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    billingItemId: integer()
      .notNull()
      .references(() => billingItems.id),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.billingItemId] }),
    index('promotion_billing_items_item_idx').on(t.billingItemId),
  ],
);

/** Referral codes (GET /api/customers/referrals/{refId}). */
export const referrals = pgTable(
  'referrals',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    refCode: text().notNull(),
    name: text().notNull(),
    agentId: integer().references(() => agents.id),
    discountCents: bigint({ mode: 'number' }).notNull().default(0),
    currency: text().notNull().default('USD'),
    active: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('referrals_ref_code_uq').on(sql`upper(${t.refCode})`),
    index('referrals_agent_idx').on(t.agentId),
    check('referrals_discount_check', nonNegative(t.discountCents)),
    check('referrals_currency_check', inList(t.currency, CURRENCY_CODES)),
  ],
);

/** Sales tax per US state / Canadian province, in basis points (1/100 of a percent) so it stays an integer. */
export const taxRates = pgTable(
  'tax_rates',
  {
    country: text().notNull(),
    state: text().notNull(),
    rateBasisPoints: integer().notNull(),
    label: text().notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.country, t.state] }),
    check('tax_rates_country_check', inList(t.country, MERCHANT_COUNTRY_CODES)),
    check('tax_rates_rate_check', sql`${t.rateBasisPoints} between 0 and 10000`),
  ],
);

/**
 * Tax rate versions (issue 17, decision 127): a state's / province's rate as components (GST, HST, PST, STATE) from
 * an effective date. The rate in force on a day is the set of components of the latest effective date on or before
 * it (domain rules/taxes.ts `rateInForce`; SQL twin TAX_RATE_IN_FORCE_SQL). `tax_rates` is the pre-issue-17 table,
 * kept for additive migrations and backfilled into this one as effective from 2000-01-01; nothing reads it.
 */
export const taxRateVersions = pgTable(
  'tax_rate_versions',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    country: text().notNull(),
    state: text().notNull(),
    component: text().notNull(),
    rateBasisPoints: integer().notNull(),
    label: text().notNull(),
    effectiveOn: date({ mode: 'string' }).notNull(),
    createdByEmail: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tax_rate_versions_uq').on(t.country, t.state, t.effectiveOn, t.component),
    check('tax_rate_versions_country_check', inList(t.country, MERCHANT_COUNTRY_CODES)),
    check('tax_rate_versions_component_check', inList(t.component, TAX_COMPONENTS)),
    check('tax_rate_versions_rate_check', sql`${t.rateBasisPoints} between 0 and 10000`),
  ],
);

export const banks = pgTable(
  'banks',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    country: text().notNull(),
    routingNumber: text(),
    institutionNumber: text(),
    active: boolean().notNull().default(true),
  },
  (t) => [
    index('banks_country_idx').on(t.country, t.name),
    check('banks_country_check', inList(t.country, MERCHANT_COUNTRY_CODES)),
  ],
);
