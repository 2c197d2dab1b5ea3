import { type Readable } from 'node:stream';
import {
  ORDER_SEARCH_CSV_COLUMNS,
  orderStatusLabel,
  parseSort,
  startStatusForRole,
  type OrderSearchQuery,
  type OrderSearchRecord,
  type OrderSearchResult,
  type OrderSearchSortField,
  type OrderStatusCode,
} from '@pos/domain';
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { cappedCount } from '../../db/capped-count';
import { agents, orders } from '../../db/schema';
import type { SessionContext } from '../../http/session';
import { csvStream } from '../../lib/csv-stream';
import { loadVisibleOrder, visibleOrdersWhere } from '../../access';
import { escapeLike } from '../../lib/sql-like';

/** ORDER BY expression of each sortable column (text compared case-insensitively). */
const SORT_SQL: Readonly<Record<OrderSearchSortField, SQL>> = {
  id: sql`${orders.id}`,
  unified_order_id: sql`${orders.unifiedOrderId}`,
  status: sql`${orders.status}::int`,
  legal_name: sql`lower(${orders.legalName})`,
  dba_name: sql`lower(${orders.dbaName})`,
  sales_rep: sql`lower(${orders.salesRep})`,
  order_date: sql`${orders.orderDate}`,
  updated_at: sql`${orders.updatedAt}`,
  total_sale_cents: sql`${orders.totalSaleCents}`,
};

/**
 * Sort keys that are never null. They sort without `nulls last`, so that a descending sort can walk an index
 * backwards and stop at the page (orders_updated_at_idx, orders_status_idx; decision 107).
 */
const NEVER_NULL_SORTS: ReadonlySet<OrderSearchSortField> = new Set([
  'id',
  'unified_order_id',
  'order_date',
  'updated_at',
  'total_sale_cents',
]);

/**
 * The WHERE condition of a search (every value a bound parameter), always within the orders the session may see
 * (decision 102: its agent's own or assigned orders for an agent-scoped session, no agent → nothing).
 */
export function searchWhere(session: SessionContext, q: OrderSearchQuery): SQL | undefined {
  const like = q.q ? `%${escapeLike(q.q)}%` : null;
  return and(
    q.status ? inArray(orders.status, q.status) : undefined,
    q.mine === 'queue' ? eq(orders.status, startStatusForRole(session.role)) : undefined,
    q.flow ? eq(orders.flow, q.flow) : undefined,
    q.sales_rep ? ilike(orders.salesRep, `%${escapeLike(q.sales_rep)}%`) : undefined,
    q.agent_id !== undefined ? eq(orders.agentId, q.agent_id) : undefined,
    q.date_from ? sql`${orders.orderDate} >= ${q.date_from}::date::timestamptz` : undefined,
    q.date_to ? sql`${orders.orderDate} < (${q.date_to}::date + 1)::timestamptz` : undefined,
    like
      ? or(
          ilike(orders.legalName, like),
          ilike(orders.dbaName, like),
          ilike(orders.unifiedOrderId, like),
          ilike(orders.fedTaxId, like),
        )
      : undefined,
    visibleOrdersWhere(session),
  );
}

/** The columns of a list row (the agent's name joined). */
const ROW = {
  id: orders.id,
  unified_order_id: orders.unifiedOrderId,
  status: orders.status,
  flow: orders.flow,
  order_type: orders.orderType,
  legal_name: orders.legalName,
  dba_name: orders.dbaName,
  sales_rep: orders.salesRep,
  agent_id: orders.agentId,
  agent: agents.name,
  country: orders.country,
  currency: orders.currency,
  total_sale_cents: orders.totalSaleCents,
  order_date: orders.orderDate,
  updated_at: orders.updatedAt,
  version: orders.version,
};

/** Orders as list rows (filter, sort and page to add). */
const listRows = (ctx: ServiceCtx) =>
  ctx.app.database.db.select(ROW).from(orders).leftJoin(agents, eq(agents.id, orders.agentId));
type ListRow = Awaited<ReturnType<typeof listRows>>[number];

function listRecord(r: ListRow): OrderSearchRecord {
  return {
    ...r,
    status: r.status as OrderStatusCode,
    status_label: orderStatusLabel(r.status) ?? r.status,
    order_date: r.order_date.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

async function searchPage(ctx: ServiceCtx, q: OrderSearchQuery, page: { limit: number; offset: number }) {
  const { session } = ctx;
  const sort = parseSort(q.sort, 'updated_at');
  // Default: newest change first.
  const descending = q.sort ? sort.desc : true;
  const rows = await listRows(ctx)
    .where(searchWhere(session, q))
    .orderBy(
      sql`${SORT_SQL[sort.field]} ${descending ? sql`desc` : sql`asc`}${NEVER_NULL_SORTS.has(sort.field) ? sql`` : sql` nulls last`}`,
      descending ? desc(orders.id) : asc(orders.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(listRecord);
}

/**
 * GET /api/customers/orders/search/{token}: one page of matching orders and the count of matches, exact up to
 * SEARCH_TOTAL_CAP (`total_capped: true` beyond: the count reads at most the cap + 1 rows).
 */
export async function searchOrders(ctx: ServiceCtx, q: OrderSearchQuery): Promise<OrderSearchResult> {
  const { db } = ctx.app.database;
  const [items, total] = await Promise.all([
    searchPage(ctx, q, q),
    cappedCount(db, orders, searchWhere(ctx.session, q)),
  ]);
  return { items, ...total };
}

/** The CSV of ALL matching orders (decision 050's format), in the list's sort order. */
export function searchOrdersCsv(ctx: ServiceCtx, q: OrderSearchQuery): Readable {
  return csvStream(ORDER_SEARCH_CSV_COLUMNS, (limit, offset) => searchPage(ctx, q, { limit, offset }));
}

/**
 * GET /api/customers/orders/{orderId}/{token}: one order as a row of the list (what the order panel shows), for a
 * link to one order (#/order?id=…). 404 for an order the session may not see, as for one that does not exist.
 */
export async function getOrderRow(ctx: ServiceCtx, orderId: number): Promise<OrderSearchRecord> {
  const order = await loadVisibleOrder(ctx.app.database.db, ctx.session, { id: orderId });
  const [row] = await listRows(ctx).where(eq(orders.id, order.id));
  return listRecord(row!);
}
