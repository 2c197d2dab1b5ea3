import { z } from 'zod';
import { CURRENCY_CODES, type CurrencyCode } from '../codes/currencies';

/*
 * Catalogue reads (spec §7 Catalogue; decision 070). Any signed-in session may call them (agents and distributors
 * look billing items up too, §1).
 *
 *   GET /api/customers/billingitems/{token}/all?custstoreid&currency   → billingItemCatalogue
 *   GET /api/customers/billingitemcategories/{token}                   → billingItemCategoryList
 *
 * Billing items (§3 "Billing item: billing_item_id, feature (Y/N), charge_at_level (S for store)"): the active
 * items, by category name (items without a category last), then name. unit_price_cents is the catalogue price in
 * the answer's currency, null when the item has no price in it. The currency is ?currency= when given, else the
 * store's when ?custstoreid= is given (an unknown store → 404), else USD (§7 default).
 */

const MAX_ID = 2_147_483_647;

/** An empty query value (`?currency=`) counts as not given. */
const emptyAsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

export const billingItemCatalogueQuery = z.object({
  custstoreid: z.preprocess(
    emptyAsAbsent,
    z.coerce
      .number({ message: 'Enter the store id (a number).' })
      .int({ message: 'The store id is a whole number.' })
      .positive({ message: 'The store id is a positive number.' })
      .max(MAX_ID, { message: 'The store id is too large.' })
      .optional(),
  ),
  currency: z.preprocess(
    emptyAsAbsent,
    z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.enum(CURRENCY_CODES as unknown as [CurrencyCode, ...CurrencyCode[]], { message: 'Choose USD or CAD.' }))
      .optional(),
  ),
});
export type BillingItemCatalogueQueryInput = z.input<typeof billingItemCatalogueQuery>;
export type BillingItemCatalogueQuery = z.output<typeof billingItemCatalogueQuery>;

export const catalogueCategory = z.object({
  id: z.number().int(),
  name: z.string(),
});
export type CatalogueCategory = z.infer<typeof catalogueCategory>;

export const catalogueBillingItem = z.object({
  billing_item_id: z.number().int(),
  name: z.string(),
  category: catalogueCategory.nullable(),
  /** Y: a software feature a merchant can switch on or off. */
  feature: z.enum(['Y', 'N']),
  /** S: charged per store; C: once per customer. */
  charge_at_level: z.enum(['S', 'C']),
  recurring: z.boolean(),
  active: z.boolean(),
  /** The catalogue price in `currency`; null when the item has no price in it. */
  unit_price_cents: z.number().int().nullable(),
  currency: z.enum(CURRENCY_CODES),
});
export type CatalogueBillingItem = z.infer<typeof catalogueBillingItem>;

export const billingItemCatalogue = z.object({
  /** The currency the prices are in (as resolved from ?currency=, the store, or the USD default). */
  currency: z.enum(CURRENCY_CODES),
  billing_items: z.array(catalogueBillingItem),
});
export type BillingItemCatalogue = z.infer<typeof billingItemCatalogue>;

/** Every category, by name. */
export const billingItemCategoryList = z.object({ categories: z.array(catalogueCategory) });
export type BillingItemCategoryList = z.infer<typeof billingItemCategoryList>;

// ── Order-flow catalogue reads (issue 7, decision 074) ─────────────────────────────────────────────
//
//   GET /api/products/{token}/all?currency=                                  → productCatalogue
//   GET /api/products/terminals/{token}/all?currency=                        → productCatalogue (terminal products)
//   GET /api/bundles/{token}/all?currency=                                   → bundleCatalogue
//   GET /api/bundles/billingitempriceoptions/{token}?bundle_id&currency&reference_id → bundlePriceOptionList
//   GET /api/customers/promotions/{code}/{token}?expired=Y&promo_id=         → promotionLookup
//   GET /api/customers/referrals/{refId}/{token}                             → referralLookup

const currencyField = z.preprocess(
  emptyAsAbsent,
  z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(CURRENCY_CODES as unknown as [CurrencyCode, ...CurrencyCode[]], { message: 'Choose USD or CAD.' }))
    .optional(),
);

const idField = (what: string) =>
  z.coerce
    .number({ message: `Enter the ${what} (a number).` })
    .int({ message: `The ${what} is a whole number.` })
    .positive({ message: `The ${what} is a positive number.` })
    .max(MAX_ID, { message: `The ${what} is too large.` });

/** `?currency=USD|CAD` (any case; empty or absent → USD). */
export const catalogueCurrencyQuery = z.object({ currency: currencyField });
export type CatalogueCurrencyQuery = z.output<typeof catalogueCurrencyQuery>;

