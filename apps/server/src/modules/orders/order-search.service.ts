import type { Readable } from 'node:stream';
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
import type { ServiceCtx } from '../../context';
import type { SessionContext } from '../../http/session';
import { csvStream } from '../../lib/csv-stream';
import { isAgentScoped } from './orders.service';

/** ORDER BY expression of each sortable column (text compared case-insensitively). */
const SORT_SQL: Readonly<Record<OrderSearchSortField, string>> = {
  id: 'o.id',
  unified_order_id: 'o.unified_order_id',
  status: 'o.status::int',
  legal_name: 'lower(o.legal_name)',
  dba_name: 'lower(o.dba_name)',
  sales_rep: 'lower(o.sales_rep)',
  order_date: 'o.order_date',
  updated_at: 'o.updated_at',
  total_sale_cents: 'o.total_sale_cents',
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The WHERE clause of a search and its parameters (every value is a bound parameter). */
export function whereSql(session: SessionContext, q: OrderSearchQuery): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conds: string[] = [];
  if (q.status) conds.push(`o.status = any(${p(q.status)}::text[])`);
  if (q.mine === 'queue') conds.push(`o.status = ${p(startStatusForRole(session.role))}`);
  if (q.flow) conds.push(`o.flow = ${p(q.flow)}`);
  if (q.sales_rep) conds.push(`o.sales_rep ilike ${p(`%${escapeLike(q.sales_rep)}%`)}`);
  if (q.agent_id !== undefined) conds.push(`o.agent_id = ${p(q.agent_id)}`);
  if (q.date_from) conds.push(`o.order_date >= ${p(q.date_from)}::date::timestamptz`);
  if (q.date_to) conds.push(`o.order_date < (${p(q.date_to)}::date + 1)::timestamptz`);
  if (q.q) {
    const like = p(`%${escapeLike(q.q)}%`);
    conds.push(
      `(o.legal_name ilike ${like} or o.dba_name ilike ${like} or o.unified_order_id ilike ${like} or o.fed_tax_id ilike ${like})`,
    );
  }
  if (isAgentScoped(session)) {
    // Decision 079: its agent's orders only (own agent_id or assigned in agent_orders); no agent → nothing.
    const agent = p(session.agentId ?? -1);
    conds.push(
      `(o.agent_id = ${agent} or exists (select 1 from agent_orders ao where ao.order_id = o.id and ao.agent_id = ${agent}))`,
    );
  }
  return { text: conds.length > 0 ? `where ${conds.join(' and ')}` : '', params };
}

interface RawRow extends Omit<OrderSearchRecord, 'status_label' | 'order_date' | 'updated_at' | 'total_sale_cents'> {
  order_date: Date | string;
  updated_at: Date | string;
  total_sale_cents: number | string;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

async function searchPage(ctx: ServiceCtx, q: OrderSearchQuery, page: { limit: number; offset: number }) {
  const where = whereSql(ctx.session, q);
  const sort = parseSort(q.sort, 'updated_at');
  // Default: newest change first.
  const desc = q.sort ? sort.desc : true;
  const n = where.params.length;
  const rows = await ctx.app.database.query<RawRow>(
    `select o.id, o.unified_order_id, o.status, o.flow, o.order_type, o.legal_name, o.dba_name, o.sales_rep,
            o.agent_id, a.name as agent, o.country, o.currency, o.total_sale_cents::float8 as total_sale_cents,
            o.order_date, o.updated_at, o.version
     from orders o left join agents a on a.id = o.agent_id
     ${where.text}
     order by ${SORT_SQL[sort.field]} ${desc ? 'desc' : 'asc'} nulls last, o.id ${desc ? 'desc' : 'asc'}
     limit $${n + 1} offset $${n + 2}`,
    [...where.params, page.limit, page.offset],
  );
  return rows.map((r): OrderSearchRecord => ({
    ...r,
    status_label: orderStatusLabel(r.status) ?? r.status,
    status: r.status as OrderStatusCode,
    total_sale_cents: Number(r.total_sale_cents),
    order_date: iso(r.order_date),
    updated_at: iso(r.updated_at),
  }));
}

/** GET /api/customers/orders/search/{token}: one page of matching orders and the count of all matches. */
export async function searchOrders(ctx: ServiceCtx, q: OrderSearchQuery): Promise<OrderSearchResult> {
  const where = whereSql(ctx.session, q);
  const [items, [total]] = await Promise.all([
    searchPage(ctx, q, q),
    ctx.app.database.query<{ n: number }>(`select count(*)::int as n from orders o ${where.text}`, where.params),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** The CSV of ALL matching orders (decision 050's format), in the list's sort order. */
export function searchOrdersCsv(ctx: ServiceCtx, q: OrderSearchQuery): Readable {
  return csvStream(ORDER_SEARCH_CSV_COLUMNS, (limit, offset) => searchPage(ctx, q, { limit, offset }));
}
