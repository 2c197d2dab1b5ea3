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
import {
  ALL_RECORDS,
  agentScopeOfViewer,
  viewerOf,
  visibleCustomersSqlText,
  visibleStoresSqlText,
  type Viewer,
} from '../../access';
import type { ServiceCtx } from '../../context';
import { csvStream } from '../../lib/csv-stream';
import { searchTextPattern } from '../../lib/sql-like';

/**
 * ORDER BY expression of each sortable column (text compared case-insensitively). `h` is the row's
 * (customer_id, store_id) pair; `c` and `s` its customer and store.
 */
const SORT_SQL: Readonly<Record<CustomerSearchSortField, string>> = {
  customer_id: 'h.customer_id',
  legal_name: 'lower(c.legal_name)',
  doing_business_as: 'lower(s.doing_business_as)',
  store_id: 'h.store_id',
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

/** Sort keys that are never null (a customer id, customers.legal_name NOT NULL). */
const NEVER_NULL_SORTS: ReadonlySet<CustomerSearchSortField> = new Set(['legal_name', 'customer_id']);

/**
 * The free-text conditions ($1 = `%term%`, lower-cased and LIKE-escaped): the generated `search_text` of a
 * customer (legal name, e-mail, federal tax id) and of a store (bracct, sales rep, store name, DBA), decision 111 —
 * one `like` per row and one trigram index per table.
 */
const CUSTOMER_MATCH = 'c.search_text like $1';
const STORE_MATCH = 's.search_text like $1';

/**
 * ALL the (store_id, customer_id) pairs a search matches, as SQL with its parameters (the CSV export, and the
 * reference the tests compare with). One row per store; a customer without stores gives one row with a null
 * store_id; a customer whose own fields match brings all its stores.
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
        text: `select s.id as store_id, s.customer_id from stores s where ${STORE_MATCH}
               union
               select s.id as store_id, c.id as customer_id from customers c left join stores s on s.customer_id = c.id
               where ${CUSTOMER_MATCH}`,
        params: [searchTextPattern(q.value)],
      };
  }
}

/**
 * The `hits` of one page of the list (decision 111): at most SEARCH_TOTAL_CAP + 1 matches are read, whatever the
 * term. Free text takes the first 1,001 stores whose fields match (`sh`), then — only as many as are still missing —
 * the customers whose own fields match (`ch`, each with all its stores). Each part is a LIMIT over one scan
 * (sequential for a frequent term, which stops after ~1,001 matches; bitmap over the trigram index for a rare one),
 * so the cost is bounded by the cap, not by how many rows match or where they sit in any order. When the term
 * matches more than the cap, the list is "the first 1,000 matches found" (total_capped) — the screen says so and
 * asks for a narrower term; with fewer, the set is every match and the count is exact.
 */
export function boundedHitsCtes(
  q: Pick<CustomerSearchQuery, 'kind' | 'value'>,
  viewer: Viewer = ALL_RECORDS,
): { text: string; params: unknown[] } {
  const cap = SEARCH_TOTAL_CAP + 1;
  if (q.kind !== 'search') {
    const { text, params } = hitsSql(q);
    return scoped({ text: `hits as (${text})`, params }, viewer);
  }
  // Every join here is LATERAL with `offset 0` (no pull-up): the planner cannot know how few rows the LIMITs
  // leave and would otherwise hash whole tables; a nested loop of primary-key / customer-index probes is what
  // at most ~1,001 rows need.
  return scoped(
    {
      text: `sh as (select s.id as store_id, s.customer_id from stores s where ${STORE_MATCH} limit ${cap}),
      ch as (select c.id from customers c where (select count(*) from sh) < ${cap} and ${CUSTOMER_MATCH} limit ${cap}),
      hits as (select store_id, customer_id from sh
               union
               select s.store_id, ch.id as customer_id from ch
               left join lateral (select s.id as store_id from stores s where s.customer_id = ch.id offset 0) s on true)`,
      params: [searchTextPattern(q.value)],
    },
    viewer,
  );
}

/**
 * The hits an agent-scoped session may see (decision 140): its stores, and its customers without a store. The CTE
 * `hits` is renamed and filtered; for everyone else the text is unchanged.
 */
function scoped(hits: { text: string; params: unknown[] }, viewer: Viewer): { text: string; params: unknown[] } {
  const params = [...hits.params];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const stores = visibleStoresSqlText(viewer, 'h.store_id', bind);
  if (stores === null) return hits;
  const customers = visibleCustomersSqlText(viewer, 'h.customer_id', bind)!;
  const text = hits.text.replace(/(^|, *\n? *)hits as \(/, '$1all_hits as (');
  return {
    text: `${text},
      hits as (select * from all_hits h where case when h.store_id is null then ${customers} else ${stores} end)`,
    params,
  };
}

/**
 * One page as SQL, with the number of hits (`n`) on every row. `bounded`: the page of the list, over the
 * capped hits — past the cap, the 1,000 of them with the lowest (customer id, store id), so that every sort orders
 * the same rows; otherwise every match (CSV).
 * The sort runs over the pairs joined to what the sort key needs (a left join to stores whose columns are unused
 * is removed by the planner), and only the page's rows are joined for their columns.
 */
export function searchPageSql(
  q: Pick<CustomerSearchQuery, 'kind' | 'value' | 'sort'>,
  page: { limit: number; offset: number },
  bounded = true,
  viewer: Viewer = ALL_RECORDS,
): { text: string; params: unknown[] } {
  const hits = bounded
    ? boundedHitsCtes(q, viewer)
    : scoped((({ text, params }) => ({ text: `hits as (${text})`, params }))(hitsSql(q)), viewer);
  const sort = parseSort(q.sort, 'legal_name');
  const nulls = NEVER_NULL_SORTS.has(sort.field) ? '' : ' nulls last';
  const order = `${SORT_SQL[sort.field]} ${sort.desc ? 'desc' : 'asc'}${nulls}, h.customer_id, h.store_id nulls first`;
  const n = hits.params.length;
  // The store is joined for the sort only when the sort key reads it.
  const needsStore = /\bs\./.test(SORT_SQL[sort.field]);
  // Past the cap, the list is the same 1,000 whatever the sort: the lowest (customer, store) ids among the hits.
  const shown = bounded
    ? `shown as (select customer_id, store_id from hits order by customer_id, store_id nulls first limit ${SEARCH_TOTAL_CAP})`
    : 'shown as (select customer_id, store_id from hits)';
  return {
    text: `with ${hits.text}, ${shown},
      page as (select h.customer_id, h.store_id from shown h
               cross join lateral (select * from customers c where c.id = h.customer_id offset 0) c
               ${needsStore ? 'left join lateral (select * from stores s where s.id = h.store_id offset 0) s on true' : ''}
               order by ${order} limit $${n + 1} offset $${n + 2})
      select ${ROW_COLUMNS}, (select count(*) from hits)::int as n
      from page h join customers c on c.id = h.customer_id left join stores s on s.id = h.store_id
      order by ${order}`,
    params: [...hits.params, page.limit, page.offset],
  };
}

/** How many hits the list has (at most SEARCH_TOTAL_CAP + 1): only for a page past the end, which has no rows. */
export function boundedCountSql(
  q: Pick<CustomerSearchQuery, 'kind' | 'value'>,
  viewer: Viewer = ALL_RECORDS,
): { text: string; params: unknown[] } {
  const hits = boundedHitsCtes(q, viewer);
  return { text: `with ${hits.text} select count(*)::int as n from hits`, params: hits.params };
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

async function searchPage(
  ctx: ServiceCtx,
  q: Pick<CustomerSearchQuery, 'kind' | 'value' | 'sort'>,
  page: { limit: number; offset: number },
  bounded = true,
): Promise<{ items: CustomerSearchRecord[]; n: number | null }> {
  const viewer = viewerOf(ctx);
  const { text, params } = searchPageSql(q, page, bounded, viewer);
  // An id look-up's plan never depends on the value: kept prepared per connection (its text is one per kind, sort
  // and bounded). Free text is planned for each term (a frequent one scans, a rare one uses the trigram index).
  // An agent-scoped search binds the agent too: planned each time.
  const prepared =
    q.kind === 'search' || agentScopeOfViewer(viewer).kind !== 'all'
      ? undefined
      : `customer-search:${q.kind}:${q.sort ?? ''}:${bounded ? 'page' : 'all'}`;
  const rows = await ctx.app.database.query<CustomerSearchRecord & { n: number }>(
    text,
    params,
    prepared ? { prepared } : {},
  );
  return { items: rows.map(({ n: _n, ...row }) => row), n: rows[0]?.n ?? null };
}

/**
 * GET /api/customers/{token}/all: one page of matching store rows and the number of matches, exact up to
 * SEARCH_TOTAL_CAP (`total_capped: true` beyond, the list then being the first 1,000 found): one statement
 * (decision 111); a second, the bounded count, only for a page past the last.
 */
export async function searchCustomers(ctx: ServiceCtx, q: CustomerSearchQuery): Promise<CustomerSearchResult> {
  const { items, n: onPage } = await searchPage(ctx, q, q);
  let n = onPage;
  if (n === null) {
    if (q.offset === 0) n = 0;
    else {
      const count = boundedCountSql(q, viewerOf(ctx));
      const [row] = await ctx.app.database.query<{ n: number }>(count.text, count.params);
      n = row?.n ?? 0;
    }
  }
  return { items, total: Math.min(n, SEARCH_TOTAL_CAP), total_capped: n > SEARCH_TOTAL_CAP };
}

/** The CSV download of ALL matching rows (decision 050), in the search's sort order. */
export function searchCustomersCsv(ctx: ServiceCtx, q: CustomerSearchQuery): Readable {
  return csvStream(
    CUSTOMER_SEARCH_CSV_COLUMNS,
    async (limit, offset) => (await searchPage(ctx, q, { limit, offset }, false)).items,
  );
}
