import type { Readable } from 'node:stream';
import {
  CURRENCY_CODES,
  ORDER_FLOW_LABELS,
  ORDER_REPORT_CHANNEL_LABELS,
  ORDER_REPORT_CHANNELS,
  ORDER_STATUS_CODES,
  ORDERS_REPORT_CSV_COLUMNS,
  ORDERS_REPORT_DEFAULT_DAYS,
  ORDERS_REPORT_FIGURE_CSV_COLUMNS,
  REP_CUSTOMERS_CSV_COLUMNS,
  REP_HISTORY_CSV_COLUMNS,
  SALES_HISTORY_MONTHS,
  SALES_REPORT_CSV_COLUMNS,
  SALES_REPORT_DEFAULT_MONTHS,
  isOrderFlow,
  parseSort,
  ORDERS_REPORT_DEFAULT_SORT,
  monthIndex,
  orderStatusLabel,
  type CurrencyCode,
  type OrderReportChannel,
  type OrdersReport,
  type OrdersReportFigure,
  type OrdersReportFigureCsvRow,
  type OrdersReportItem,
  type OrdersReportList,
  type OrdersReportListQuery,
  type OrdersReportQuery,
  type RepCustomerItem,
  type RepCustomerList,
  type RepCustomersQuery,
  type RepSalesHistory,
  type SalesReport,
  type SalesReportCsvRow,
  type SalesReportQuery,
  type SalesReportRow,
} from '@pos/domain';
import { and, asc, count, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { billableStoreWhere } from '../../db/billable-stores.sql';
import type { Db } from '../../db/client';
import { agents, customers, orders, salesHistory, salesPersons } from '../../db/schema';
import { notFound } from '../../http/errors';
import { csvStream } from '../../lib/csv-stream';
import { visibleOrdersWhere } from '../orders';

/*
 * The orders and sales reports (issue 18 parts 1 and 3, decision 129). Reads only; every figure is a GROUP BY in
 * the database, per currency (USD and CAD are never added together).
 */

const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const iso = (d: Date | string) => new Date(d).toISOString();
const isCurrency = (c: string): c is CurrencyCode => (CURRENCY_CODES as readonly string[]).includes(c);
const asCurrency = (c: string) => (isCurrency(c) ? c : 'USD') as CurrencyCode;

// ── Orders by status, flow and sales channel ─────────────────────────────────────────────────────────

/**
 * The sales channel of an order: stored on it (decision 138) — its agent's, else its store's sales person's, else its
 * customer's sales person's, else 'none', as they were when the order was last linked to them.
 */
const channelOf = orders.salesChannel;

/** The report's range with the defaults filled in: the last 365 days up to today. */
function dayRange(ctx: ServiceCtx, q: { from?: string; to?: string }) {
  const today = isoDay(ctx.app.clock.now());
  const to = q.to ?? today;
  const from = q.from ?? isoDay(new Date(Date.parse(to) - (ORDERS_REPORT_DEFAULT_DAYS - 1) * DAY));
  return { from, to };
}

/** The WHERE of the report, its drill-down list and their CSVs; never a test or demo store's order (decision 149). */
function ordersWhere(ctx: ServiceCtx, q: OrdersReportQuery & Partial<OrdersReportListQuery>): SQL {
  const { from, to } = dayRange(ctx, q);
  const day = q.date_basis === 'submitted' ? orders.submittedAt : orders.orderDate;
  return and(
    // The one order access rule (decision 102): an agent-scoped caller counts and lists only its agent's orders.
    visibleOrdersWhere(ctx.session),
    billableStoreWhere(orders.storeId),
    gte(day, new Date(`${from}T00:00:00Z`)),
    lt(day, new Date(Date.parse(`${to}T00:00:00Z`) + DAY)),
    q.country === undefined ? undefined : eq(orders.country, q.country),
    q.currency === undefined ? undefined : eq(orders.currency, q.currency),
    q.status === undefined ? undefined : eq(orders.status, q.status),
    q.flow === undefined ? undefined : eq(orders.flow, q.flow),
    q.channel === undefined ? undefined : eq(orders.salesChannel, q.channel),
  )!;
}

/** GET /api/reports/orders/{token}: counts and amounts per status, flow and channel, each per currency. */
export async function getOrdersReport(ctx: ServiceCtx, q: OrdersReportQuery): Promise<OrdersReport> {
  const db = ctx.app.database.db;
  const rows = await db
    .select({
      byStatus: sql<number>`grouping(${orders.status})::int`,
      byFlow: sql<number>`grouping(${orders.flow})::int`,
      status: orders.status,
      flow: orders.flow,
      channel: channelOf,
      currency: orders.currency,
      n: sql<number>`count(*)::int`,
      amount: sql<string>`coalesce(sum(${orders.totalSaleCents}), 0)::text`,
    })
    .from(orders)
    .where(ordersWhere(ctx, q))
    .groupBy(
      sql`grouping sets ((${orders.status}, ${orders.currency}), (${orders.flow}, ${orders.currency}), (${orders.salesChannel}, ${orders.currency}))`,
    );

  const figure = (key: string, label: string, r: (typeof rows)[number]): OrdersReportFigure => ({
    key,
    label,
    currency: asCurrency(r.currency),
    count: Number(r.n),
    amount_cents: Number(r.amount),
  });
  const byStatus: OrdersReportFigure[] = [];
  const byFlow: OrdersReportFigure[] = [];
  const byChannel: OrdersReportFigure[] = [];
  for (const r of rows) {
    if (Number(r.byStatus) === 0)
      byStatus.push(figure(r.status, orderStatusLabel(r.status) ?? `Status ${r.status}`, r));
    else if (Number(r.byFlow) === 0)
      byFlow.push(figure(r.flow, isOrderFlow(r.flow) ? ORDER_FLOW_LABELS[r.flow] : r.flow, r));
    else {
      const channel = r.channel as OrderReportChannel;
      byChannel.push(figure(channel, ORDER_REPORT_CHANNEL_LABELS[channel] ?? channel, r));
    }
  }
  const rank = (list: readonly string[]) => (f: OrdersReportFigure) => {
    const i = list.indexOf(f.key);
    return i === -1 ? list.length : i;
  };
  const sortBy = (figures: OrdersReportFigure[], list: readonly string[]) =>
    figures.sort(
      (a, b) => rank(list)(a) - rank(list)(b) || a.key.localeCompare(b.key) || a.currency.localeCompare(b.currency),
    );
  const totals = new Map<CurrencyCode, { currency: CurrencyCode; count: number; amount_cents: number }>();
  for (const f of byStatus) {
    const t = totals.get(f.currency) ?? { currency: f.currency, count: 0, amount_cents: 0 };
    t.count += f.count;
    t.amount_cents += f.amount_cents;
    totals.set(f.currency, t);
  }
  const { from, to } = dayRange(ctx, q);
  return {
    from,
    to,
    date_basis: q.date_basis,
    by_status: sortBy(byStatus, ORDER_STATUS_CODES),
    by_flow: sortBy(byFlow, ['AR', 'RAM']),
    by_channel: sortBy(byChannel, ORDER_REPORT_CHANNELS),
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}

/** format=csv on the report: the figures table (status, flow, channel lines). */
export function ordersReportCsv(ctx: ServiceCtx, q: OrdersReportQuery): Readable {
  let report: Promise<OrdersReportFigureCsvRow[]> | undefined;
  return csvStream(ORDERS_REPORT_FIGURE_CSV_COLUMNS, async (limit, offset) => {
    report ??= getOrdersReport(ctx, q).then((r) => [
      ...r.by_status.map((f) => ({ dimension: 'status' as const, ...f })),
      ...r.by_flow.map((f) => ({ dimension: 'flow' as const, ...f })),
      ...r.by_channel.map((f) => ({ dimension: 'channel' as const, ...f })),
    ]);
    return (await report).slice(offset, offset + limit);
  });
}

/** The drill-down's order: the day or the amount, ties by order id in the same direction. */
function ordersOrder(q: OrdersReportListQuery) {
  const s = parseSort(q.sort ?? ORDERS_REPORT_DEFAULT_SORT, 'date');
  const dir = s.desc ? desc : asc;
  const day = q.date_basis === 'submitted' ? orders.submittedAt : orders.orderDate;
  return [dir(s.field === 'total_sale_cents' ? orders.totalSaleCents : day), dir(orders.id)];
}

function ordersPage(ctx: ServiceCtx, q: OrdersReportListQuery, page: { limit: number; offset: number }) {
  return ctx.app.database.db
    .select({
      id: orders.id,
      unifiedOrderId: orders.unifiedOrderId,
      status: orders.status,
      flow: orders.flow,
      channel: channelOf,
      customerId: orders.customerId,
      legalName: orders.legalName,
      dbaName: orders.dbaName,
      salesRep: orders.salesRep,
      country: orders.country,
      currency: orders.currency,
      totalSaleCents: orders.totalSaleCents,
      orderDate: orders.orderDate,
      submittedAt: orders.submittedAt,
    })
    .from(orders)
    .where(ordersWhere(ctx, q))
    .orderBy(...ordersOrder(q))
    .limit(page.limit)
    .offset(page.offset);
}

function toOrderItem(r: Awaited<ReturnType<typeof ordersPage>>[number]): OrdersReportItem {
  return {
    order_id: r.id,
    unified_order_id: r.unifiedOrderId,
    status: r.status,
    status_label: orderStatusLabel(r.status) ?? `Status ${r.status}`,
    flow: r.flow,
    channel: r.channel as OrderReportChannel,
    customer_id: r.customerId,
    legal_name: r.legalName,
    dba_name: r.dbaName,
    sales_rep: r.salesRep,
    country: r.country,
    currency: asCurrency(r.currency),
    total_sale_cents: r.totalSaleCents,
    order_date: iso(r.orderDate),
    submitted_at: r.submittedAt === null ? null : iso(r.submittedAt),
  };
}

/** GET /api/reports/orders/list/{token}: the orders behind a figure, newest first. */
export async function listReportOrders(ctx: ServiceCtx, q: OrdersReportListQuery): Promise<OrdersReportList> {
  const items = (await ordersPage(ctx, q, q)).map(toOrderItem);
  if (q.offset === 0 && items.length < q.limit) return { items, total: items.length };
  const [n] = await ctx.app.database.db.select({ n: count() }).from(orders).where(ordersWhere(ctx, q));
  return { items, total: Number(n?.n ?? 0) };
}

/** format=csv on the list: every order the filters match, newest first, streamed page by page. */
export function listReportOrdersCsv(ctx: ServiceCtx, q: OrdersReportListQuery): Readable {
  return csvStream(ORDERS_REPORT_CSV_COLUMNS, async (limit, offset) =>
    (await ordersPage(ctx, q, { limit, offset })).map(toOrderItem),
  );
}

// ── Sales by rep and by agent (sales_history) ─────────────────────────────────────────────────────────

const monthStart = (index: number) => {
  const year = Math.floor(index / 12);
  return `${String(year).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
};
const monthsBetween = (from: string, to: string) => {
  const out: string[] = [];
  for (let i = monthIndex(from); i <= monthIndex(to); i++) out.push(monthStart(i));
  return out;
};
const monthOf = sql<string>`to_char(${salesHistory.periodMonth}, 'YYYY-MM-01')`;

/** The sales report's months: the given range, else the last 12 months up to this one. */
function monthRange(ctx: ServiceCtx, q: { from_month?: string; to_month?: string }) {
  const now = ctx.app.clock.now();
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const to = q.to_month === undefined ? current : monthIndex(q.to_month);
  const from = q.from_month === undefined ? to - (SALES_REPORT_DEFAULT_MONTHS - 1) : monthIndex(q.from_month);
  return { from: monthStart(from), to: monthStart(to) };
}

/** What a row of the report is: a sales person, or an agent (the agent of the sale's sales person). */
function grouping(group: SalesReportQuery['group']) {
  return group === 'rep'
    ? {
        key: sql<number | null>`${salesHistory.salesPersonId}`,
        name: sql<string>`max(${salesPersons.name})`,
        channel: sql<string | null>`max(${salesPersons.salesChannel})`,
      }
    : {
        key: sql<number | null>`${salesPersons.agentId}`,
        name: sql<string>`coalesce(max(${agents.name}), 'No agent')`,
        channel: sql<string | null>`max(${agents.salesChannel})`,
      };
}

/** The sales the report counts: never a test or demo store's (decision 149). */
function salesWhere(q: SalesReportQuery, range: { from: string; to: string }, keys?: SQL): SQL {
  return and(
    billableStoreWhere(salesHistory.storeId),
    gte(salesHistory.periodMonth, range.from),
    lte(salesHistory.periodMonth, range.to),
    q.currency === undefined ? undefined : eq(salesHistory.currency, q.currency),
    keys,
  )!;
}

/** GET /api/reports/sales/{token}: per sales person (or agent) and currency, the range's months; largest first. */
export async function getSalesReport(ctx: ServiceCtx, q: SalesReportQuery): Promise<SalesReport> {
  const db = ctx.app.database.db;
  const range = monthRange(ctx, q);
  const g = grouping(q.group);
  const amount = sql<string>`sum(${salesHistory.amountCents})`;
  const where = salesWhere(q, range);

  const page = await db
    .select({
      id: g.key,
      name: g.name,
      channel: g.channel,
      currency: salesHistory.currency,
      units: sql<number>`sum(${salesHistory.units})::int`,
      amount: sql<string>`${amount}::text`,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(salesHistory)
    .innerJoin(salesPersons, eq(salesPersons.id, salesHistory.salesPersonId))
    .leftJoin(agents, eq(agents.id, salesPersons.agentId))
    .where(where)
    .groupBy(g.key, salesHistory.currency)
    .orderBy(desc(amount), sql`${g.key} nulls last`, asc(salesHistory.currency))
    .limit(q.limit)
    .offset(q.offset);

  let total = page[0]?.total ?? 0;
  if (page.length === 0 && q.offset > 0) {
    const groups = db
      .select({ one: sql`1` })
      .from(salesHistory)
      .innerJoin(salesPersons, eq(salesPersons.id, salesHistory.salesPersonId))
      .leftJoin(agents, eq(agents.id, salesPersons.agentId))
      .where(where)
      .groupBy(g.key, salesHistory.currency)
      .as('groups');
    const [n] = await db.select({ n: count() }).from(groups);
    total = Number(n?.n ?? 0);
  }

  const months = monthsBetween(range.from, range.to);
  const ids = [...new Set(page.map((r) => r.id))];
  const nonNull = ids.filter((id): id is number => id !== null);
  const keyFilter =
    ids.length === 0
      ? sql`false`
      : sql`(${nonNull.length > 0 ? inArray(g.key, nonNull) : sql`false`} or ${ids.includes(null) ? sql`${g.key} is null` : sql`false`})`;
  const pageMonths =
    page.length === 0
      ? []
      : await db
          .select({
            id: g.key,
            currency: salesHistory.currency,
            month: monthOf,
            units: sql<number>`sum(${salesHistory.units})::int`,
            amount: sql<string>`sum(${salesHistory.amountCents})::text`,
          })
          .from(salesHistory)
          .innerJoin(salesPersons, eq(salesPersons.id, salesHistory.salesPersonId))
          .leftJoin(agents, eq(agents.id, salesPersons.agentId))
          .where(salesWhere(q, range, keyFilter))
          .groupBy(g.key, salesHistory.currency, salesHistory.periodMonth);
  const cell = new Map(pageMonths.map((m) => [`${m.id}|${m.currency}|${m.month}`, m]));
  const rows: SalesReportRow[] = page.map((r) => ({
    id: r.id === null ? null : Number(r.id),
    name: r.name,
    sales_channel: r.channel,
    currency: asCurrency(r.currency),
    units: Number(r.units),
    amount_cents: Number(r.amount),
    months: months.map((month) => {
      const m = cell.get(`${r.id}|${r.currency}|${month}`);
      return { period_month: month, units: Number(m?.units ?? 0), amount_cents: Number(m?.amount ?? 0) };
    }),
  }));

  const monthTotals = await db
    .select({
      currency: salesHistory.currency,
      month: monthOf,
      units: sql<number>`sum(${salesHistory.units})::int`,
      amount: sql<string>`sum(${salesHistory.amountCents})::text`,
    })
    .from(salesHistory)
    .where(where)
    .groupBy(salesHistory.currency, salesHistory.periodMonth);
  const currencies = [...new Set(monthTotals.map((m) => m.currency))].sort();
  const byKey = new Map(monthTotals.map((m) => [`${m.currency}|${m.month}`, m]));
  const month_totals = currencies.flatMap((currency) =>
    months.map((month) => {
      const m = byKey.get(`${currency}|${month}`);
      return {
        period_month: month,
        currency: asCurrency(currency),
        units: Number(m?.units ?? 0),
        amount_cents: Number(m?.amount ?? 0),
      };
    }),
  );
  return {
    group: q.group,
    from_month: range.from,
    to_month: range.to,
    months,
    month_totals,
    rows,
    total,
    totals: currencyTotals(month_totals),
  };
}

function currencyTotals(figures: readonly { currency: CurrencyCode; units: number; amount_cents: number }[]) {
  const totals = new Map<CurrencyCode, { currency: CurrencyCode; units: number; amount_cents: number }>();
  for (const f of figures) {
    const t = totals.get(f.currency) ?? { currency: f.currency, units: 0, amount_cents: 0 };
    t.units += f.units;
    t.amount_cents += f.amount_cents;
    totals.set(f.currency, t);
  }
  return [...totals.values()];
}

/** format=csv: one line per sales person (agent), currency and month with sales; every one, streamed. */
export function getSalesReportCsv(ctx: ServiceCtx, q: SalesReportQuery): Readable {
  const db = ctx.app.database.db;
  const range = monthRange(ctx, q);
  const g = grouping(q.group);
  return csvStream(SALES_REPORT_CSV_COLUMNS, async (limit, offset): Promise<SalesReportCsvRow[]> => {
    const rows = await db
      .select({
        id: g.key,
        name: g.name,
        channel: g.channel,
        currency: salesHistory.currency,
        month: monthOf,
        units: sql<number>`sum(${salesHistory.units})::int`,
        amount: sql<string>`sum(${salesHistory.amountCents})::text`,
      })
      .from(salesHistory)
      .innerJoin(salesPersons, eq(salesPersons.id, salesHistory.salesPersonId))
      .leftJoin(agents, eq(agents.id, salesPersons.agentId))
      .where(salesWhere(q, range))
      .groupBy(g.key, salesHistory.currency, salesHistory.periodMonth)
      .orderBy(sql`${g.key} nulls last`, asc(salesHistory.currency), asc(salesHistory.periodMonth))
      .limit(limit)
      .offset(offset);
    return rows.map((r) => ({
      id: r.id === null ? null : Number(r.id),
      name: r.name,
      sales_channel: r.channel,
      currency: r.currency,
      period_month: r.month,
      units: Number(r.units),
      amount_cents: Number(r.amount),
    }));
  });
}

// ── One sales person ─────────────────────────────────────────────────────────────────────────────────

/**
 * One sales person's sales per month and currency, `from`..`to` (walks sales_history_sales_person_idx); a test or
 * demo store's sales left out (decision 149).
 */
export function repMonthsQuery(db: Db, id: number, from: string, to: string) {
  return db
    .select({
      currency: salesHistory.currency,
      month: monthOf,
      units: sql<number>`sum(${salesHistory.units})::int`,
      amount: sql<string>`sum(${salesHistory.amountCents})::text`,
    })
    .from(salesHistory)
    .where(
      and(
        eq(salesHistory.salesPersonId, id),
        gte(salesHistory.periodMonth, from),
        lte(salesHistory.periodMonth, to),
        billableStoreWhere(salesHistory.storeId),
      ),
    )
    .groupBy(salesHistory.currency, salesHistory.periodMonth);
}

/**
 * GET /api/reports/sales/reps/{id}/{token}: the sales person's record and the last 24 months (the same window as
 * a customer's sales history), per currency, every month listed (zero when nothing sold).
 */
export async function getRepSalesHistory(ctx: ServiceCtx, id: number): Promise<RepSalesHistory> {
  const db = ctx.app.database.db;
  const [row] = await db
    .select({ sp: salesPersons, agentName: agents.name })
    .from(salesPersons)
    .leftJoin(agents, eq(agents.id, salesPersons.agentId))
    .where(eq(salesPersons.id, id));
  if (!row) throw notFound(`Sales person ${id}`);
  const [n] = await db.select({ n: count() }).from(customers).where(eq(customers.salesPersonId, id));
  const now = ctx.app.clock.now();
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const from = monthStart(current - (SALES_HISTORY_MONTHS - 1));
  const to = monthStart(current);
  const found = await repMonthsQuery(db, id, from, to);
  const currencies = found.length === 0 ? ['USD'] : [...new Set(found.map((f) => f.currency))].sort();
  const byKey = new Map(found.map((f) => [`${f.currency}|${f.month}`, f]));
  const months = monthsBetween(from, to).flatMap((month) =>
    currencies.map((currency) => {
      const f = byKey.get(`${currency}|${month}`);
      return {
        period_month: month,
        currency: asCurrency(currency),
        units: Number(f?.units ?? 0),
        amount_cents: Number(f?.amount ?? 0),
      };
    }),
  );
  const sp = row.sp;
  return {
    sales_person: {
      id: sp.id,
      name: sp.name,
      email: sp.email,
      phone: sp.phone,
      sales_channel: sp.salesChannel,
      agent_id: sp.agentId,
      agent_name: row.agentName ?? null,
      active: sp.active,
      customers: Number(n?.n ?? 0),
    },
    from_month: from,
    to_month: to,
    months,
    totals: currencyTotals(months),
  };
}

export async function getRepSalesHistoryCsv(ctx: ServiceCtx, id: number): Promise<Readable> {
  const history = await getRepSalesHistory(ctx, id);
  return csvStream(REP_HISTORY_CSV_COLUMNS, async (limit, offset) => history.months.slice(offset, offset + limit));
}

async function requireRep(db: Db, id: number) {
  const [row] = await db.select({ id: salesPersons.id }).from(salesPersons).where(eq(salesPersons.id, id));
  if (!row) throw notFound(`Sales person ${id}`);
}

function repCustomersPage(
  db: Db,
  id: number,
  page: { limit: number; offset: number; sort?: RepCustomersQuery['sort'] },
) {
  const s = parseSort(page.sort, 'legal_name');
  const dir = s.desc ? desc : asc;
  return db
    .select({
      id: customers.id,
      legalName: customers.legalName,
      country: customers.country,
      currency: customers.currency,
      status: customers.status,
    })
    .from(customers)
    .where(eq(customers.salesPersonId, id))
    .orderBy(...(s.field === 'customer_id' ? [dir(customers.id)] : [dir(customers.legalName), dir(customers.id)]))
    .limit(page.limit)
    .offset(page.offset);
}
const toRepCustomer = (r: Awaited<ReturnType<typeof repCustomersPage>>[number]): RepCustomerItem => ({
  customer_id: r.id,
  legal_name: r.legalName,
  country: r.country,
  currency: asCurrency(r.currency),
  status: r.status,
});

/** GET /api/reports/sales/reps/{id}/customers/{token}: the rep's customers by legal name. */
export async function listRepCustomers(ctx: ServiceCtx, id: number, q: RepCustomersQuery): Promise<RepCustomerList> {
  const db = ctx.app.database.db;
  await requireRep(db, id);
  const items = (await repCustomersPage(db, id, q)).map(toRepCustomer);
  if (q.offset === 0 && items.length < q.limit) return { items, total: items.length };
  const [n] = await db.select({ n: count() }).from(customers).where(eq(customers.salesPersonId, id));
  return { items, total: Number(n?.n ?? 0) };
}

export async function listRepCustomersCsv(ctx: ServiceCtx, id: number, q: RepCustomersQuery): Promise<Readable> {
  const db = ctx.app.database.db;
  await requireRep(db, id);
  return csvStream(REP_CUSTOMERS_CSV_COLUMNS, async (limit, offset) =>
    (await repCustomersPage(db, id, { limit, offset, sort: q.sort })).map(toRepCustomer),
  );
}
