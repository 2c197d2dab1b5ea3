import { inArray, sql } from 'drizzle-orm';
import { CURRENCY_CODES, type CurrencyCode } from '@pos/domain';
import type { Db } from '../client';
import {
  billingItemCategories,
  billingItemPrices,
  billingItems,
  bundlePriceOptions,
  bundles,
  currencies,
  productPrices,
  products,
  promotions,
  referrals,
} from '../schema';
import {
  BILLING_ITEM_CATEGORIES,
  BILLING_ITEM_DEFS,
  BUNDLE_DEFS,
  CURRENCY_ROWS,
  PRODUCT_DEFS,
  cadPrice,
  type BillingItemDef,
  type Prices,
} from './catalogue-data';
import { nextSeq } from './sequence';

export type BillingItemRow = typeof billingItems.$inferSelect;
export type PromotionRow = typeof promotions.$inferSelect;
export type NewPromotion = typeof promotions.$inferInsert;

async function categoryIds(db: Db): Promise<Map<string, number>> {
  await db
    .insert(billingItemCategories)
    .values(BILLING_ITEM_CATEGORIES.map((name) => ({ name })))
    .onConflictDoNothing({ target: billingItemCategories.name });
  const rows = await db.select().from(billingItemCategories);
  return new Map(rows.map((r) => [r.name, r.id]));
}

async function insertBillingItems(db: Db, defs: readonly BillingItemDef[]): Promise<void> {
  if (defs.length === 0) return;
  const cats = await categoryIds(db);
  await db
    .insert(billingItems)
    .values(
      defs.map((d) => ({
        id: d.id,
        name: d.name,
        feature: d.feature ?? 'N',
        chargeAtLevel: d.chargeAtLevel ?? 'S',
        categoryId: cats.get(d.category) ?? null,
        recurring: d.recurring ?? false,
      })),
    )
    .onConflictDoNothing({ target: billingItems.id });
  const prices = defs.flatMap((d) =>
    (Object.entries(d.prices) as [CurrencyCode, number][]).map(([currency, priceCents]) => ({
      billingItemId: d.id,
      currency,
      priceCents,
    })),
  );
  if (prices.length > 0) await db.insert(billingItemPrices).values(prices).onConflictDoNothing();
}

/**
 * The whole catalogue (currencies, billing-item categories, billing items with USD/CAD prices, bundles with
 * price options, products with prices). Idempotent: rows that exist are left alone.
 */
export async function createCatalogue(db: Db): Promise<{ billingItems: number; bundles: number; products: number }> {
  await db.insert(currencies).values(CURRENCY_ROWS).onConflictDoNothing({ target: currencies.code });
  await insertBillingItems(db, BILLING_ITEM_DEFS);

  await db
    .insert(bundles)
    .values(BUNDLE_DEFS.map((b) => ({ id: b.id, name: b.name, description: b.description, nrsPay: b.nrsPay })))
    .onConflictDoNothing({ target: bundles.id });
  const haveOptions = await db
    .select({ bundleId: bundlePriceOptions.bundleId })
    .from(bundlePriceOptions)
    .where(
      inArray(
        bundlePriceOptions.bundleId,
        BUNDLE_DEFS.map((b) => b.id),
      ),
    )
    .groupBy(bundlePriceOptions.bundleId);
  const done = new Set(haveOptions.map((r) => r.bundleId));
  const options = BUNDLE_DEFS.filter((b) => !done.has(b.id)).flatMap((b) =>
    CURRENCY_CODES.flatMap((currency) =>
      b.items.flatMap((item) => {
        const monthly = currency === 'USD' ? item.usdCents : cadPrice(item.usdCents);
        return [
          // reference_id null: the monthly price; reference_id 5 (the yearly plan): ten months for twelve.
          {
            bundleId: b.id,
            billingItemId: item.billingItemId,
            currency,
            referenceId: null,
            label: 'Monthly',
            priceCents: monthly,
            term: 1,
          },
          {
            bundleId: b.id,
            billingItemId: item.billingItemId,
            currency,
            referenceId: 5,
            label: 'Yearly (2 months free)',
            priceCents: monthly * 10,
            term: 12,
          },
        ];
      }),
    ),
  );
  if (options.length > 0) await db.insert(bundlePriceOptions).values(options);

  await db
    .insert(products)
    .values(PRODUCT_DEFS.map((p) => ({ id: p.id, name: p.name, sku: p.sku, kind: p.kind, description: p.description })))
    .onConflictDoNothing();
  await db
    .insert(productPrices)
    .values(
      PRODUCT_DEFS.flatMap((p) => [
        { productId: p.id, currency: 'USD', priceCents: p.usdCents },
        { productId: p.id, currency: 'CAD', priceCents: cadPrice(p.usdCents) },
      ]),
    )
    .onConflictDoNothing();
  // Products were inserted with their catalogue ids: move the identity past them.
  await db.execute(sql`select setval(pg_get_serial_sequence('products', 'id'), (select max(id) from products))`);
  return { billingItems: BILLING_ITEM_DEFS.length, bundles: BUNDLE_DEFS.length, products: PRODUCT_DEFS.length };
}

