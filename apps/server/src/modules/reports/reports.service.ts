import type { Readable } from 'node:stream';
import {
  addDays,
  AGING_CUSTOMER_CSV_COLUMNS,
  AGING_CUSTOMER_DEFAULT_SORT,
  AGING_INVOICE_CSV_COLUMNS,
  AGING_INVOICE_DEFAULT_SORT,
  agingBucketOf,
  agingDueRange,
  FAILED_PAYMENT_REPORT_CSV_COLUMNS,
  INVOICE_TYPE_LABELS,
  parseSort,
  REPORT_DEFAULT_MONTHS,
  REVENUE_CSV_COLUMNS,
  type AgingBucket,
  type AgingCustomerRow,
  type AgingCustomerSortField,
  type AgingInvoiceRow,
  type AgingInvoiceSortField,
  type AgingInvoices,
  type AgingInvoicesQuery,
  type AgingQuery,
  type AgingReport,
  type AgingTotals,
  type CurrencyCode,
  type FailedPaymentReport,
  type FailedPaymentReportQuery,
  type FailedPaymentReportRow,
  type InvoiceType,
  type RevenueQuery,
  type RevenueReport,
  type RevenueRow,
} from '@pos/domain';
import { and, asc, desc, eq, gt, gte, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ServiceCtx } from '../../context';
import { billableStoreSql, billableStoreWhere } from '../../db/billable-stores.sql';
import type { Db } from '../../db/client';
import { customers, invoices, reportInvoiceMonthFacts, stores } from '../../db/schema';
import { fieldError } from '../../http/errors';
import { csvStream } from '../../lib/csv-stream';
import { billingToday } from '../billing';

/*
 * The AR reports (#/reports; issue 18 part 1, decisions 128, 137). Every report is SQL aggregates grouped in the
 * database over an index walk, never rows summed in Node: aging reads the open invoices' stored ledger figure
 * (invoices.open_cents, kept by ledger.syncInvoice and proved by the ledger check) through the covering index
 * invoices_open_aging_idx; revenue sums the month facts (report_invoice_month_facts) and failed payments the
 * charge facts (report_charge_facts) — running sums kept by triggers (migration 0024) — plus the failed invoices
 * by their first failure (invoices_first_failed_idx). USD and CAD are never summed together: every GROUP BY has the
 * currency. Test and demo stores (decision 149) count nowhere: aging and the failed invoices leave their invoices out
 * (billableStoreWhere: an anti-probe of the few test and demo stores beside the index walk), and the facts never take
 * them in (their triggers, migration 0034).
 */

/** The store's country, else the merchant's. */
const countryOf = sql<string>`coalesce(${stores.country}, ${customers.country})`;

const cents = (expr: SQL) => sql<number>`coalesce(${expr}, 0)`.mapWith(Number);
const count = () => sql<number>`count(*)`.mapWith(Number);

// ── AR aging ──────────────────────────────────────────────────────────────────────────────────────────

/** The as-of day: given, else today (the billing day of the injected clock). */
function asOfDay(ctx: ServiceCtx, asOf: string | undefined): string {
  return asOf ?? billingToday(ctx.app);
}

/** Due dates of a bucket on `asOf` as a condition on invoices.due_on (an index range). */
function bucketWhere(bucket: AgingBucket, asOf: string): SQL {
  const r = agingDueRange(bucket, asOf);
  return and(
    r.from === null ? undefined : gte(invoices.dueOn, r.from),
    r.to === null ? undefined : lte(invoices.dueOn, r.to),
  )!;
}

/**
 * Open on the ledger as of `asOf`, of a billable store: issued by then, not reversed, stored status N and open_cents > 0 (the index
 * invoices_open_aging_idx; the ledger check proves both equal to the derivation). The balance is the ledger's today.
 */
