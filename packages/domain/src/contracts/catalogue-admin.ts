import { z } from 'zod';
import { CURRENCY_CODES, type CurrencyCode } from '../codes/currencies';
import { DOMAIN_DATA_TYPES } from './customers';

/*
 * Catalogue management for Admin (#/admin/catalogue; issue 17 point 4, decision 126). Every call is Admin only.
 *   GET  /api/admin/catalogue/billingitems/{token}                          → adminBillingItemList
 *   POST /api/admin/catalogue/billingitems/{token}           billingItemCreate → adminBillingItem
 *   PUT  /api/admin/catalogue/billingitems/{id}/{token}      billingItemUpdate → adminBillingItem (stale version → 409)
 *   POST /api/admin/catalogue/categories/{token}             categoryInput     → adminCategory
 *   PUT  /api/admin/catalogue/categories/{id}/{token}        categoryInput     → adminCategory
 *   GET  /api/admin/catalogue/bundles/{token}                               → adminBundleList
 *   POST /api/admin/catalogue/bundles/{token}                bundleCreate      → adminBundle
 *   PUT  /api/admin/catalogue/bundles/{id}/{token}           bundleUpdate      → adminBundle (409)
 *   POST /api/admin/catalogue/bundles/{id}/options/{token}   priceOptionCreate → adminBundle (bundle version; 409)
 *   PUT  /api/admin/catalogue/bundles/{id}/options/{optionId}/{token} priceOptionUpdate → adminBundle (409)
 *   GET  /api/admin/catalogue/products/{token}                              → adminProductList
 *   POST /api/admin/catalogue/products/{token}               productCreate     → adminProduct
 *   PUT  /api/admin/catalogue/products/{id}/{token}          productUpdate     → adminProduct (409)
 *   GET  /api/admin/catalogue/domaindata/{token}?type=                      → adminDomainDataList (inactive too)
 *   POST /api/admin/catalogue/domaindata/{token}             domainDataCreate  → adminDomainDataEntry
 *   PUT  /api/admin/catalogue/domaindata/{id}/{token}        domainDataUpdate  → adminDomainDataEntry (409)
 * Nothing is deleted: an entry is deactivated (active false) and stays readable by what already uses it.
 * Prices are overwritten in place; what was issued keeps its own amounts (invoice lines, the order document, the
 * contract's stored PDF, the customer's billing items) — decision 126.
 */

/** The kinds of product; `terminal` is a terminal model (GET /api/products/terminals). */
export const PRODUCT_KIND_CODES = ['terminal', 'accessory', 'software', 'service'] as const;
export type ProductKindCode = (typeof PRODUCT_KIND_CODES)[number];
export const PRODUCT_KIND_LABELS: Readonly<Record<ProductKindCode, string>> = {
  terminal: 'Terminal model',
  accessory: 'Accessory',
  software: 'Software',
  service: 'Service',
};

export const DOMAIN_DATA_TYPE_LABELS: Readonly<Record<(typeof DOMAIN_DATA_TYPES)[number], string>> = {
  retire_reason: 'Retire reasons',
  business_type: 'Business types',
  internet_connection_type: 'Internet connection types',
  return_reason: 'Return reasons',
};

const cents = z
  .number({ message: 'A price is an amount in cents.' })
  .int({ message: 'A price is a whole number of cents.' })
  .min(0, { message: 'A price is not negative.' })
  .max(100_000_000, { message: 'A price is at most 1,000,000.00.' });

/** Price per currency in cents; null (or absent) = no price in that currency. */
export const pricesByCurrency = z.object({
  USD: cents.nullable().optional(),
  CAD: cents.nullable().optional(),
});
export type PricesByCurrency = z.infer<typeof pricesByCurrency>;
/** The answer's prices: every currency named, null when there is none. */
export const priceMap = z.object({ USD: z.number().int().nullable(), CAD: z.number().int().nullable() });
export type PriceMap = z.infer<typeof priceMap>;
export const PRICE_CURRENCIES: readonly CurrencyCode[] = CURRENCY_CODES;

