import type { Readable } from 'node:stream';
import {
  CUSTOMER_SEARCH_CSV_COLUMNS,
  SEARCH_TOTAL_CAP,
  parseSort,
  type CustomerSearchQuery,
  type CustomerSearchRecord,
  type CustomerSearchResult,
  type CustomerSearchSortField,
} from '@pos/domain';
import type { ServiceCtx } from '../../context';
import { csvStream } from '../../lib/csv-stream';
import { escapeLike } from '../../lib/sql-like';

/** ORDER BY expression of each sortable column (text compared case-insensitively). */
const SORT_SQL: Readonly<Record<CustomerSearchSortField, string>> = {
  customer_id: 'c.id',
  legal_name: 'lower(c.legal_name)',
  doing_business_as: 'lower(s.doing_business_as)',
  store_id: 's.id',
  store_name: 'lower(s.store_name)',
  bracct: 'lower(coalesce(s.br_acct, c.br_acct))',
  sales_rep: 'lower(s.sales_rep)',
  federal_tax_id: 'c.federal_tax_id',
  country: 'coalesce(s.country, c.country)',
  state: "coalesce(s.state, c.home_address->>'state')",
  city: "lower(coalesce(s.store_address->>'city', c.home_address->>'city'))",
  customer_status: 'c.status',
  store_status: 's.status',
  account_manager: 'lower(coalesce(s.account_manager_username, c.account_manager_username))',
};

/**
 * The (store_id, customer_id) pairs a search matches, as SQL with its parameters. One row per store; a
 * customer without stores gives one row with a null store_id. Free text: a BitmapOr over the trigram
 * index of each searched column on stores, united with the customers whose own fields match (all their stores).
 */
export function hitsSql(q: Pick<CustomerSearchQuery, 'kind' | 'value'>): { text: string; params: unknown[] } {
  switch (q.kind) {
    case 'customerid':
      return {
        text: 'select s.id as store_id, c.id as customer_id from customers c left join stores s on s.customer_id = c.id where c.id = $1',
        params: [Number(q.value)],
      };
    case 'storeid':
      return {
        text: 'select s.id as store_id, s.customer_id from stores s where s.id = $1',
        params: [Number(q.value)],
      };
    case 'federaltaxid':
      // US EINs are stored as NN-NNNNNNN, Canadian business numbers as 9 digits: match either form.
      return {
        text: `select s.id as store_id, c.id as customer_id from customers c left join stores s on s.customer_id = c.id
               where c.federal_tax_id in ($1, $2)`,
        params: [q.value, q.value.replace('-', '')],
      };
    case 'search':
      return {
        text: `select s.id as store_id, s.customer_id from stores s
               where s.br_acct ilike $1 or s.sales_rep ilike $1 or s.store_name ilike $1 or s.doing_business_as ilike $1
               union
               select s.id as store_id, c.id as customer_id from customers c left join stores s on s.customer_id = c.id
               where c.legal_name ilike $1 or c.email ilike $1 or c.federal_tax_id ilike $1`,
        params: [`%${escapeLike(q.value)}%`],
      };
  }
}

const ROW_COLUMNS = `
  c.id as customer_id, c.legal_name, s.doing_business_as, s.id as store_id, s.store_name,
  coalesce(s.br_acct, c.br_acct) as bracct, s.sales_rep, c.federal_tax_id, c.email,
  coalesce(s.phone, c.phone) as phone,
  coalesce(s.country, c.country) as country, coalesce(s.currency, c.currency) as currency,
  coalesce(s.store_address->>'city', c.home_address->>'city') as city,
  coalesce(s.state, c.home_address->>'state') as state,
  coalesce(s.store_address->>'zip', c.home_address->>'zip') as zip,
  c.status as customer_status, s.status as store_status,
  coalesce(s.account_manager_username, c.account_manager_username) as account_manager`;

const ROW_SELECT = `select ${ROW_COLUMNS}
  from hits h join customers c on c.id = h.customer_id left join stores s on s.id = h.store_id`;

/** The free-text conditions on a customer's own fields and on a store's ($1 = the ILIKE pattern). */
const CUSTOMER_MATCH = 'c.legal_name ilike $1 or c.email ilike $1 or c.federal_tax_id ilike $1';
const STORE_MATCH =
  's.br_acct ilike $1 or s.sales_rep ilike $1 or s.store_name ilike $1 or s.doing_business_as ilike $1';

/**
 * Free text, as a walk over customers in sort order: every (customer, store) row where the customer or the
 * store matches — the same rows as hitsSql's union (a customer matching itself brings all its stores, or its
 * one store-less row). With ORDER BY lower(legal_name) or c.id and LIMIT, the planner walks
 * customers_legal_name_sort_idx / customers_pkey and stops after the page (Limit → Incremental Sort → Nested
 * Loop), so a frequent term costs a page, not all its matches. Used when the capped count says the term is
 * frequent; a rare term keeps the trigram indexes (hitsSql).
 */
