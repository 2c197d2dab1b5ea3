/**
 * Set-based SQL that fills one range of stores [$1, $2] (1-based store numbers) with their customers,
 * terminals, plans, 12 invoices per plan, transactions and orders. Every id is derived from the store number
 * and the offsets captured before the run, so ranges can load in parallel and re-running a range is refused by
 * the primary keys rather than duplicating rows.
 *
 * Shape per store n (customer c = ceil(n / 2), so 2 stores per customer; every 5th customer is Canadian):
 *   terminals: 1 + (n % 2)   plans: 1 monthly plan   invoices: 12 (one a month)   transactions: one per issued
 *   invoice except the current month's pending one   orders: 1, status cycling through every §4 code.
 */
import { ORDER_STATUS_CODES, US_STATES, CA_PROVINCES } from '@pos/domain';

export interface Offsets {
  customer: number;
  store: number;
  terminal: number;
  plan: number;
  invoice: number;
  transaction: number;
  order: number;
}

const sqlArray = (values: readonly string[]) => `(array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}])`;

const FIRST = sqlArray([
  'Ava',
  'Ben',
  'Chloe',
  'Dev',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Isla',
  'Jamal',
  'Kira',
  'Luis',
  'Mina',
  'Noah',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sam',
  'Tariq',
]);
const LAST = sqlArray([
  'Nguyen',
  'Smith',
  'Patel',
  'Garcia',
  'Kim',
  'Brown',
  'Singh',
  'Lopez',
  'Chen',
  'Martin',
  'Roy',
  'Tremblay',
  'Ali',
  'Wilson',
  'Khan',
  'Davis',
]);
const WORD1 = sqlArray([
  'Corner',
  'Sunrise',
  'Maple',
  'Harbor',
  'Liberty',
  'Golden',
  'Prairie',
  'Summit',
  'Lakeside',
  'Union',
  'Pioneer',
  'Cedar',
  'Northern',
  'Eastside',
  'Riverside',
  'Highland',
  'Main Street',
  'Village',
  'Metro',
  'Pacific',
]);
const WORD2 = sqlArray([
  'Market',
  'Deli',
  'Liquor',
  'Grocery',
  'Mart',
  'Food Store',
  'Convenience',
  'Fuel & Go',
  'Smoke Shop',
  'Bodega',
  'Pantry',
  'Express',
  'Wine & Spirits',
  'Pharmacy',
  'Hardware',
]);
const REPS = sqlArray([
  'Alice Moreau',
  'Brian Otis',
  'Carmen Diaz',
  'Derek Lam',
  'Erin Walsh',
  'Felix Roy',
  'Gina Park',
  'Hector Ruiz',
]);
const US = sqlArray(US_STATES.slice(0, 50).map((s) => s.code));
const CA = sqlArray(CA_PROVINCES.map((s) => s.code));
const STATUSES = sqlArray(ORDER_STATUS_CODES);
// Valid Canada Post forward sortation areas for the provinces above (first letter by province is not enforced here).
const CA_FSA = sqlArray(['K1A', 'M5V', 'H2X', 'V6B', 'T2P', 'R3C', 'S4P', 'E1C', 'B3H', 'A1C', 'C1A', 'X1A', 'Y1A']);

