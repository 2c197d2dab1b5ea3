import type { Readable } from 'node:stream';
import {
  CUSTOMER_LISTING_CSV_COLUMNS,
  FEES,
  LISTING_DEFAULT_SORT,
  SEARCH_TOTAL_CAP,
  centsToDecimal,
  parseSort,
  type CurrencyCode,
  type CustomerListingItem,
  type CustomerListingOptions,
  type CustomerListingQuery,
  type CustomerListingResult,
  type ListingPlanKind,
  type ListingSortField,
} from '@pos/domain';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { agents, salesPersons } from '../../db/schema';
import type { ServiceCtx } from '../../context';
import { cappedTotal } from '../../db/capped-count';
import type { Db } from '../../db/client';
import { csvStreamKeyset } from '../../lib/csv-stream';
import { visibleAgentsWhere, visibleStoresWhere } from '../agents';
import { billingToday } from '../billing';

/*
 * Customer listing (issue 18 part 2, decisions 130, 139): one row per store with its customer. Every page reads
 * `stores s join customers c join store_balances b` (every store has its balance row); a count joins the balances
 * only when a filter reads them. The store's current service plan and agents are scalar subqueries
 * (PostgreSQL evaluates them after the sort and limit unless the sort or a filter needs them), so a page reads its
 * 25 stores' invoices, not every store's — one statement per page, never one per row.
 */

const GRACE = FEES.LICENSE_EXPIRY_GRACE_PERIOD_DAYS;

/**
 * The store's open balance by the ledger: store_balances, the sum of its invoices' stored open_cents (kept by
 * ledger.syncInvoice and the invoice triggers; decisions 137, 139). Every statement joins it as `b`; sorting by it walks
 * store_balances_open_idx.
 */
const BALANCE = sql`b.open_cents`;

/** The balances' join for a count: only when a filter reads the balance (every store has a row: same count). */
const countJoin = (q: CustomerListingQuery) =>
  q.balance !== undefined || q.balance_min !== undefined || q.balance_max !== undefined
    ? sql` join store_balances b on b.store_id = s.id`
    : sql``;
/** The store's current service plan: its newest active monthly or yearly plan. */
const planOf = (column: 'kind' | 'plan_name') =>
  sql.raw(`(select p.${column} from customer_payment_plans p where p.store_id = s.id and p.status = 'active'
    and p.kind in ('monthly', 'yearly') order by p.starts_on desc, p.id desc limit 1)`);

const AGENTS = sql`(select string_agg(a.name, ', ' order by a.name) from agent_stores x join agents a on a.id = x.agent_id
  where x.store_id = s.id)`;

/**
 * The SQL twin of the domain's licenseStatus (rules/license.ts) on `today`: disabled when the store is not active;
 * active until the expiry day (or with none); grace for the §9 grace period after it; then expired.
 */
export function licenseStateSql(today: string): SQL {
  return sql`case when s.status <> 'active' then 'disabled'
    when s.license_expires_on is null or ${today}::date <= s.license_expires_on then 'active'
    when ${today}::date <= s.license_expires_on + ${GRACE}::int then 'grace'
    else 'expired' end`;
}

/** The license filter as ranges of the expiry (index-backed), equal to `licenseStateSql(today) = state`. */
function licenseWhere(state: NonNullable<CustomerListingQuery['license']>, today: string): SQL {
  switch (state) {
    case 'disabled':
      return sql`s.status <> 'active'`;
    case 'active':
      return sql`s.status = 'active' and (s.license_expires_on is null or s.license_expires_on >= ${today}::date)`;
    case 'grace':
      return sql`s.status = 'active' and s.license_expires_on < ${today}::date
        and s.license_expires_on >= ${today}::date - ${GRACE}::int`;
    case 'expired':
      return sql`s.status = 'active' and s.license_expires_on < ${today}::date - ${GRACE}::int`;
  }
}

type Viewer = ServiceCtx['session'];

