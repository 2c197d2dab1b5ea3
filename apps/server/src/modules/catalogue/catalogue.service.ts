import {
  DEFAULT_CURRENCY,
  type BillingItemCatalogue,
  type BillingItemCatalogueQuery,
  type CatalogueCategory,
  type CurrencyCode,
} from '@pos/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { billingItemCategories, billingItemPrices, billingItems, stores } from '../../db/schema';
import { AppError } from '../../http/errors';
import { visibleStoresWhere } from '../agents';

/** The currency of a catalogue read: ?currency=, else the store's (an unknown store → 404), else USD. */
async function catalogueCurrency(ctx: ServiceCtx, query: BillingItemCatalogueQuery): Promise<CurrencyCode> {
  if (query.custstoreid === undefined) return query.currency ?? DEFAULT_CURRENCY;
  const [store] = await ctx.app.database.db
    .select({ currency: stores.currency })
    .from(stores)
    // An agent-scoped session prices only its own stores (decision 124): another store is "not found".
    .where(and(eq(stores.id, query.custstoreid), visibleStoresWhere(ctx.session)));
  if (!store)
    throw new AppError('not_found', `Store ${query.custstoreid} was not found.`, {
      custstoreid: `There is no store ${query.custstoreid}.`,
    });
  return query.currency ?? (store.currency as CurrencyCode);
}

/**
 * GET /api/customers/billingitems/{token}/all: the active billing items with their price in one currency, by
 * category name (uncategorised last), then name — one query (categories and prices joined).
 */
export async function listCatalogueBillingItems(
  ctx: ServiceCtx,
  query: BillingItemCatalogueQuery,
): Promise<BillingItemCatalogue> {
  const currency = await catalogueCurrency(ctx, query);
  const rows = await ctx.app.database.db
    .select({
      id: billingItems.id,
      name: billingItems.name,
      feature: billingItems.feature,
      chargeAtLevel: billingItems.chargeAtLevel,
      recurring: billingItems.recurring,
      active: billingItems.active,
      categoryId: billingItemCategories.id,
      categoryName: billingItemCategories.name,
      priceCents: billingItemPrices.priceCents,
    })
    .from(billingItems)
    .leftJoin(billingItemCategories, eq(billingItemCategories.id, billingItems.categoryId))
    .leftJoin(
      billingItemPrices,
      and(eq(billingItemPrices.billingItemId, billingItems.id), eq(billingItemPrices.currency, currency)),
    )
    .where(eq(billingItems.active, true))
    .orderBy(sql`${billingItemCategories.name} asc nulls last`, asc(billingItems.name), asc(billingItems.id));
  return {
    currency,
    billing_items: rows.map((r) => ({
      billing_item_id: r.id,
      name: r.name,
      category: r.categoryId === null || r.categoryName === null ? null : { id: r.categoryId, name: r.categoryName },
      feature: r.feature === 'Y' ? 'Y' : 'N',
      charge_at_level: r.chargeAtLevel === 'C' ? 'C' : 'S',
      recurring: r.recurring,
      active: r.active,
      unit_price_cents: r.priceCents,
      currency,
    })),
  };
}

/** GET /api/customers/billingitemcategories/{token}: every category, by name. */
export async function listBillingItemCategories(ctx: ServiceCtx): Promise<CatalogueCategory[]> {
  return ctx.app.database.db
    .select({ id: billingItemCategories.id, name: billingItemCategories.name })
    .from(billingItemCategories)
    .orderBy(asc(billingItemCategories.name), asc(billingItemCategories.id));
}