export const catalogueProduct = z.object({
  product_id: z.number().int(),
  name: z.string(),
  sku: z.string(),
  kind: z.enum(['terminal', 'accessory', 'software', 'service']),
  description: z.string().nullable(),
  /** True for the terminal product of §9 (product id 1). */
  terminal_product: z.boolean(),
  /** True for the Petro product of §9 (product id 2). */
  petro_product: z.boolean(),
  unit_price_cents: z.number().int().nullable(),
  currency: z.enum(CURRENCY_CODES),
});
export type CatalogueProduct = z.infer<typeof catalogueProduct>;

export const productCatalogue = z.object({ currency: z.enum(CURRENCY_CODES), products: z.array(catalogueProduct) });
export type ProductCatalogue = z.infer<typeof productCatalogue>;

export const catalogueBundleItem = z.object({
  billing_item_id: z.number().int(),
  name: z.string(),
  /** The bundle's monthly (reference-less) price of the item in `currency`; null when it has none. */
  unit_price_cents: z.number().int().nullable(),
});

export const catalogueBundle = z.object({
  bundle_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** An NRS Pay (payment product) bundle: one of the §9 ids 9, 17, 2, 7, 13, 64, 53, 41. */
  nrs_pay: z.boolean(),
  items: z.array(catalogueBundleItem),
  /** Sum of the items' monthly prices (null when an item has no price in `currency`). */
  monthly_price_cents: z.number().int().nullable(),
  currency: z.enum(CURRENCY_CODES),
});
export type CatalogueBundle = z.infer<typeof catalogueBundle>;

export const bundleCatalogue = z.object({ currency: z.enum(CURRENCY_CODES), bundles: z.array(catalogueBundle) });
export type BundleCatalogue = z.infer<typeof bundleCatalogue>;

/** `?bundle_id` (required) `&currency` (default USD) `&reference_id` (optional: only that reference's options, e.g. 5 = yearly plan). */
export const bundlePriceOptionsQuery = z
  .object({
    bundle_id: z.preprocess(emptyAsAbsent, idField('bundle id').optional()),
    currency: currencyField,
    reference_id: z.preprocess(emptyAsAbsent, idField('reference id').optional()),
  })
  .superRefine((q, ctx) => {
    if (q.bundle_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['bundle_id'], message: 'Enter the bundle id.' });
  });
export type BundlePriceOptionsQuery = z.output<typeof bundlePriceOptionsQuery>;

export const bundlePriceOption = z.object({
  price_option_id: z.number().int(),
  billing_item_id: z.number().int(),
  billing_item_name: z.string(),
  /** null: the base (monthly) price; else the plan it applies to (5 = yearly). */
  reference_id: z.number().int().nullable(),
  label: z.string(),
  price_cents: z.number().int(),
  /** Billing term in months (1 monthly, 12 yearly). */
  term: z.number().int(),
});
export type BundlePriceOption = z.infer<typeof bundlePriceOption>;

export const bundlePriceOptionList = z.object({
  bundle_id: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  reference_id: z.number().int().nullable(),
  options: z.array(bundlePriceOption),
});
export type BundlePriceOptionList = z.infer<typeof bundlePriceOptionList>;

export const promotionParams = z.object({
  code: z
    .string()
    .trim()
    .min(1, { message: 'Enter a promotion code.' })
    .max(50, { message: 'A promotion code has at most 50 characters.' }),
  token: z.string(),
});

/** `?expired=Y` also finds expired promotions; `?promo_id=` narrows to one promotion of that code. */
export const promotionQuery = z.object({
  expired: z.preprocess(
    emptyAsAbsent,
    z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.enum(['Y', 'N'], { message: 'expired is Y or N.' }))
      .optional(),
  ),
  promo_id: z.preprocess(emptyAsAbsent, idField('promotion id').optional()),
});
export type PromotionQuery = z.output<typeof promotionQuery>;

export const cataloguePromotion = z.object({
  promo_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  /** H hardware (§9 promotion type H), S software, R recurring. */
  type: z.enum(['H', 'S', 'R']),
  /** A amount (§9 promotion method A), P percent. */
  method: z.enum(['A', 'P']),
  amount_cents: z.number().int().nullable(),
  percent: z.number().nullable(),
  customer_type: z.string(),
  currency: z.enum(CURRENCY_CODES),
  billing_item_id: z.number().int().nullable(),
  starts_on: z.string().nullable(),
  expires_on: z.string().nullable(),
  expired: z.boolean(),
  /** How many orders may use it (null: no limit) and how many did (decision 125). */
  usage_limit: z.number().int().nullable(),
  usage_count: z.number().int(),
});
export type CataloguePromotion = z.infer<typeof cataloguePromotion>;

/** All promotions with the code (one per currency at most), USD first. */
export const promotionLookup = z.object({ promotions: z.array(cataloguePromotion) });
export type PromotionLookup = z.infer<typeof promotionLookup>;

export const referralParams = z.object({
  refId: z
    .string()
    .trim()
    .min(1, { message: 'Enter a referral code.' })
    .max(50, { message: 'A referral code has at most 50 characters.' }),
  token: z.string(),
});

