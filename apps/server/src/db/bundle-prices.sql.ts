import { sql, type SQL } from 'drizzle-orm';

/*
 * Freezing a customer's bundle price when it is sold (issue 17 point 4, decision 126): each monthly price option
 * (`term = 1`) of the bundle in the currency of the bundle's plan is copied to `customer_bundle_prices`, the same
 * options the billing run used to read live. A bundle already frozen, or without a plan, is left alone. The
 * migration 0021_bundle_price backfills existing bundles with the same statement.
 */

/** Freeze the price of the given customer bundles (every unfrozen one when `ids` is empty). Returns rows written. */
export function freezeBundlePricesSql(ids: readonly number[] = []): SQL {
  const only =
    ids.length === 0
      ? sql``
      : sql` and cb.id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  return sql`
    insert into customer_bundle_prices (customer_bundle_id, price_option_id, billing_item_id, label, currency,
                                        unit_price_cents)
    select cb.id, o.id, o.billing_item_id, o.label, p.currency, o.price_cents
    from customer_bundles cb
    join customer_payment_plans p on p.id = cb.plan_id
    join bundle_price_options o on o.bundle_id = cb.bundle_id and o.currency = p.currency and o.term = 1
    where not exists (select 1 from customer_bundle_prices x where x.customer_bundle_id = cb.id)${only}
    order by cb.id, o.id`;
}