/** The filters, within what the session may see (an agent-scoped session: its agents' stores; decision 124). */
export function listingWhere(viewer: Viewer, q: CustomerListingQuery, today: string): SQL {
  const parts: SQL[] = [];
  const scope = visibleStoresWhere(viewer, sql`s.id`);
  if (scope) parts.push(scope);
  if (q.status) parts.push(sql`s.status = ${q.status}`);
  if (q.country) parts.push(sql`s.country = ${q.country}`);
  if (q.state) parts.push(sql`s.state = any(${sql.param([...q.state])}::text[])`);
  if (q.sales_rep) parts.push(sql`lower(s.sales_rep) = lower(${q.sales_rep})`);
  if (q.agent_id)
    parts.push(
      sql`s.id in (select x.store_id from agent_stores x where x.agent_id = any(${sql.param([...q.agent_id])}::int[]))`,
    );
  if (q.plan === 'none')
    parts.push(sql`not exists (select 1 from customer_payment_plans p where p.store_id = s.id and p.status = 'active'
      and p.kind in ('monthly', 'yearly'))`);
  else if (q.plan) parts.push(sql`${planOf('kind')} = ${q.plan}`);
  if (q.balance === 'with') parts.push(sql`${BALANCE} > 0`);
  if (q.balance === 'without') parts.push(sql`${BALANCE} = 0`);
  if (q.balance_min !== undefined) parts.push(sql`${BALANCE} >= ${q.balance_min}`);
  if (q.balance_max !== undefined) parts.push(sql`${BALANCE} <= ${q.balance_max}`);
  if (q.license) parts.push(licenseWhere(q.license, today));
  return parts.length === 0 ? sql`true` : sql.join(parts, sql` and `);
}

/**
 * Each sort's columns (ties then by store id). The default, by customer name, is (lower(name), customer id): the
 * order of customers_legal_name_sort_idx, so a page walks that index and the customers' stores (stores_customer_idx)
 * instead of sorting every store; the state sort walks stores_country_state_idx the same way.
 */
const SORTS: Readonly<Record<ListingSortField, SQL[]>> = {
  customer: [sql`lower(c.legal_name)`, sql`c.id`],
  customer_id: [sql`s.customer_id`],
  store_id: [],
  store: [sql`lower(s.doing_business_as)`],
  state: [sql`s.country`, sql`s.state`],
  sales_rep: [sql`lower(s.sales_rep)`],
  balance: [BALANCE],
  license_expires_on: [sql`s.license_expires_on`],
};

interface ListingRow {
  customer_id: number;
  legal_name: string;
  customer_status: string;
  store_id: number;
  store_name: string;
  doing_business_as: string;
  store_status: string;
  country: string;
  state: string;
  sales_rep: string | null;
  agents: string | null;
  plan_name: string | null;
  plan_kind: string | null;
  open_balance_cents: string | number;
  currency: string;
  license_state: string;
  license_expires_on: string | null;
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** The rows of one page in the sort's order, ties by store id: by `offset`, or (store id order only) after a store id. */
async function listingRows(
  db: Db,
  viewer: Viewer,
  q: CustomerListingQuery,
  today: string,
  page: { limit: number; offset?: number; afterStoreId?: number | null },
): Promise<ListingRow[]> {
  const s = parseSort(q.sort ?? LISTING_DEFAULT_SORT, 'customer');
  const dir = sql.raw(s.desc ? 'desc' : 'asc');
  // A missing sales rep sorts first and a missing expiry last, whichever the direction.
  const nulls = sql.raw(
    s.field === 'sales_rep' ? ' nulls first' : s.field === 'license_expires_on' ? ' nulls last' : '',
  );
  const order = [...SORTS[s.field].map((e) => sql`${e} ${dir}${nulls}`), sql`s.id ${dir}`];
  const after =
    page.afterStoreId === undefined || page.afterStoreId === null
      ? sql``
      : sql` and s.id ${sql.raw(s.desc ? '<' : '>')} ${page.afterStoreId}::int`;
  const res = await db.execute(sql`
    select c.id as customer_id, c.legal_name, c.status as customer_status, s.id as store_id, s.store_name,
      s.doing_business_as, s.status as store_status, s.country, s.state, s.sales_rep, ${AGENTS} as agents,
      ${planOf('plan_name')} as plan_name, ${planOf('kind')} as plan_kind, ${BALANCE} as open_balance_cents,
      s.currency, ${licenseStateSql(today)} as license_state, s.license_expires_on::text as license_expires_on
    from stores s join customers c on c.id = s.customer_id join store_balances b on b.store_id = s.id
    where ${listingWhere(viewer, q, today)}${after}
    order by ${sql.join(order, sql`, `)}
    limit ${page.limit} offset ${page.offset ?? 0}`);
  return rowsOf<ListingRow>(res);
}

function toItem(r: ListingRow): CustomerListingItem {
  return {
    customer_id: Number(r.customer_id),
    legal_name: r.legal_name,
    customer_status: r.customer_status,
    store_id: Number(r.store_id),
    store_name: r.store_name,
    doing_business_as: r.doing_business_as,
    store_status: r.store_status,
    country: r.country,
    state: r.state,
    sales_rep: r.sales_rep,
    agents: r.agents,
    plan_name: r.plan_name,
    plan_kind: (r.plan_kind ?? 'none') as ListingPlanKind,
    open_balance_cents: Number(r.open_balance_cents),
    currency: r.currency as CurrencyCode,
    license_state: r.license_state as CustomerListingItem['license_state'],
    license_expires_on: r.license_expires_on,
  };
}

/** GET /api/reports/customer-listing/{token}: one page and the total, exact up to the cap (decision 107). */
export async function customerListing(ctx: ServiceCtx, q: CustomerListingQuery): Promise<CustomerListingResult> {
  const db = ctx.app.database.db;
  const today = billingToday(ctx.app);
  const items = (await listingRows(db, ctx.session, q, today, q)).map(toItem);
  if (q.offset === 0 && items.length < q.limit) return { items, total: items.length, total_capped: false };
  const res = await db.execute(sql`select count(*)::int as n from (select 1 from stores s${countJoin(q)}
    where ${listingWhere(ctx.session, q, today)} limit ${SEARCH_TOTAL_CAP + 1}) m`);
  return { items, ...cappedTotal(Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0)) };
}