export const referralLookup = z.object({
  referral_id: z.number().int(),
  ref_code: z.string(),
  name: z.string(),
  agent_id: z.number().int().nullable(),
  agent_name: z.string().nullable(),
  discount_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
});
export type ReferralLookup = z.infer<typeof referralLookup>;

// ── Taxes (decision 075) ─────────────────────────────────────────────────────────────────────────
//
//   POST /api/customers/taxes/fetch/{token}  body taxFetchRequest → taxFetchResult
//
// Where: store_id (its state/country) or state + country. Each line's taxable amount is amount_cents × quantity;
// its tax is round-half-up(amount × rate_basis_points / 10 000), per line; the total is the sum of the lines.

export const TAX_MAX_LINES = 200;

const stateOrCountry = (what: string, max: number) =>
  z.preprocess(
    emptyAsAbsent,
    z
      .string()
      .trim()
      .toUpperCase()
      .min(2, { message: `Enter the ${what} code.` })
      .max(max, { message: `Enter the ${what} code.` })
      .optional(),
  );

export const taxLine = z
  .object({
    billing_item_id: idField('billing item id').optional(),
    product_id: idField('product id').optional(),
    amount_cents: z
      .number({ message: 'Enter the amount in cents.' })
      .int({ message: 'The amount is whole cents.' })
      .min(0, { message: 'The amount cannot be negative.' })
      .max(1_000_000_000_00, { message: 'The amount is too large.' }),
    quantity: z
      .number({ message: 'Enter the quantity.' })
      .int({ message: 'The quantity is a whole number.' })
      .min(1, { message: 'The quantity is at least 1.' })
      .max(10_000, { message: 'The quantity is at most 10000.' })
      .default(1),
  })
  .strict();

export const taxFetchRequest = z
  .object({
    store_id: idField('store id').optional(),
    state: stateOrCountry('state or province', 3),
    country: stateOrCountry('country', 2),
    currency: currencyField,
    /** The order or invoice date (YYYY-MM-DD): the rate in force that day applies; default today (decision 127). */
    date: z.preprocess(
      emptyAsAbsent,
      z.iso.date({ message: 'Enter the order or invoice date as YYYY-MM-DD.' }).optional(),
    ),
    lines: z
      .array(taxLine, { message: 'Send the lines to tax.' })
      .min(1, { message: 'Send at least one line.' })
      .max(TAX_MAX_LINES, { message: `Send at most ${TAX_MAX_LINES} lines.` }),
  })
  .strict()
  .superRefine((body, ctx) => {
    const where = body.state !== undefined || body.country !== undefined;
    if (body.store_id !== undefined && where) {
      ctx.addIssue({
        code: 'custom',
        path: ['store_id'],
        message: 'Send a store id or a state and country, not both.',
      });
    } else if (body.store_id === undefined) {
      if (body.state === undefined)
        ctx.addIssue({ code: 'custom', path: ['state'], message: 'Enter the state or province (or a store id).' });
      if (body.country === undefined)
        ctx.addIssue({ code: 'custom', path: ['country'], message: 'Enter the country, US or CA (or a store id).' });
    }
  });
export type TaxFetchRequestInput = z.input<typeof taxFetchRequest>;
export type TaxFetchRequest = z.output<typeof taxFetchRequest>;

export const taxLineResult = z.object({
  billing_item_id: z.number().int().nullable(),
  product_id: z.number().int().nullable(),
  amount_cents: z.number().int(),
  quantity: z.number().int(),
  /** amount_cents × quantity. */
  taxable_cents: z.number().int(),
  tax_cents: z.number().int(),
});

export const taxFetchResult = z.object({
  country: z.string(),
  state: z.string(),
  rate_basis_points: z.number().int(),
  label: z.string(),
  currency: z.enum(CURRENCY_CODES),
  /** The day taxed and the effective date of the rate in force that day (decision 127). */
  date: z.string(),
  effective_on: z.string().nullable(),
  /** GST / HST / PST / STATE — the rate is their sum. */
  components: z.array(z.object({ component: z.string(), rate_basis_points: z.number().int(), label: z.string() })),
  /** True when the store's Arizona certificate is valid on the date: the sale is not taxed (issue 17 point 6). */
  exempt: z.boolean(),
  lines: z.array(taxLineResult),
  taxable_cents: z.number().int(),
  tax_cents: z.number().int(),
  total_cents: z.number().int(),
});
export type TaxFetchResult = z.infer<typeof taxFetchResult>;

/** Tax of one line: round half up of amount × bp / 10 000 (amounts are never negative). */
export function lineTaxCents(taxableCents: number, rateBasisPoints: number): number {
  // BigInt: amount × bp may pass 2^53 for large lines.
  return Number((BigInt(taxableCents) * BigInt(rateBasisPoints) + 5_000n) / 10_000n);
}
