import { BILLING_ITEM_IDS, FEES, SPEC_FEE_ITEM_NAMES, type MarketFee } from '@pos/domain';
import { billableStoreSql } from '../../db/billable-stores.sql';
import { certificateValidSql, taxRateInForceSql } from '../../db/tax-rules.sql';

/**
 * One batch of the billing run as ONE statement (issue 14, decision 113): it takes up to `$2` active plans due on
 * `$1` (as_of) — locked, skipping plans another run holds —, bills each one period (its next billing date to the
 * next one on its anchor day), numbers the new invoices from the year's counter, writes invoices and lines, and
 * moves each plan on by one period. A plan several periods behind is taken again by the next batch, so missed
 * periods are billed one by one, oldest first. Set-based: the cost is per batch, not per plan.
 *
 * Exactly once: the plans are locked (`for update skip locked`) and moved on in the same transaction as their
 * invoices; a period that already has its invoice (a re-run, an earlier crash after commit, an invoice written by
 * hand) is skipped and the plan still moves on; the unique index (plan_id, period_start) is the last guard.
 * Gap-free numbers: the counter row of the year is moved by the number of invoices written, in the same
 * transaction (a rolled-back batch rolls the counter back too; concurrent runs queue on that row).
 *
 * Lines of a service invoice (M): the plan's active customer billing items (quantity × unit price); each active
 * bundle of the plan at the price frozen when it was sold (customer_bundle_prices; its live monthly price options
 * in the plan's currency if it has none, decision 126); and, when the items hold no service fee
 * (8 monthly, 9 yearly), the fee at the plan's recurring amount less those lines. An installment invoice (I): the
 * k-th installment (10) and its interest (11), the last one taking the rounding remainders (domain
 * installmentParts). Tax: the store's state/province rate in force on the invoice date on every line but interest,
 * rounded half up per invoice; an installment of an Arizona store with a valid certificate is not taxed (127).
 *
 * Test and demo stores (store types T and D, decision 149) are never billed: their due plans are locked and moved on
 * like any other (counted in `plans`, so a store that turns real is billed from then on, never for its test months)
 * but get no invoice and are not counted as `skipped`.
 *
 * The market fee (item 19, decision 158; the domain's marketFeeCents): a service invoice of a store in a market the
 * provider configured (MARKET_FEES, passed as $4) carries the market's monthly fee × the months it bills, named by the
 * catalogue, taxed like the service — unless the plan sells a market fee itself (a billing item or a bundle line of
 * item 19). No market configured: `[]`, no line.
 *
 * Parameters: $1 as_of (date), $2 batch size, $3 now (timestamptz), $4 the configured markets (JSON array of
 * {country, state, currency, monthly_cents}; marketFeesParam). Returns one row: plans, created, skipped.
 */