const WALK_FROM = `from customers c left join stores s on s.customer_id = c.id
  where ${CUSTOMER_MATCH} or ${STORE_MATCH}`;

/**
 * The capped count of a search: at most SEARCH_TOTAL_CAP + 1 rows are read. The free text is counted as two
 * disjoint parts with UNION ALL — rows whose store matches; rows whose customer matches and whose store does not
 * (or the store-less row) — because a UNION would first collect every match to remove duplicates. Each part has
 * its own LIMIT so that it is planned to stop early (a scan that quits after the cap rather than a bitmap of every
 * match), and the customer part joins its stores LATERAL (an index lookup per customer, never a hash of all of them).
 */
export function cappedCountSql(q: Pick<CustomerSearchQuery, 'kind' | 'value'>): { text: string; params: unknown[] } {
  const { text, params } = hitsSql(q);
  const cap = SEARCH_TOTAL_CAP + 1;
  const inner =
    q.kind === 'search'
      ? `(select 1 from stores s where ${STORE_MATCH} limit ${cap})
         union all
         (select 1 from customers c
          cross join lateral (
            select 1 from stores s where s.customer_id = c.id and not coalesce(${STORE_MATCH}, false)
            union all
            select 1 where not exists (select 1 from stores s where s.customer_id = c.id)
          ) own
          where ${CUSTOMER_MATCH}
          limit ${cap})`
      : text;
  return { text: `select count(*)::int as n from (${inner} limit ${cap}) h`, params };
}

/** Sort keys that are never null (customers.id, customers.legal_name NOT NULL). */
const NEVER_NULL_SORTS: ReadonlySet<CustomerSearchSortField> = new Set(['legal_name', 'customer_id']);

/** Sorts the walk serves from an index (others are correct but read every match: decision 107). */
const WALK_SORTS: ReadonlySet<CustomerSearchSortField> = new Set(['legal_name', 'customer_id']);

/** One page of a search as SQL: `hits` (the union above, sorted in memory) or `walk` (WALK_FROM in index order). */
export function searchPageSql(
  q: Pick<CustomerSearchQuery, 'kind' | 'value' | 'sort'>,
  page: { limit: number; offset: number },
  plan: 'hits' | 'walk',
): { text: string; params: unknown[] } {
  const hits = hitsSql(q);
  const sort = parseSort(q.sort, 'legal_name');
  // `nulls last` only where a null can occur: on a never-null key it would keep a descending sort off the index.
  const nulls = NEVER_NULL_SORTS.has(sort.field) ? '' : ' nulls last';
  const order = `${SORT_SQL[sort.field]} ${sort.desc ? 'desc' : 'asc'}${nulls}, c.id, s.id nulls first`;
  const n = hits.params.length;
  const from = plan === 'walk' ? `select ${ROW_COLUMNS} ${WALK_FROM}` : `with hits as (${hits.text}) ${ROW_SELECT}`;
  return {
    text: `${from} order by ${order} limit $${n + 1} offset $${n + 2}`,
    params: [...hits.params, page.limit, page.offset],
  };
}

function searchPage(
  ctx: ServiceCtx,
  q: Pick<CustomerSearchQuery, 'kind' | 'value' | 'sort'>,
  page: { limit: number; offset: number },
  plan: 'hits' | 'walk' = 'hits',
): Promise<CustomerSearchRecord[]> {
  const { text, params } = searchPageSql(q, page, plan);
  return ctx.app.database.query<CustomerSearchRecord>(text, params);
}

/**
 * GET /api/customers/{token}/all: one page of matching store rows and the count of matches, exact up to
 * SEARCH_TOTAL_CAP (`total_capped: true` beyond). The count runs first: a free-text term with more matches than
 * the cap is paged by the walk over customers (stops after the page), one with fewer by the trigram indexes
 * (all matches, at most the cap, sorted in memory).
 */
export async function searchCustomers(ctx: ServiceCtx, q: CustomerSearchQuery): Promise<CustomerSearchResult> {
  const count = cappedCountSql(q);
  const [row] = await ctx.app.database.query<{ n: number }>(count.text, count.params);
  const n = row?.n ?? 0;
  const capped = n > SEARCH_TOTAL_CAP;
  const sortField = parseSort(q.sort, 'legal_name').field;
  const plan = capped && q.kind === 'search' && WALK_SORTS.has(sortField) ? 'walk' : 'hits';
  const items = n === 0 ? [] : await searchPage(ctx, q, q, plan);
  return { items, total: Math.min(n, SEARCH_TOTAL_CAP), total_capped: capped };
}

/** The CSV download of ALL matching rows (decision 050), in the search's sort order. */
export function searchCustomersCsv(ctx: ServiceCtx, q: CustomerSearchQuery): Readable {
  return csvStream(CUSTOMER_SEARCH_CSV_COLUMNS, (limit, offset) => searchPage(ctx, q, { limit, offset }));
}
