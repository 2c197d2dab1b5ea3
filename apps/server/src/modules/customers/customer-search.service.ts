import type { Readable } from 'node:stream';
import {
  CUSTOMER_SEARCH_CSV_COLUMNS,
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

const ROW_SELECT = `
  select c.id as customer_id, c.legal_name, s.doing_business_as, s.id as store_id, s.store_name,
         coalesce(s.br_acct, c.br_acct) as bracct, s.sales_rep, c.federal_tax_id, c.email,
         coalesce(s.phone, c.phone) as phone,
         coalesce(s.country, c.country) as country, coalesce(s.currency, c.currency) as currency,
         coalesce(s.store_address->>'city', c.home_address->>'city') as city,
         coalesce(s.state, c.home_address->>'state') as state,
         coalesce(s.store_address->>'zip', c.home_address->>'zip') as zip,
         c.status as customer_status, s.status as store_status,
         coalesce(s.account_manager_username, c.account_manager_username) as account_manager
  from hits h join customers c on c.id = h.customer_id left join stores s on s.id = h.store_id`;

async function searchPage(
  ctx: ServiceCtx,
  q: Pick<CustomerSearchQuery, 'kind' | 'value' | 'sort'>,
  page: { limit: number; offset: number },
): Promise<CustomerSearchRecord[]> {
  const hits = hitsSql(q);
  const sort = parseSort(q.sort, 'legal_name');
  const order = `${SORT_SQL[sort.field]} ${sort.desc ? 'desc' : 'asc'} nulls last, c.id, s.id nulls first`;
  const n = hits.params.length;
  return ctx.app.database.query<CustomerSearchRecord>(
    `with hits as (${hits.text}) ${ROW_SELECT} order by ${order} limit $${n + 1} offset $${n + 2}`,
    [...hits.params, page.limit, page.offset],
  );
}

/** GET /api/customers/{token}/all: one page of matching store rows and the count of all matches. */
export async function searchCustomers(ctx: ServiceCtx, q: CustomerSearchQuery): Promise<CustomerSearchResult> {
  const hits = hitsSql(q);
  const [items, [total]] = await Promise.all([
    searchPage(ctx, q, q),
    ctx.app.database.query<{ n: number }>(
      `with hits as (${hits.text}) select count(*)::int as n from hits`,
      hits.params,
    ),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** The CSV download of ALL matching rows (decision 050), in the search's sort order. */
export function searchCustomersCsv(ctx: ServiceCtx, q: CustomerSearchQuery): Readable {
  return csvStream(CUSTOMER_SEARCH_CSV_COLUMNS, (limit, offset) => searchPage(ctx, q, { limit, offset }));
}