/** One statement per table for the store range [$1, $2]; run them in order, in one transaction. */
export function rangeStatements(o: Offsets): string[] {
  const isCa = (cust: string) => `((${cust}) % 5 = 0)`;
  return [
    // customers: those whose first store (2c - 1) is in the range
    `insert into customers (id, legal_name, first_name, last_name, email, phone, br_acct, federal_tax_id, country, currency,
        status, home_address, billing_address, customer_category, customer_class, created_at, updated_at)
     select ${o.customer} + c,
        ${WORD1}[1 + (c * 7) % 20] || ' ' || ${WORD2}[1 + (c * 11) % 15] || ' Holdings ' || c || ' Inc.',
        ${FIRST}[1 + c % 20], ${LAST}[1 + (c * 3) % 16],
        'owner' || (${o.customer} + c) || '@scale.example.com',
        '555' || lpad((c % 10000000)::text, 7, '0'),
        'BR' || lpad((${o.customer} + c)::text, 9, '0'),
        substr(lpad((900000000 + ${o.customer} + c)::text, 9, '0'), 1, 2) || '-' || substr(lpad((900000000 + ${o.customer} + c)::text, 9, '0'), 3),
        case when ${isCa('c')} then 'CA' else 'US' end,
        case when ${isCa('c')} then 'CAD' else 'USD' end,
        'active', addr, addr, 'DISTRIBUTOR', 'POS', now() - interval '13 months', now()
     from generate_series(($1::int + 1) / 2, $2::int / 2 + ($2::int % 2)) as c
     cross join lateral (select jsonb_build_object(
        'address1', (c % 9000 + 100) || ' ' || ${WORD1}[1 + c % 20] || ' Ave', 'city', 'Springfield',
        'state', case when ${isCa('c')} then ${CA}[1 + c % 13] else ${US}[1 + c % 50] end,
        'zip', case when ${isCa('c')} then ${CA_FSA}[1 + c % 13] || ' ' || (c % 10) || 'B' || ((c / 10) % 10)
                    else lpad((10000 + c % 89999)::text, 5, '0') end,
        'country', case when ${isCa('c')} then 'CA' else 'US' end) as addr) a
     where 2 * c - 1 >= $1`,
    // stores
    `insert into stores (id, customer_id, store_name, doing_business_as, br_acct, phone, kind_of_business, store_address,
        state, country, currency, sales_rep, store_type, license_expires_on, status, created_at, updated_at)
     select ${o.store} + n, ${o.customer} + c,
        ${WORD1}[1 + (n * 7) % 20] || ' ' || ${WORD2}[1 + (n * 13) % 15] || ' #' || n,
        ${WORD1}[1 + (n * 17) % 20] || ' ' || ${WORD2}[1 + (n * 5) % 15],
        'BR' || lpad((${o.customer} + c)::text, 9, '0'),
        '555' || lpad((n % 10000000)::text, 7, '0'),
        ${WORD2}[1 + (n * 13) % 15],
        jsonb_build_object('address1', (n % 9000 + 100) || ' Commerce St', 'city', 'Springfield', 'state', st, 'zip', zip, 'country', cc),
        st, cc, case when cc = 'CA' then 'CAD' else 'USD' end,
        ${REPS}[1 + n % 8],
        case when n % 997 = 0 then 'T' when n % 991 = 0 then 'D' else 'R' end,
        (current_date + ((n % 400) - 30))::date,
        case when n % 50 = 0 then 'suspended' else 'active' end,
        now() - interval '13 months', now()
     from generate_series($1::int, $2::int) as n
     cross join lateral (select (n + 1) / 2 as c) cc1
     cross join lateral (select case when ${isCa('c')} then 'CA' else 'US' end as cc) cc2
     cross join lateral (select case when cc = 'CA' then ${CA}[1 + c % 13] else ${US}[1 + c % 50] end as st,
        case when cc = 'CA' then ${CA_FSA}[1 + c % 13] || ' ' || (n % 10) || 'C' || ((n / 10) % 10)
             else lpad((10000 + n % 89999)::text, 5, '0') end as zip) z`,
    // terminals: 1 or 2 per store; terminal number t = 2n - 1 + k (k = 0, 1)
    `insert into terminals (id, elmer_id, serial_number, pos_cc_processor_serial_number, customer_id, store_id, status, installed_at, created_at, updated_at)
     select ${o.terminal} + 2 * n - 1 + k, 'E' || lpad((${o.terminal} + 2 * n - 1 + k)::text, 10, '0'),
        'SN' || lpad((${o.terminal} + 2 * n - 1 + k)::text, 12, '0'), 'PP' || (${o.terminal} + 2 * n - 1 + k),
        ${o.customer} + (n + 1) / 2, ${o.store} + n, 'active', now() - interval '12 months', now(), now()
     from generate_series($1::int, $2::int) as n cross join generate_series(0, n % 2) as k`,
    // one monthly plan per store
    `insert into customer_payment_plans (id, customer_id, store_id, kind, payment_plan_type_id, plan_name, term, interval,
        initial_amount_cents, recurring_amount_cents, currency, starts_on, license_expires_on, next_billing_on, status, created_at, updated_at)
     select ${o.plan} + n, s.customer_id, s.id, 'monthly', 4, 'Monthly service', 1, 1, 0,
        case when s.currency = 'CAD' then 5999 else 4999 end, s.currency,
        (date_trunc('month', current_date) - interval '12 months')::date, s.license_expires_on,
        (date_trunc('month', current_date) + interval '1 month')::date, 'active', now(), now()
     from generate_series($1::int, $2::int) as n join stores s on s.id = ${o.store} + n`,
    // 12 invoices per plan: month m = 1 (12 months ago) … 12 (this month, pending)
    `insert into invoices (id, invoice_number, customer_id, store_id, plan_id, status, type, period_start, period_end,
        issued_on, due_on, total_cents, tax_cents, paid_cents, open_cents, first_failed_at, currency, reversed_at,
        created_at, updated_at)
     select ${o.invoice} + (n - 1) * 12 + m, 'INV-' || (${o.invoice} + (n - 1) * 12 + m), p.customer_id, p.store_id, p.id,
        case when m = 12 then 'N' when (n + m) % 97 = 0 then 'R' when (n + m) % 23 = 0 or cb then 'N' else 'P' end,
        'M', d, (d + interval '1 month' - interval '1 day')::date, d, (d + 15), total, tax,
        case when m = 12 or (n + m) % 97 = 0 or (n + m) % 23 = 0 or cb then 0 else total end,
        -- open: the unpaid ones (N), not the reversed; first failed: the F charge written below (not this month's, not B)
        case when m = 12 or ((n + m) % 97 <> 0 and ((n + m) % 23 = 0 or cb)) then total else 0 end,
        case when m <> 12 and (n + m) % 97 <> 0 and (n + m) % 23 = 0 and not cb then d + interval '1 day' end,
        p.currency, case when m <> 12 and (n + m) % 97 = 0 then d + interval '20 days' end, d, d
     from generate_series($1::int, $2::int) as n
     join customer_payment_plans p on p.id = ${o.plan} + n
     cross join generate_series(1, 12) as m
     cross join lateral (select (date_trunc('month', current_date) - make_interval(months => 12 - m))::date as d,
        p.recurring_amount_cents * 8 / 100 as tax) dd
     cross join lateral (select p.recurring_amount_cents + tax as total) tt
     -- charged back (decision 112: a charge in B brings no money, so the invoice is open again)
     cross join lateral (select m <> 12 and (${o.invoice} + (n - 1) * 12 + m) % 211 = 0 as cb) cbk`,
    // a transaction per issued invoice except this month's: paid → S, unpaid → F (with a reason), some chargebacks
    `insert into transactions (id, customer_id, store_id, invoice_id, kind, status, amount_cents, currency, gateway_reference,
        failure_reason, attempted_at, settled_at, created_at, updated_at)
     select ${o.transaction} + i.id - ${o.invoice}, i.customer_id, i.store_id, i.id, 'charge',
        case when i.status = 'N' and i.id % 211 = 0 then 'B' when i.status = 'P' then 'S' when i.status = 'R' then 'C' else 'F' end,
        i.total_cents, i.currency, 'gw_' || i.id,
        case when i.status = 'N' then (array['Insufficient funds','Card expired','Do not honor','Account closed'])[1 + i.id % 4] end,
        i.issued_on + interval '1 day', case when i.status = 'P' then i.issued_on + interval '2 days' end, i.issued_on, i.issued_on
     from invoices i
     where i.id between ${o.invoice} + ($1::int - 1) * 12 + 1 and ${o.invoice} + $2::int * 12
       and not (i.status = 'N' and i.period_end >= current_date)`,
    // one order per store, status cycling through every code
    `insert into orders (id, unified_order_id, document, status, flow, order_type, sales_rep, customer_id, store_id,
        created_by_email, fed_tax_id, legal_name, dba_name, country, currency, total_sale_cents, order_date, created_at, updated_at)
     select ${o.order} + n, 'UO-' || (${o.order} + n),
        jsonb_build_object('orderInfoId', ${o.order} + n, 'orderType', case when n % 7 = 0 then 'N' else 'P' end,
          'flow', case when n % 3 = 0 then 'RAM' else 'AR' end, 'salesRep', s.sales_rep,
          'CustomerInfo', jsonb_build_object('federalTaxId', c.federal_tax_id, 'email', c.email),
          'StoreInfo', jsonb_build_object('storeName', s.store_name, 'doingBusinessAs', s.doing_business_as, 'customerStoreId', s.id)),
        ${STATUSES}[1 + n % ${ORDER_STATUS_CODES.length}], case when n % 3 = 0 then 'RAM' else 'AR' end,
        case when n % 7 = 0 then 'N' else 'P' end, s.sales_rep, c.id, s.id, 'scale@example.com', c.federal_tax_id,
        c.legal_name, s.doing_business_as, s.country, s.currency, 49900 + (n % 50) * 1000,
        now() - make_interval(days => n % 365), now() - make_interval(days => n % 365), now()
     from generate_series($1::int, $2::int) as n
     join stores s on s.id = ${o.store} + n join customers c on c.id = s.customer_id`,
  ];
}

export const SCALE_TABLES = [
  'customers',
  'stores',
  'terminals',
  'customer_payment_plans',
  'invoices',
  'transactions',
  'orders',
] as const;