/** Make sure the catalogue billing items with these ids exist (for invoice lines in tests). */
export async function ensureBillingItems(db: Db, ids: readonly number[]): Promise<void> {
  const wanted = new Set(ids);
  const existing = await db
    .select({ id: billingItems.id })
    .from(billingItems)
    .where(inArray(billingItems.id, [...wanted]));
  for (const r of existing) wanted.delete(r.id);
  const defs = BILLING_ITEM_DEFS.filter((d) => wanted.has(d.id));
  await insertBillingItems(db, defs);
  for (const d of defs) wanted.delete(d.id);
  if (wanted.size > 0) {
    await insertBillingItems(
      db,
      [...wanted].map((id) => ({ id, name: `Billing item ${id}`, category: 'Fees', prices: { USD: 0, CAD: 0 } })),
    );
  }
}

/** A billing item with prices (default id: one above the highest). */
export async function createBillingItem(
  db: Db,
  overrides: Partial<typeof billingItems.$inferInsert> & { prices?: Prices } = {},
): Promise<BillingItemRow> {
  const { prices = { USD: 10_00, CAD: 13_00 }, ...values } = overrides;
  let id = values.id;
  if (id === undefined) {
    const [row] = await db
      .select({ max: sql<number>`coalesce(max(${billingItems.id}), 1000)::int` })
      .from(billingItems);
    id = Math.max(row!.max, 1000) + 1;
  }
  const [row] = await db
    .insert(billingItems)
    .values({ name: `Billing item ${id}`, feature: 'N', chargeAtLevel: 'S', ...values, id })
    .returning();
  const priceRows = (Object.entries(prices) as [CurrencyCode, number][]).map(([currency, priceCents]) => ({
    billingItemId: id,
    currency,
    priceCents,
  }));
  if (priceRows.length > 0) await db.insert(billingItemPrices).values(priceRows);
  return row!;
}

/** A promotion: default a hardware (H) amount (A) promotion of $50 for any customer type, not expiring. */
export async function createPromotion(db: Db, overrides: Partial<NewPromotion> = {}): Promise<PromotionRow> {
  const method = overrides.method ?? 'A';
  const [row] = await db
    .insert(promotions)
    .values({
      code: `PROMO${nextSeq()}${Math.floor(Math.random() * 1e6)}`,
      name: 'Hardware discount',
      type: 'H',
      method,
      amountCents: method === 'A' ? 50_00 : null,
      percent: method === 'P' ? '10' : null,
      customerType: 'A',
      currency: 'USD',
      ...overrides,
    })
    .returning();
  return row!;
}

export async function createReferral(
  db: Db,
  overrides: Partial<typeof referrals.$inferInsert> = {},
): Promise<typeof referrals.$inferSelect> {
  const [row] = await db
    .insert(referrals)
    .values({
      refCode: `REF${nextSeq()}${Math.floor(Math.random() * 1e6)}`,
      name: 'Referral',
      discountCents: 100_00,
      currency: 'USD',
      ...overrides,
    })
    .returning();
  return row!;
}