function openWhere(q: Pick<AgingInvoicesQuery, 'country' | 'currency' | 'customer_id' | 'bucket'>, asOf: string): SQL {
  return and(
    eq(invoices.status, 'N'),
    isNull(invoices.reversedAt),
    lte(invoices.issuedOn, asOf),
    gt(invoices.openCents, 0),
    billableStoreWhere(invoices.storeId),
    q.currency === undefined ? undefined : eq(invoices.currency, q.currency),
    q.country === undefined ? undefined : sql`${countryOf} = ${q.country}`,
    q.customer_id === undefined ? undefined : eq(invoices.customerId, q.customer_id),
    q.bucket === undefined ? undefined : bucketWhere(q.bucket, asOf),
  )!;
}

/** The five bucket sums, the total and the count of an aggregate over open invoices. */
function bucketFigures(asOf: string) {
  const sumIf = (b: AgingBucket) => cents(sql`sum(${invoices.openCents}) filter (where ${bucketWhere(b, asOf)})`);
  return {
    current_cents: sumIf('current'),
    days_1_30_cents: sumIf('1-30'),
    days_31_60_cents: sumIf('31-60'),
    days_61_90_cents: sumIf('61-90'),
    days_90_plus_cents: sumIf('90+'),
    total_cents: cents(sql`sum(${invoices.openCents})`),
    invoice_count: count(),
  };
}

/**
 * The open invoices the filters keep. Only a country filter needs the store and the merchant (the invoice's
 * country is its store's, else its merchant's); without one an aggregate reads nothing but the covering index.
 */
function openInvoicesFrom<T extends Record<string, unknown>>(
  ctx: ServiceCtx,
  fields: T,
  q: Pick<AgingQuery, 'country'>,
) {
  const from = ctx.app.database.db.select(fields as never).from(invoices);
  if (q.country === undefined) return from.$dynamic();
  return from
    .innerJoin(customers, eq(customers.id, invoices.customerId))
    .leftJoin(stores, eq(stores.id, invoices.storeId))
    .$dynamic();
}

async function agingTotals(ctx: ServiceCtx, q: AgingQuery, asOf: string): Promise<AgingTotals[]> {
  const rows = (await openInvoicesFrom(ctx, { currency: invoices.currency, ...bucketFigures(asOf) }, q)
    .where(openWhere(q, asOf))
    .groupBy(invoices.currency)
    .orderBy(desc(invoices.currency))) as unknown as AgingTotals[];
  return rows;
}

/**
 * One page of the by-customer table and the number of its rows, in one statement: the open invoices are summed by
 * customer and currency in the order of invoices_open_customer_idx (a streaming aggregate: no hash of every
 * customer in memory), counted by a window, sorted to the page, and only the page's rows joined to their merchants.
 * Sorting by name joins every group first (the name is the merchant's).
 */
