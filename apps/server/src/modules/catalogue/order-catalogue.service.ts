import {
  DEFAULT_CURRENCY,
  OTHER_IDS,
  isNrsPayBundle,
  type BundleCatalogue,
  type BundlePriceOptionList,
  type BundlePriceOptionsQuery,
  type CatalogueProduct,
  type CataloguePromotion,
  type CurrencyCode,
  type ProductCatalogue,
  type PromotionLookup,
  type PromotionQuery,
  type ReferralLookup,
} from '@pos/domain';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import {
  agents,
  billingItems,
  bundlePriceOptions,
  bundles,
  productPrices,
  products,
  promotions,
  referrals,
} from '../../db/schema';
import { AppError } from '../../http/errors';
import { usageCountSql } from '../promotions';
import { visibleAgentsWhere } from '../agents';

type ProductKind = CatalogueProduct['kind'];

/** Active products (only the terminal kind when `terminalsOnly`) with their price in `currency`, by id. */
export async function listProducts(
  ctx: ServiceCtx,
  currency: CurrencyCode = DEFAULT_CURRENCY,
  terminalsOnly = false,
): Promise<ProductCatalogue> {
  const where: SQL[] = [eq(products.active, true)];
  if (terminalsOnly) where.push(eq(products.kind, 'terminal'));
  const rows = await ctx.app.database.db
    .select({
      id: products.id,
      name: products.name,
      sku: products.sku,
      kind: products.kind,
      description: products.description,
      priceCents: productPrices.priceCents,
    })
    .from(products)
    .leftJoin(productPrices, and(eq(productPrices.productId, products.id), eq(productPrices.currency, currency)))
    .where(and(...where))
    .orderBy(asc(products.id));
  return {
    currency,
    products: rows.map((r) => ({
      product_id: r.id,
      name: r.name,
      sku: r.sku,
      kind: r.kind as ProductKind,
      description: r.description,
      terminal_product: r.id === OTHER_IDS.TERMINAL_PRODUCT_ID,
      petro_product: r.id === OTHER_IDS.PETRO_PRODUCT_ID,
      unit_price_cents: r.priceCents,
      currency,
    })),
  };
}

/**
 * Active bundles with their items and the items' base (reference-less, monthly) price in `currency`, by id.
 * An item of a bundle is a billing item with at least one price option of that bundle (any currency).
 */
export async function listBundles(
  ctx: ServiceCtx,
  currency: CurrencyCode = DEFAULT_CURRENCY,
): Promise<BundleCatalogue> {
  const db = ctx.app.database.db;
  const bundleRows = await db
    .select({ id: bundles.id, name: bundles.name, description: bundles.description })
    .from(bundles)
    .where(eq(bundles.active, true))
    .orderBy(asc(bundles.id));
  const itemRows = await db
    .select({
      bundleId: bundlePriceOptions.bundleId,
      billingItemId: bundlePriceOptions.billingItemId,
      name: billingItems.name,
      priceCents: sql<
        number | null
      >`max(${bundlePriceOptions.priceCents}) filter (where ${bundlePriceOptions.currency} = ${currency} and ${bundlePriceOptions.referenceId} is null)`.mapWith(
        (v: unknown) => (v === null ? null : Number(v)),
      ),
    })
    .from(bundlePriceOptions)
    .innerJoin(billingItems, eq(billingItems.id, bundlePriceOptions.billingItemId))
    .groupBy(bundlePriceOptions.bundleId, bundlePriceOptions.billingItemId, billingItems.name)
    .orderBy(asc(bundlePriceOptions.bundleId), asc(bundlePriceOptions.billingItemId));
  const itemsOf = new Map<number, { billing_item_id: number; name: string; unit_price_cents: number | null }[]>();
  for (const r of itemRows) {
    const list = itemsOf.get(r.bundleId) ?? [];
    list.push({ billing_item_id: r.billingItemId, name: r.name, unit_price_cents: r.priceCents });
    itemsOf.set(r.bundleId, list);
  }
  return {
    currency,
    bundles: bundleRows.map((b) => {
      const items = itemsOf.get(b.id) ?? [];
      const monthly = items.some((i) => i.unit_price_cents === null)
        ? null
        : items.reduce((sum, i) => sum + (i.unit_price_cents ?? 0), 0);
      return {
        bundle_id: b.id,
        name: b.name,
        description: b.description,
        nrs_pay: isNrsPayBundle(b.id),
        items,
        monthly_price_cents: monthly,
        currency,
      };
    }),
  };
}

/**
 * The price options of a bundle's billing items in one currency: all of them (base and per-reference) without
 * reference_id, only that reference's (e.g. 5, the yearly plan) with it. An unknown bundle → 404.
 */