export const BILLING_BATCH_SQL = `
with due as (
  select p.id, p.customer_id, p.store_id, p.kind, p.interval, p.term, p.billed_periods, p.recurring_amount_cents,
         coalesce(p.financed_cents, 0) as financed_cents, p.currency, p.next_billing_on as period_start,
         billing_add_months(p.next_billing_on, p.interval, extract(day from p.starts_on)::integer) as period_end,
         (p.kind = 'hardware_sale') as installment, ${billableStoreSql('p.store_id')} as billable
  from customer_payment_plans p
  where p.status = 'active' and p.next_billing_on <= $1::date and p.interval > 0
    and (p.kind in ('monthly', 'yearly') or (p.kind = 'hardware_sale' and p.term > p.billed_periods))
  order by p.next_billing_on, p.id
  limit $2
  for update of p skip locked
),
todo as (
  select d.* from due d
  where d.billable and not exists (select 1 from invoices i where i.plan_id = d.id and i.period_start = d.period_start)
),
items as (
  select t.id as plan_id, cbi.billing_item_id, bi.name as description, cbi.quantity, cbi.unit_price_cents as unit_cents,
         cbi.quantity * cbi.unit_price_cents as amount_cents, true as taxable
  from todo t
  join customer_billing_items cbi on cbi.plan_id = t.id and cbi.status = 'A' and cbi.starts_on <= t.period_start
       and (cbi.ends_on is null or cbi.ends_on > t.period_start)
  join billing_items bi on bi.id = cbi.billing_item_id
  where not t.installment
  union all
  -- A bundle at the price frozen when it was sold (customer_bundle_prices, decision 126); one never frozen (none
  -- in the plan's currency) at its bundle's live monthly price options.
  select t.id, coalesce(fp.billing_item_id, o.billing_item_id), b.name || ': ' || coalesce(fp.label, o.label), 1,
         coalesce(fp.unit_price_cents, o.price_cents), coalesce(fp.unit_price_cents, o.price_cents), true
  from todo t
  join customer_bundles cb on cb.plan_id = t.id and cb.status = 'A' and cb.starts_on <= t.period_start
  join bundles b on b.id = cb.bundle_id
  cross join lateral (
    select exists (select 1 from customer_bundle_prices x where x.customer_bundle_id = cb.id and x.currency = t.currency)
           as frozen
  ) f
  left join customer_bundle_prices fp on f.frozen and fp.customer_bundle_id = cb.id and fp.currency = t.currency
  left join bundle_price_options o on not f.frozen and o.bundle_id = cb.bundle_id and o.currency = t.currency
       and o.term = 1
  where not t.installment and t.kind = 'monthly' and (fp.id is not null or o.id is not null)
),
item_sums as (
  select plan_id, sum(amount_cents)::bigint as amount_cents,
         bool_or(billing_item_id in (${BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE}, ${BILLING_ITEM_IDS.YEARLY_SERVICE_FEE})) as has_fee
  from items group by plan_id
),
fees as (
  select t.id as plan_id,
         case when t.kind = 'yearly' then ${BILLING_ITEM_IDS.YEARLY_SERVICE_FEE} else ${BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE} end as billing_item_id,
         case when t.kind = 'yearly' then 'Yearly service fee' else 'Monthly service fee' end as description,
         1 as quantity,
         t.recurring_amount_cents - coalesce(s.amount_cents, 0) as amount_cents
  from todo t left join item_sums s on s.plan_id = t.id
  where not t.installment and not coalesce(s.has_fee, false)
),
market_fees as (
  select t.id as plan_id, m.monthly_cents * t.interval as amount_cents,
         coalesce((select bi.name from billing_items bi where bi.id = ${BILLING_ITEM_IDS.MARKET_FEE}),
                  '${SPEC_FEE_ITEM_NAMES[BILLING_ITEM_IDS.MARKET_FEE]}') as description
  from todo t
  join stores st on st.id = t.store_id
  join jsonb_to_recordset($4::jsonb) as m(country text, state text, currency text, monthly_cents bigint)
    on m.country = st.country and m.state = upper(st.state) and m.currency = t.currency
  where not t.installment
    and not exists (select 1 from items i where i.plan_id = t.id and i.billing_item_id = ${BILLING_ITEM_IDS.MARKET_FEE})
),
installments as (
  select t.id as plan_id, t.financed_cents, t.term, t.billed_periods + 1 as k,
         (t.financed_cents * ${FEES.INSTALLMENT_INTEREST_PERCENT} + 50) / 100 as interest_total
  from todo t where t.installment
),
fee_owed as (
  -- The failed-payment fee of a US store (decision 116) rides on the store's next service invoice: one line per
  -- failed invoice whose fee is pending, on one service plan of the store (the lowest id).
  select distinct on (d.invoice_id) t.id as plan_id, d.invoice_id, d.fee_cents, fi.invoice_number
  from todo t
  join invoice_dunning d on d.store_id = t.store_id and d.fee_state = 'pending'
  join invoices fi on fi.id = d.invoice_id
  where not t.installment
  order by d.invoice_id, t.id
),
lines as (
  select plan_id, billing_item_id, description, quantity, unit_cents, amount_cents, taxable from items
  union all
  select plan_id, ${BILLING_ITEM_IDS.OTHER_CHARGES}, 'Failed-payment fee (invoice ' || invoice_number || ')', 1, fee_cents,
         fee_cents, false
  from fee_owed
  union all
  select plan_id, billing_item_id, description, quantity, amount_cents, amount_cents, true from fees where amount_cents > 0
  union all
  select plan_id, ${BILLING_ITEM_IDS.MARKET_FEE}, description, 1, amount_cents, amount_cents, true from market_fees
  union all
  select plan_id, ${BILLING_ITEM_IDS.INSTALLMENT}, 'Installment ' || k || ' of ' || term, 1,
         case when k < term then financed_cents / term else financed_cents - (financed_cents / term) * (term - 1) end,
         case when k < term then financed_cents / term else financed_cents - (financed_cents / term) * (term - 1) end,
         true
  from installments
  union all
  select plan_id, ${BILLING_ITEM_IDS.INTEREST}, 'Interest (' || ${FEES.INSTALLMENT_INTEREST_PERCENT} || ' %), installment ' || k || ' of ' || term, 1,
         case when k < term then interest_total / term else interest_total - (interest_total / term) * (term - 1) end,
         case when k < term then interest_total / term else interest_total - (interest_total / term) * (term - 1) end,
         false
  from installments
),
sums as (
  select plan_id, sum(amount_cents)::bigint as subtotal, (sum(amount_cents) filter (where taxable))::bigint as taxable
  from lines group by plan_id
),
priced as (
  select t.*, greatest(s.subtotal, 0) as subtotal,
         ((greatest(coalesce(s.taxable, 0), 0) * coalesce(r.rate_basis_points, 0) + 5000) / 10000) as tax_cents,
         row_number() over (order by t.id) as n
  from todo t
  join sums s on s.plan_id = t.id
  left join stores st on st.id = t.store_id
  -- The rate in force on the invoice date; none on a hardware-sale installment of an Arizona store whose
  -- certificate is valid that day (decision 127).
  left join lateral (
    select case
             when t.installment and st.country = 'US' and upper(st.state) = 'AZ'
                  and ${certificateValidSql('st.id', '$1::date')} then 0
             else ${taxRateInForceSql('st.country', 'st.state', '$1::date')}
           end as rate_basis_points
  ) r on true
),
counter as (
  insert into invoice_number_counters (year, last_number)
  select extract(year from $1::date)::integer, count(*) from priced having count(*) > 0
  on conflict (year) do update set last_number = invoice_number_counters.last_number + excluded.last_number
  returning last_number
),
created as (
  insert into invoices (invoice_number, customer_id, store_id, plan_id, status, type, period_start, period_end,
                        issued_on, due_on, total_cents, tax_cents, paid_cents, open_cents, currency, created_at, updated_at)
  select 'INV-' || extract(year from $1::date)::integer || '-' ||
           lpad((c.last_number - (select count(*) from priced) + p.n)::text, 7, '0'),
         p.customer_id, p.store_id, p.id, case when p.subtotal + p.tax_cents = 0 then 'P' else 'N' end, case when p.installment then 'I' else 'M' end,
         p.period_start, p.period_end, $1::date, $1::date, p.subtotal + p.tax_cents, p.tax_cents, 0, p.subtotal + p.tax_cents, p.currency, $3, $3
  from priced p cross join counter c
  returning id, plan_id
),
created_lines as (
  insert into invoice_lines (invoice_id, billing_item_id, description, quantity, unit_cents, amount_cents)
  select c.id, l.billing_item_id, l.description, l.quantity, l.unit_cents, l.amount_cents
  from created c join lines l on l.plan_id = c.plan_id
  where l.amount_cents <> 0
  returning 1
),
fees_invoiced as (
  update invoice_dunning d set fee_state = 'invoiced', fee_invoice_id = c.id, updated_at = $3, version = d.version + 1
  from fee_owed f join created c on c.plan_id = f.plan_id
  where d.invoice_id = f.invoice_id
  returning 1
),
moved as (
  update customer_payment_plans p
  set next_billing_on = case when d.installment and d.billed_periods + 1 >= d.term then null else d.period_end end,
      billed_periods = p.billed_periods + 1,
      status = case when d.installment and d.billed_periods + 1 >= d.term then 'completed' else p.status end,
      updated_at = $3,
      version = p.version + 1
  from due d where p.id = d.id
  returning 1
)
select (select count(*) from moved)::integer as plans,
       (select count(*) from created)::integer as created,
       (select count(*) from due where billable)::integer - (select count(*) from todo)::integer as skipped,
       (select count(*) from created_lines)::integer as lines,
       (select count(*) from fees_invoiced)::integer as fees`;

/** How many plans are due on $1 (as_of): the run's `plans_due`, and what is left after each batch. */
export const PLANS_DUE_SQL = `
select count(*)::integer as n from customer_payment_plans p
where p.status = 'active' and p.next_billing_on <= $1::date and p.interval > 0
  and (p.kind in ('monthly', 'yearly') or (p.kind = 'hardware_sale' and p.term > p.billed_periods))`;

/** $4 of BILLING_BATCH_SQL: the configured markets (MARKET_FEES) as the statement reads them. */
export function marketFeesParam(markets: readonly MarketFee[]): string {
  return JSON.stringify(
    markets.map((m) => ({ country: m.country, state: m.state, currency: m.currency, monthly_cents: m.monthlyCents })),
  );
}