async function customerPage(
  ctx: ServiceCtx,
  q: AgingQuery,
  asOf: string,
  page: { limit: number; offset: number },
): Promise<{ items: AgingCustomerRow[]; total: number }> {
  const s = parseSort(q.sort ?? AGING_CUSTOMER_DEFAULT_SORT, 'total_cents');
  const dir = sql.raw(s.desc ? 'desc' : 'asc');
  const column: Record<Exclude<AgingCustomerSortField, 'legal_name'>, string> = {
    customer_id: 'customer_id',
    total_cents: 'total_cents',
    current_cents: 'current_cents',
    days_1_30_cents: 'days_1_30_cents',
    days_31_60_cents: 'days_31_60_cents',
    days_61_90_cents: 'days_61_90_cents',
    days_90_plus_cents: 'days_90_plus_cents',
  };
  // Named columns: the statements below read the groups' columns by name.
  const figures = Object.fromEntries(Object.entries(bucketFigures(asOf)).map(([name, e]) => [name, e.as(name)]));
  const groups = openInvoicesFrom(ctx, { customer_id: invoices.customerId, currency: invoices.currency, ...figures }, q)
    .where(openWhere(q, asOf))
    .groupBy(invoices.customerId, invoices.currency);
  const fields = sql.raw(`g.customer_id, g.currency, g.current_cents, g.days_1_30_cents, g.days_31_60_cents,
    g.days_61_90_cents, g.days_90_plus_cents, g.total_cents, g.invoice_count, g.total`);
  const res =
    s.field === 'legal_name'
      ? await ctx.app.database.db.execute(sql`
          select ${fields}, c.legal_name, c.country
          from (select x.*, count(*) over () as total from (${groups}) x) g join customers c on c.id = g.customer_id
          order by c.legal_name ${dir}, g.customer_id ${dir}, g.currency desc
          limit ${page.limit} offset ${page.offset}`)
      : await ctx.app.database.db.execute(sql`
          select ${fields}, c.legal_name, c.country
          from (
            select x.*, count(*) over () as total from (${groups}) x
            order by ${sql.raw(column[s.field])} ${dir}, x.customer_id ${dir}, x.currency desc
            limit ${page.limit} offset ${page.offset}
          ) g join customers c on c.id = g.customer_id
          order by g.${sql.raw(column[s.field])} ${dir}, g.customer_id ${dir}, g.currency desc`);
  const rows = (res as unknown as { rows: Record<string, string | number>[] }).rows;
  const n = (v: string | number | undefined) => Number(v ?? 0);
  return {
    total: n(rows[0]?.total),
    items: rows.map((r): AgingCustomerRow => ({
      customer_id: n(r.customer_id),
      legal_name: String(r.legal_name),
      country: String(r.country),
      currency: r.currency as CurrencyCode,
      current_cents: n(r.current_cents),
      days_1_30_cents: n(r.days_1_30_cents),
      days_31_60_cents: n(r.days_31_60_cents),
      days_61_90_cents: n(r.days_61_90_cents),
      days_90_plus_cents: n(r.days_90_plus_cents),
      total_cents: n(r.total_cents),
      invoice_count: n(r.invoice_count),
    })),
  };
}

/** GET /api/reports/aging/{token}: totals per currency and one page of the by-customer table. */
export async function getAgingReport(ctx: ServiceCtx, q: AgingQuery): Promise<AgingReport> {
  const asOf = asOfDay(ctx, q.as_of);
  const [totals, page] = await Promise.all([agingTotals(ctx, q, asOf), customerPage(ctx, q, asOf, q)]);
  // A page past the end has no row to carry the count: count again (rare — a stale page link).
  const total =
    page.items.length > 0 || q.offset === 0
      ? page.total
      : (await customerPage(ctx, q, asOf, { limit: 1, offset: 0 })).total;
  return { as_of: asOf, totals, customers: { items: page.items, total } };
}

/** format=csv of the aging report: every row of the by-customer table, in its order. */
export function getAgingReportCsv(ctx: ServiceCtx, q: AgingQuery): Readable {
  const asOf = asOfDay(ctx, q.as_of);
  return csvStream(
    AGING_CUSTOMER_CSV_COLUMNS,
    async (limit, offset) => (await customerPage(ctx, q, asOf, { limit, offset })).items,
  );
}

// ── Drill-down ────────────────────────────────────────────────────────────────────────────────────────

