import {
  CUSTOMER_BILLING_ITEM_STATUS_LABELS,
  type CurrencyCode,
  type CustomerBundleList,
  type CustomerBillingItemStatus,
  type OrderPromotionList,
  type StoreFilterQuery,
} from '@pos/domain';
import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import {
  billingItems,
  bundlePriceOptions,
  bundles,
  customerBundlePrices,
  customerBundles,
  orderPromotions,
  promotions,
  stores,
} from '../../db/schema';
import { requireCustomer, requireStoreOf, viewerOf, visibleRecordsWhere } from '../../access';

/**
 * GET /api/customers/{id}/customerbundles/{token}?custstoreid: the customer's bundles (of one store, or all), each
 * with its items at the monthly price it was sold for (its frozen price, decisions 126 and 150) in the store's
 * currency; a bundle never frozen at the catalogue's monthly price options.
 */
export async function listBundles(
  ctx: ServiceCtx,
  customerId: number,
  q: StoreFilterQuery,
): Promise<CustomerBundleList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  if (q.custstoreid !== undefined) await requireStoreOf(db, viewerOf(ctx), customerId, q.custstoreid, 'custstoreid');
  const where = and(
    eq(customerBundles.customerId, customerId),
    visibleRecordsWhere(viewerOf(ctx), customerBundles.storeId),
    q.custstoreid === undefined ? undefined : eq(customerBundles.storeId, q.custstoreid),
  );
  const rows = await db
    .select({
      r: customerBundles,
      name: bundles.name,
      description: bundles.description,
      nrsPay: bundles.nrsPay,
      currency: stores.currency,
    })
    .from(customerBundles)
    .innerJoin(bundles, eq(bundles.id, customerBundles.bundleId))
    .innerJoin(stores, eq(stores.id, customerBundles.storeId))
    .where(where)
    .orderBy(asc(customerBundles.storeId), desc(customerBundles.startsOn), asc(customerBundles.id))
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await db.select({ n: count() }).from(customerBundles).where(where);
  const bundleIds = [...new Set(rows.map((r) => r.r.bundleId))];
  const options =
    bundleIds.length === 0
      ? []
      : await db
          .select({
            bundleId: bundlePriceOptions.bundleId,
            currency: bundlePriceOptions.currency,
            billingItemId: bundlePriceOptions.billingItemId,
            name: billingItems.name,
            priceCents: bundlePriceOptions.priceCents,
          })
          .from(bundlePriceOptions)
          .innerJoin(billingItems, eq(billingItems.id, bundlePriceOptions.billingItemId))
          .where(and(inArray(bundlePriceOptions.bundleId, bundleIds), isNull(bundlePriceOptions.referenceId)))
          .orderBy(asc(bundlePriceOptions.billingItemId));
  const frozen =
    rows.length === 0
      ? []
      : await db
          .select({
            customerBundleId: customerBundlePrices.customerBundleId,
            currency: customerBundlePrices.currency,
            billingItemId: customerBundlePrices.billingItemId,
            name: billingItems.name,
            priceCents: customerBundlePrices.unitPriceCents,
          })
          .from(customerBundlePrices)
          .innerJoin(billingItems, eq(billingItems.id, customerBundlePrices.billingItemId))
          .where(
            inArray(
              customerBundlePrices.customerBundleId,
              rows.map((x) => x.r.id),
            ),
          )
          .orderBy(asc(customerBundlePrices.billingItemId), asc(customerBundlePrices.id));
  return {
    total: total?.n ?? 0,
    items: rows.map(({ r, name, description, nrsPay, currency }) => {
      const sold = frozen.filter((o) => o.customerBundleId === r.id && o.currency === currency);
      const items = (
        sold.length > 0 ? sold : options.filter((o) => o.bundleId === r.bundleId && o.currency === currency)
      ).map((o) => ({ billing_item_id: o.billingItemId, name: o.name, price_cents: o.priceCents }));
      const status = r.status as CustomerBillingItemStatus;
      return {
        id: r.id,
        customer_id: r.customerId,
        store_id: r.storeId,
        bundle_id: r.bundleId,
        name,
        description,
        nrs_pay: nrsPay,
        plan_id: r.planId,
        status,
        status_label: CUSTOMER_BILLING_ITEM_STATUS_LABELS[status],
        starts_on: r.startsOn,
        currency: currency as CurrencyCode,
        monthly_price_cents: items.reduce((s, i) => s + i.price_cents, 0),
        items,
      };
    }),
  };
}

/** GET …/orderpromotions?custstoreid: promotions applied to the customer's orders (of one store, or all). */
export async function listPromotions(
  ctx: ServiceCtx,
  customerId: number,
  q: StoreFilterQuery,
): Promise<OrderPromotionList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  if (q.custstoreid !== undefined) await requireStoreOf(db, viewerOf(ctx), customerId, q.custstoreid, 'custstoreid');
  const where = and(
    eq(orderPromotions.customerId, customerId),
    visibleRecordsWhere(viewerOf(ctx), orderPromotions.storeId),
    q.custstoreid === undefined ? undefined : eq(orderPromotions.storeId, q.custstoreid),
  );
  const rows = await db
    .select({
      r: orderPromotions,
      code: promotions.code,
      name: promotions.name,
      type: promotions.type,
      method: promotions.method,
    })
    .from(orderPromotions)
    .innerJoin(promotions, eq(promotions.id, orderPromotions.promotionId))
    .where(where)
    .orderBy(desc(orderPromotions.appliedAt), asc(orderPromotions.id))
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await db.select({ n: count() }).from(orderPromotions).where(where);
  return {
    total: total?.n ?? 0,
    items: rows.map(({ r, code, name, type, method }) => ({
      id: r.id,
      order_id: r.orderId,
      customer_id: r.customerId ?? customerId,
      store_id: r.storeId,
      promotion_id: r.promotionId,
      code,
      name,
      type,
      method,
      amount_cents: r.amountCents,
      currency: r.currency as CurrencyCode,
      applied_at: r.appliedAt.toISOString(),
    })),
  };
}