const name = (what: string, max = 120) =>
  z
    .string({ message: `Enter the ${what}.` })
    .trim()
    .min(1, { message: `Enter the ${what}.` })
    .max(max, { message: `The ${what} is at most ${max} characters.` });
const version = z.number({ message: 'Send the version you read.' }).int().min(1);
const idParam = z.coerce.number({ message: 'The id is a number.' }).int().positive({ message: 'The id is a number.' });

export const catalogueIdParams = z.object({ id: idParam, token: z.string() });
export const priceOptionParams = z.object({ id: idParam, optionId: idParam, token: z.string() });

// ── Billing items and categories ─────────────────────────────────────────────────────────────────────

export const adminCategory = z.object({ id: z.number().int(), name: z.string(), item_count: z.number().int() });
export type AdminCategory = z.infer<typeof adminCategory>;
export const categoryInput = z.object({ name: name('category name', 80) });
export type CategoryInput = z.infer<typeof categoryInput>;

export const adminBillingItem = z.object({
  billing_item_id: z.number().int(),
  name: z.string(),
  category_id: z.number().int().nullable(),
  category_name: z.string().nullable(),
  feature: z.enum(['Y', 'N']),
  charge_at_level: z.enum(['S', 'C']),
  recurring: z.boolean(),
  active: z.boolean(),
  prices: priceMap,
  version: z.number().int(),
});
export type AdminBillingItem = z.infer<typeof adminBillingItem>;
export const adminBillingItemList = z.object({
  items: z.array(adminBillingItem),
  categories: z.array(adminCategory),
});
export type AdminBillingItemList = z.infer<typeof adminBillingItemList>;

const billingItemFields = z.object({
  name: name('billing item name'),
  category_id: z.number().int().positive().nullable(),
  feature: z.enum(['Y', 'N'], { message: 'Feature is Y or N.' }),
  charge_at_level: z.enum(['S', 'C'], { message: 'Charged per store (S) or per customer (C).' }),
  recurring: z.boolean(),
  prices: pricesByCurrency,
});
export const billingItemCreate = billingItemFields.extend({
  /** The spec's ids are kept (tax 6, discount 7…); without one the next free id is taken. */
  billing_item_id: z.number().int().positive({ message: 'The id is a positive number.' }).optional(),
});
export type BillingItemCreate = z.infer<typeof billingItemCreate>;
export const billingItemUpdate = billingItemFields.extend({ active: z.boolean(), version });
export type BillingItemUpdate = z.infer<typeof billingItemUpdate>;

// ── Bundles and their price options ──────────────────────────────────────────────────────────────────

export const adminPriceOption = z.object({
  id: z.number().int(),
  billing_item_id: z.number().int(),
  billing_item_name: z.string(),
  currency: z.enum(CURRENCY_CODES),
  reference_id: z.number().int().nullable(),
  label: z.string(),
  price_cents: z.number().int(),
  term: z.number().int(),
});
export type AdminPriceOption = z.infer<typeof adminPriceOption>;
export const adminBundle = z.object({
  bundle_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  nrs_pay: z.boolean(),
  active: z.boolean(),
  version: z.number().int(),
  options: z.array(adminPriceOption),
});
export type AdminBundle = z.infer<typeof adminBundle>;
export const adminBundleList = z.object({ items: z.array(adminBundle) });
export type AdminBundleList = z.infer<typeof adminBundleList>;

const bundleFields = z.object({
  name: name('bundle name'),
  description: z.string().trim().max(500, { message: 'The description is at most 500 characters.' }).nullable(),
  nrs_pay: z.boolean(),
});
export const bundleCreate = bundleFields.extend({
  bundle_id: z.number().int().positive({ message: 'The id is a positive number.' }).optional(),
});
export type BundleCreate = z.infer<typeof bundleCreate>;
export const bundleUpdate = bundleFields.extend({ active: z.boolean(), version });
export type BundleUpdate = z.infer<typeof bundleUpdate>;