function invoicePage(ctx: ServiceCtx, q: AgingInvoicesQuery, asOf: string, page: { limit: number; offset: number }) {
  const days = sql<number>`(${asOf}::date - ${invoices.dueOn})`.mapWith(Number);
  const s = parseSort(q.sort ?? AGING_INVOICE_DEFAULT_SORT, 'days_past_due');
  const dir = s.desc ? desc : asc;
  // Days past due run opposite to the due date: the oldest first is the earliest due date first.
  const key: Record<AgingInvoiceSortField, SQL> = {
    days_past_due: s.desc ? asc(invoices.dueOn) : desc(invoices.dueOn),
    open_cents: dir(invoices.openCents),
    invoice_number: dir(invoices.invoiceNumber),
    legal_name: dir(customers.legalName),
  };
  return ctx.app.database.db
    .select({
      invoice_id: invoices.id,
      invoice_number: invoices.invoiceNumber,
      customer_id: invoices.customerId,
      legal_name: customers.legalName,
      store_id: invoices.storeId,
      doing_business_as: stores.doingBusinessAs,
      country: countryOf,
      currency: invoices.currency,
      issued_on: invoices.issuedOn,
      due_on: invoices.dueOn,
      days_past_due: days,
      total_cents: invoices.totalCents,
      open_cents: invoices.openCents,
    })
    .from(invoices)
    .innerJoin(customers, eq(customers.id, invoices.customerId))
    .leftJoin(stores, eq(stores.id, invoices.storeId))
    .where(openWhere(q, asOf))
    .orderBy(key[s.field], s.desc ? asc(invoices.id) : desc(invoices.id))
    .limit(page.limit)
    .offset(page.offset)
    .then((rows) =>
      rows.map((r): AgingInvoiceRow => ({
        ...r,
        doing_business_as: r.doing_business_as ?? null,
        country: r.country ?? null,
        currency: r.currency as CurrencyCode,
        bucket: agingBucketOf(r.days_past_due),
      })),
    );
}

/** GET /api/reports/aging/invoices/{token}: the open invoices behind an aging figure. */
export async function getAgingInvoices(ctx: ServiceCtx, q: AgingInvoicesQuery): Promise<AgingInvoices> {
  const asOf = asOfDay(ctx, q.as_of);
  const [items, totals] = await Promise.all([
    invoicePage(ctx, q, asOf, q),
    openInvoicesFrom(
      ctx,
      { currency: invoices.currency, open_cents: cents(sql`sum(${invoices.openCents})`), count: count() },
      q,
    )
      .where(openWhere(q, asOf))
      .groupBy(invoices.currency)
      .orderBy(desc(invoices.currency)) as unknown as Promise<AgingInvoices['totals']>,
  ]);
  return {
    as_of: asOf,
    bucket: q.bucket ?? null,
    items,
    total: totals.reduce((n, t) => n + t.count, 0),
    totals,
  };
}

export function getAgingInvoicesCsv(ctx: ServiceCtx, q: AgingInvoicesQuery): Readable {
  const asOf = asOfDay(ctx, q.as_of);
  return csvStream(AGING_INVOICE_CSV_COLUMNS, (limit, offset) => invoicePage(ctx, q, asOf, { limit, offset }));
}

// ── Date ranges ───────────────────────────────────────────────────────────────────────────────────────

/** from / to with the defaults: to = today (billing day), from = the first of the month 11 months before `to`'s. */
export function reportRange(ctx: ServiceCtx, q: { from?: string; to?: string }): { from: string; to: string } {
  const to = q.to ?? billingToday(ctx.app);
  let from = q.from;
  if (from === undefined) {
    const [y, m] = to.split('-').map(Number) as [number, number];
    const back = y * 12 + (m - 1) - (REPORT_DEFAULT_MONTHS - 1);
    from = `${Math.floor(back / 12)}-${String((back % 12) + 1).padStart(2, '0')}-01`;
  }
  if (from > to) throw fieldError('to', `The last day (${to}) is before the first (${from}).`);
  return { from, to };
}

/** One CSV "page" of a report that answers all its rows at once. */
function allAtOnce<Row>(rows: () => Promise<Row[]>) {
  return async (_limit: number, offset: number) => (offset === 0 ? rows() : []);
}

// ── Revenue ───────────────────────────────────────────────────────────────────────────────────────────

/** Whole months around a range: the facts are kept by month (decision 137), so revenue answers by whole months. */
function wholeMonths(range: { from: string; to: string }): { from: string; to: string } {
  const [y, m] = range.to.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return { from: `${range.from.slice(0, 7)}-01`, to: last };
}