export async function listBundlePriceOptions(
  ctx: ServiceCtx,
  query: BundlePriceOptionsQuery,
): Promise<BundlePriceOptionList> {
  const db = ctx.app.database.db;
  const bundleId = query.bundle_id!;
  const currency = query.currency ?? DEFAULT_CURRENCY;
  const [bundle] = await db.select({ id: bundles.id }).from(bundles).where(eq(bundles.id, bundleId));
  if (!bundle)
    throw new AppError('not_found', `Bundle ${bundleId} was not found.`, {
      bundle_id: `There is no bundle ${bundleId}.`,
    });
  const where: SQL[] = [eq(bundlePriceOptions.bundleId, bundleId), eq(bundlePriceOptions.currency, currency)];
  if (query.reference_id !== undefined) where.push(eq(bundlePriceOptions.referenceId, query.reference_id));
  const rows = await db
    .select({
      id: bundlePriceOptions.id,
      billingItemId: bundlePriceOptions.billingItemId,
      name: billingItems.name,
      referenceId: bundlePriceOptions.referenceId,
      label: bundlePriceOptions.label,
      priceCents: bundlePriceOptions.priceCents,
      term: bundlePriceOptions.term,
    })
    .from(bundlePriceOptions)
    .innerJoin(billingItems, eq(billingItems.id, bundlePriceOptions.billingItemId))
    .where(and(...where))
    .orderBy(
      asc(bundlePriceOptions.billingItemId),
      sql`${bundlePriceOptions.referenceId} asc nulls first`,
      asc(bundlePriceOptions.id),
    );
  return {
    bundle_id: bundleId,
    currency,
    reference_id: query.reference_id ?? null,
    options: rows.map((r) => ({
      price_option_id: r.id,
      billing_item_id: r.billingItemId,
      billing_item_name: r.name,
      reference_id: r.referenceId,
      label: r.label,
      price_cents: r.priceCents,
      term: r.term,
    })),
  };
}

/** Today's date (YYYY-MM-DD, UTC) of the app clock. */
const today = (ctx: ServiceCtx) => ctx.app.clock.now().toISOString().slice(0, 10);

/**
 * Promotions by code (any case): active ones that have started and have not expired; `expired=Y` also finds
 * expired ones (never inactive or not-yet-started ones); `promo_id` narrows to that promotion. None → 404.
 */
export async function findPromotions(ctx: ServiceCtx, code: string, query: PromotionQuery): Promise<PromotionLookup> {
  const day = today(ctx);
  const where: SQL[] = [
    sql`upper(${promotions.code}) = upper(${code})`,
    eq(promotions.active, true),
    sql`(${promotions.startsOn} is null or ${promotions.startsOn} <= ${day})`,
  ];
  if (query.expired !== 'Y') where.push(sql`(${promotions.expiresOn} is null or ${promotions.expiresOn} >= ${day})`);
  if (query.promo_id !== undefined) where.push(eq(promotions.id, query.promo_id));
  const rows = await ctx.app.database.db
    .select({ r: promotions, usageCount: usageCountSql(sql.raw('"promotions"."id"')) })
    .from(promotions)
    .where(and(...where))
    .orderBy(sql`${promotions.currency} = 'USD' desc`, asc(promotions.id));
  if (rows.length === 0) {
    const message = `No ${query.expired === 'Y' ? '' : 'current '}promotion has the code ${code}.`;
    throw new AppError('not_found', message, { code: message });
  }
  return {
    promotions: rows.map(({ r, usageCount }): CataloguePromotion => ({
      promo_id: r.id,
      code: r.code,
      name: r.name,
      type: r.type as CataloguePromotion['type'],
      method: r.method as CataloguePromotion['method'],
      amount_cents: r.amountCents,
      percent: r.percent === null ? null : Number(r.percent),
      customer_type: r.customerType,
      currency: r.currency as CurrencyCode,
      billing_item_id: r.billingItemId,
      starts_on: r.startsOn,
      expires_on: r.expiresOn,
      expired: r.expiresOn !== null && r.expiresOn < day,
      usage_limit: r.usageLimit,
      usage_count: Number(usageCount),
    })),
  };
}

/** An active referral by its code (any case), or by its id when refId is all digits. None → 404. */
export async function findReferral(ctx: ServiceCtx, refId: string): Promise<ReferralLookup> {
  const byId = /^[1-9][0-9]{0,8}$/.test(refId) ? sql` or ${referrals.id} = ${Number(refId)}` : sql``;
  const [row] = await ctx.app.database.db
    .select({
      id: referrals.id,
      refCode: referrals.refCode,
      name: referrals.name,
      agentId: referrals.agentId,
      agentName: agents.name,
      discountCents: referrals.discountCents,
      currency: referrals.currency,
    })
    .from(referrals)
    .leftJoin(agents, eq(agents.id, referrals.agentId))
    .where(
      and(
        eq(referrals.active, true),
        sql`(upper(${referrals.refCode}) = upper(${refId})${byId})`,
        // An agent-scoped session finds only its own agents' referrals (decision 124); others read as missing.
        visibleAgentsWhere(ctx.session),
      ),
    )
    // A code match wins over an id match.
    .orderBy(sql`upper(${referrals.refCode}) = upper(${refId}) desc`, asc(referrals.id))
    .limit(1);
  if (!row) {
    const message = `No active referral has the code ${refId}.`;
    throw new AppError('not_found', message, { refId: message });
  }
  return {
    referral_id: row.id,
    ref_code: row.refCode,
    name: row.name,
    agent_id: row.agentId,
    agent_name: row.agentName,
    discount_cents: row.discountCents,
    currency: row.currency as CurrencyCode,
  };
}
