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