async function revenueRows(ctx: ServiceCtx, q: RevenueQuery, range: { from: string; to: string }) {
  const f = reportInvoiceMonthFacts;
  const month = sql<string>`to_char(${f.month}, 'YYYY-MM')`;
  const sum = (c: AnyPgColumn) => cents(sql`sum(${c})`);
  const rows = await ctx.app.database.db
    .select({
      month,
      type: f.type,
      currency: f.currency,
      invoice_count: sum(f.invoiceCount),
      invoiced_cents: sum(f.invoicedCents),
      reversed_cents: sum(f.reversedCents),
      collected_cents: sum(f.collectedCents),
    })
    .from(f)
    .where(
      and(
        gte(f.month, range.from),
        lte(f.month, range.to),
        q.currency === undefined ? undefined : eq(f.currency, q.currency),
        q.country === undefined ? undefined : eq(f.country, q.country),
        q.type === undefined ? undefined : eq(f.type, q.type),
      ),
    )
    .groupBy(f.month, f.type, f.currency)
    .having(sql`sum(${f.invoiceCount}) <> 0`)
    .orderBy(month, desc(f.currency), f.type);
  return rows.map((r): RevenueRow => ({
    ...r,
    type: r.type as InvoiceType,
    type_label: INVOICE_TYPE_LABELS[r.type as InvoiceType] ?? r.type,
    currency: r.currency as CurrencyCode,
  }));
}

/** GET /api/reports/revenue/{token}: invoiced, reversed and collected by month, invoice type and currency (whole months). */
export async function getRevenueReport(ctx: ServiceCtx, q: RevenueQuery): Promise<RevenueReport> {
  const range = wholeMonths(reportRange(ctx, q));
  const rows = await revenueRows(ctx, q, range);
  const totals = new Map<CurrencyCode, RevenueReport['totals'][number]>();
  // A few dozen already-summed rows (month × type): their per-currency total, never across currencies.
  for (const r of rows) {
    const t = totals.get(r.currency) ?? {
      currency: r.currency,
      invoice_count: 0,
      invoiced_cents: 0,
      reversed_cents: 0,
      collected_cents: 0,
    };
    t.invoice_count += r.invoice_count;
    t.invoiced_cents += r.invoiced_cents;
    t.reversed_cents += r.reversed_cents;
    t.collected_cents += r.collected_cents;
    totals.set(r.currency, t);
  }
  return { ...range, rows, totals: [...totals.values()].sort((a, b) => b.currency.localeCompare(a.currency)) };
}

export function getRevenueReportCsv(ctx: ServiceCtx, q: RevenueQuery): Readable {
  const range = wholeMonths(reportRange(ctx, q));
  return csvStream(
    REVENUE_CSV_COLUMNS,
    allAtOnce(() => revenueRows(ctx, q, range)),
  );
}

// ── Failed payments and recovery ──────────────────────────────────────────────────────────────────────