/** The exact number of rows the filters match (the CSV's x-total-count: the export reads them all anyway). */
export async function customerListingCount(ctx: ServiceCtx, q: CustomerListingQuery): Promise<number> {
  const res = await ctx.app.database.db.execute(
    sql`select count(*)::int as n from stores s${countJoin(q)} where ${listingWhere(ctx.session, q, billingToday(ctx.app))}`,
  );
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
}

/**
 * format=csv: every row the filters match, streamed by keyset on the store id (decision 130): the primary key walks
 * a million rows in linear time, where a keyset over the list's computed orders (name of the joined customer,
 * balance) would sort what is left for every page. So the file is in store id order, whatever the list's sort.
 */
export function customerListingCsv(ctx: ServiceCtx, q: CustomerListingQuery): Readable {
  const db = ctx.app.database.db;
  const today = billingToday(ctx.app);
  type CsvRow = Record<(typeof CUSTOMER_LISTING_CSV_COLUMNS)[number], string | number | null>;
  return csvStreamKeyset<CsvRow, number>(
    CUSTOMER_LISTING_CSV_COLUMNS,
    async (after, limit) =>
      (await listingRows(db, ctx.session, { ...q, sort: 'store_id' }, today, { limit, afterStoreId: after })).map(
        (r) => {
          const item = toItem(r);
          return { ...item, open_balance: centsToDecimal(item.open_balance_cents) };
        },
      ),
    (row) => row.store_id as number,
  );
}

/** GET /api/reports/customer-listing/options/{token}: the agents (those the session may see) and sales reps to filter by. */
export async function customerListingOptions(ctx: ServiceCtx): Promise<CustomerListingOptions> {
  const db = ctx.app.database.db;
  const [agentRows, reps] = await Promise.all([
    db
      .select({ agent_id: agents.id, name: agents.name })
      .from(agents)
      .where(and(eq(agents.active, true), visibleAgentsWhere(ctx.session)))
      .orderBy(asc(agents.name), asc(agents.id)),
    db
      .selectDistinct({ name: salesPersons.name })
      .from(salesPersons)
      .where(eq(salesPersons.active, true))
      .orderBy(asc(salesPersons.name)),
  ]);
  return { agents: agentRows, sales_reps: reps.map((r) => r.name) };
}
