import { BILLING_ITEM_IDS, orderBundleEntry, toCents, type OrderDocument } from '@pos/domain';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { billingItems, bundlePriceOptions, bundles, customerBundlePrices, customerBundles } from '../../db/schema';

/*
 * The bundles sold on an order (issue 29 item 4, decision 150): at Complete each unit becomes a customer bundle of the
 * store on the service plan, its price frozen at the price it was sold for (decision 126's customer_bundle_prices),
 * which is what the Bundles tab shows and the billing run bills.
 */

export interface MonthlyOption {
  readonly id: number;
  readonly billingItemId: number;
  readonly label: string;
  readonly priceCents: number;
}

export interface FrozenPrice {
  readonly priceOptionId: number | null;
  readonly billingItemId: number;
  readonly label: string;
  readonly unitPriceCents: number;
}

/**
 * The frozen rows of one bundle sold for `soldCents` a month, over the bundle's monthly price options: the options as
 * they are when they add up to the sold price; else the sold price shared in proportion to them (the last option takes
 * the rounding), all on the first when they are all free; without options one "Monthly" line under Other charges.
 * Nothing sold and nothing to copy → no rows.
 */
export function soldBundlePrices(options: readonly MonthlyOption[], soldCents: number): FrozenPrice[] {
  const sold = Math.max(0, Math.round(soldCents));
  if (options.length === 0)
    return sold === 0
      ? []
      : [
          {
            priceOptionId: null,
            billingItemId: BILLING_ITEM_IDS.OTHER_CHARGES,
            label: 'Monthly',
            unitPriceCents: sold,
          },
        ];
  const catalogue = options.reduce((s, o) => s + o.priceCents, 0);
  const row = (o: MonthlyOption, unitPriceCents: number): FrozenPrice => ({
    priceOptionId: o.id,
    billingItemId: o.billingItemId,
    label: o.label,
    unitPriceCents,
  });
  if (catalogue === sold) return options.map((o) => row(o, o.priceCents));
  if (catalogue === 0) return options.map((o, i) => row(o, i === 0 ? sold : 0));
  let left = sold;
  return options.map((o, i) => {
    const share = i === options.length - 1 ? left : Math.floor((o.priceCents * sold) / catalogue);
    left -= share;
    return row(o, share);
  });
}

/**
 * Write the order's sold bundles for the store (in onboarding's transaction): one customer bundle per unit sold, on
 * `planId`, each with its frozen price. A bundle the catalogue does not know is left out, like an unknown billing
 * item. A bundle entry without a monthly price was sold at the catalogue's. Returns the customer bundle ids.
 */
export async function writeSoldBundles(
  db: Db,
  doc: OrderDocument,
  target: { customerId: number; storeId: number; planId: number; currency: string; startsOn: string; now: Date },
): Promise<number[]> {
  const sold = (doc.BundleInfo ?? [])
    .map((e) => orderBundleEntry.safeParse(e))
    .flatMap((r) => (r.success && r.data.quantity > 0 ? [r.data] : []));
  if (sold.length === 0) return [];
  const ids = [...new Set(sold.map((b) => b.bundleId))];
  const known = new Set(
    (await db.select({ id: bundles.id }).from(bundles).where(inArray(bundles.id, ids))).map((r) => r.id),
  );
  const options = await db
    .select({
      id: bundlePriceOptions.id,
      bundleId: bundlePriceOptions.bundleId,
      billingItemId: bundlePriceOptions.billingItemId,
      label: bundlePriceOptions.label,
      priceCents: bundlePriceOptions.priceCents,
    })
    .from(bundlePriceOptions)
    .where(
      and(
        inArray(bundlePriceOptions.bundleId, ids),
        eq(bundlePriceOptions.currency, target.currency),
        eq(bundlePriceOptions.term, 1),
        isNull(bundlePriceOptions.referenceId),
      ),
    )
    .orderBy(asc(bundlePriceOptions.billingItemId), asc(bundlePriceOptions.id));
  const made: number[] = [];
  let otherChargesReady = false;
  for (const b of sold.filter((x) => known.has(x.bundleId))) {
    const own = options.filter((o) => o.bundleId === b.bundleId);
    const soldCents = b.monthlyPrice == null ? own.reduce((s, o) => s + o.priceCents, 0) : toCents(b.monthlyPrice);
    const prices = soldBundlePrices(own, soldCents);
    if (!otherChargesReady && prices.some((p) => p.priceOptionId === null)) {
      await db
        .insert(billingItems)
        .values({
          id: BILLING_ITEM_IDS.OTHER_CHARGES,
          name: 'Other charges',
          createdAt: target.now,
          updatedAt: target.now,
        })
        .onConflictDoNothing({ target: billingItems.id });
      otherChargesReady = true;
    }
    const rows = await db
      .insert(customerBundles)
      .values(
        Array.from({ length: b.quantity }, () => ({
          customerId: target.customerId,
          storeId: target.storeId,
          bundleId: b.bundleId,
          planId: target.planId,
          status: 'A',
          startsOn: target.startsOn,
          createdAt: target.now,
          updatedAt: target.now,
        })),
      )
      .returning({ id: customerBundles.id });
    if (prices.length > 0)
      await db.insert(customerBundlePrices).values(
        rows.flatMap((r) =>
          prices.map((p) => ({
            customerBundleId: r.id,
            priceOptionId: p.priceOptionId,
            billingItemId: p.billingItemId,
            label: p.label,
            currency: target.currency,
            unitPriceCents: p.unitPriceCents,
            createdAt: target.now,
          })),
        ),
      );
    made.push(...rows.map((r) => r.id));
  }
  return made;
}