async function failedRows(
  ctx: ServiceCtx,
  q: FailedPaymentReportQuery,
  range: { from: string; to: string },
): Promise<FailedPaymentReportRow[]> {
  const params: unknown[] = [range.from, addDays(range.to, 1), ctx.app.config.billing.timeZone];
  const factFilters: string[] = [];
  const invoiceFilters: string[] = [];
  if (q.currency !== undefined) {
    params.push(q.currency);
    factFilters.push(`and f.currency = $${params.length}`);
    invoiceFilters.push(`and i.currency = $${params.length}`);
  }
  if (q.country !== undefined) {
    params.push(q.country);
    factFilters.push(`and f.country = $${params.length}`);
    invoiceFilters.push(
      `and coalesce((select s.country from stores s where s.id = i.store_id),
                    (select c.country from customers c where c.id = i.customer_id)) = $${params.length}`,
    );
  }
  // Attempts: the charge facts' 15-minute slots of the range (a day in any time zone is whole slots). Failed
  // invoices: by their first failed charge (invoices_first_failed_idx), recovered by the stored ledger figures.
  const rows = await ctx.app.database.query<{
    month: string;
    currency: string;
    attempts: number | null;
    attempted_cents: string | null;
    failed_attempts: number | null;
    failed_attempt_cents: string | null;
    failed_invoices: number | null;
    failed_cents: string | null;
    recovered_invoices: number | null;
    recovered_cents: string | null;
  }>(
    `with a as (
       select to_char(f.slot at time zone $3, 'YYYY-MM') as month, f.currency,
              sum(f.attempts)::int as attempts, sum(f.attempted_cents)::text as attempted_cents,
              sum(f.failed_attempts)::int as failed_attempts, sum(f.failed_attempt_cents)::text as failed_attempt_cents
       from report_charge_facts f
       where f.slot >= ($1::timestamp at time zone $3) and f.slot < ($2::timestamp at time zone $3)
         ${factFilters.join(' ')}
       group by 1, 2
       having sum(f.attempts) <> 0
     ),
     g as (
       select to_char(i.first_failed_at at time zone $3, 'YYYY-MM') as month, i.currency,
              count(*)::int as failed_invoices, sum(i.total_cents)::text as failed_cents,
              (count(*) filter (where r.recovered))::int as recovered_invoices,
              coalesce(sum(i.total_cents) filter (where r.recovered), 0)::text as recovered_cents
       from invoices i
       cross join lateral (select i.status = 'P' and i.written_off_cents = 0 and i.paid_cents > 0 as recovered) r
       where i.first_failed_at >= ($1::timestamp at time zone $3) and i.first_failed_at < ($2::timestamp at time zone $3)
         and ${billableStoreSql('i.store_id')}
         ${invoiceFilters.join(' ')}
       group by 1, 2
     )
     select coalesce(a.month, g.month) as month, coalesce(a.currency, g.currency) as currency,
            a.attempts, a.attempted_cents, a.failed_attempts, a.failed_attempt_cents,
            g.failed_invoices, g.failed_cents, g.recovered_invoices, g.recovered_cents
     from a full join g on g.month = a.month and g.currency = a.currency
     order by 1, 2 desc`,
    params,
  );
  return rows.map((r) => {
    const attempts = r.attempts ?? 0;
    const failedAttempts = r.failed_attempts ?? 0;
    const failedInvoices = r.failed_invoices ?? 0;
    const recoveredInvoices = r.recovered_invoices ?? 0;
    return {
      month: r.month,
      currency: r.currency as CurrencyCode,
      attempts,
      attempted_cents: Number(r.attempted_cents ?? 0),
      failed_attempts: failedAttempts,
      failed_attempt_cents: Number(r.failed_attempt_cents ?? 0),
      failure_rate: attempts > 0 ? failedAttempts / attempts : 0,
      failed_invoices: failedInvoices,
      failed_cents: Number(r.failed_cents ?? 0),
      recovered_invoices: recoveredInvoices,
      recovered_cents: Number(r.recovered_cents ?? 0),
      recovery_rate: failedInvoices > 0 ? recoveredInvoices / failedInvoices : 0,
    };
  });
}

/** GET /api/reports/failed-payments/{token}: charge attempts, failures and recoveries by month and currency. */
export async function getFailedPaymentReport(
  ctx: ServiceCtx,
  q: FailedPaymentReportQuery,
): Promise<FailedPaymentReport> {
  const range = reportRange(ctx, q);
  return { ...range, rows: await failedRows(ctx, q, range) };
}

export function getFailedPaymentReportCsv(ctx: ServiceCtx, q: FailedPaymentReportQuery): Readable {
  const range = reportRange(ctx, q);
  return csvStream(
    FAILED_PAYMENT_REPORT_CSV_COLUMNS,
    allAtOnce(() => failedRows(ctx, q, range)),
  );
}

// ── Report facts ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Fold the report facts' appended rows into one row per key (the report-facts-compact job; decision 137): the
 * number of rows it removed. A report reads the same sums before and after.
 */
export async function compactReportFacts(db: Db): Promise<number> {
  const res = (await db.execute(sql`select report_facts_compact()::int as folded`)) as unknown as {
    rows: { folded: number }[];
  };
  return Number(res.rows[0]?.folded ?? 0);
}