const priceOptionFields = z.object({
  billing_item_id: z
    .number({ message: 'Choose a billing item.' })
    .int()
    .positive({ message: 'Choose a billing item.' }),
  currency: z.enum(CURRENCY_CODES, { message: `Currency is ${CURRENCY_CODES.join(' or ')}.` }),
  reference_id: z.number().int().positive().nullable(),
  label: name('option label', 80),
  price_cents: cents,
  term: z
    .number()
    .int()
    .min(1, { message: 'The term is at least 1.' })
    .max(120, { message: 'The term is at most 120.' }),
  /** The bundle's version as read: an option edit changes the bundle (stale → 409). */
  version,
});
export const priceOptionCreate = priceOptionFields;
export type PriceOptionCreate = z.infer<typeof priceOptionCreate>;
export const priceOptionUpdate = priceOptionFields;
export type PriceOptionUpdate = z.infer<typeof priceOptionUpdate>;

// ── Products and terminal models ─────────────────────────────────────────────────────────────────────

export const adminProduct = z.object({
  product_id: z.number().int(),
  name: z.string(),
  sku: z.string(),
  kind: z.enum(PRODUCT_KIND_CODES),
  description: z.string().nullable(),
  active: z.boolean(),
  prices: priceMap,
  version: z.number().int(),
});
export type AdminProduct = z.infer<typeof adminProduct>;
export const adminProductList = z.object({ items: z.array(adminProduct) });
export type AdminProductList = z.infer<typeof adminProductList>;

const productFields = z.object({
  name: name('product name'),
  sku: name('SKU', 40),
  kind: z.enum(PRODUCT_KIND_CODES, { message: `Kind is one of ${PRODUCT_KIND_CODES.join(', ')}.` }),
  description: z.string().trim().max(500, { message: 'The description is at most 500 characters.' }).nullable(),
  prices: pricesByCurrency,
});
export const productCreate = productFields;
export type ProductCreate = z.infer<typeof productCreate>;
export const productUpdate = productFields.extend({ active: z.boolean(), version });
export type ProductUpdate = z.infer<typeof productUpdate>;

// ── Domain data lists ────────────────────────────────────────────────────────────────────────────────

export const adminDomainDataQuery = z.object({
  type: z.enum(DOMAIN_DATA_TYPES, { message: `Choose a type: ${DOMAIN_DATA_TYPES.join(', ')}.` }),
});
export const adminDomainDataEntry = z.object({
  id: z.number().int(),
  type: z.enum(DOMAIN_DATA_TYPES),
  code: z.string(),
  label: z.string(),
  sort_order: z.number().int(),
  active: z.boolean(),
  /** How many records name this entry (terminals retired for the reason…): an entry in use is never deleted. */
  in_use: z.number().int(),
  version: z.number().int(),
});
export type AdminDomainDataEntry = z.infer<typeof adminDomainDataEntry>;
export const adminDomainDataList = z.object({ type: z.enum(DOMAIN_DATA_TYPES), items: z.array(adminDomainDataEntry) });
export type AdminDomainDataList = z.infer<typeof adminDomainDataList>;

const sortOrder = z
  .number({ message: 'The position is a number.' })
  .int({ message: 'The position is a whole number.' })
  .min(0, { message: 'The position is not negative.' })
  .max(10_000, { message: 'The position is at most 10,000.' });
export const domainDataCreate = z.object({
  type: z.enum(DOMAIN_DATA_TYPES, { message: `Choose a type: ${DOMAIN_DATA_TYPES.join(', ')}.` }),
  code: z
    .string({ message: 'Enter a code.' })
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, { message: 'A code is 1 to 40 letters, digits, - or _.' }),
  label: name('label', 120),
  sort_order: sortOrder.optional(),
});
export type DomainDataCreate = z.infer<typeof domainDataCreate>;
export const domainDataUpdate = z.object({
  label: name('label', 120),
  sort_order: sortOrder,
  active: z.boolean(),
  version,
});
export type DomainDataUpdate = z.infer<typeof domainDataUpdate>;
