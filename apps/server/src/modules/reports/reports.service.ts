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
import type { ServiceCtx } from '../../context';
import { customers, invoices, stores } from '../../db/schema';
import { fieldError } from '../../http/errors';
import { csvStream } from '../../lib/csv-stream';
import { billingToday } from '../billing';
import { invoiceBalances } from '../ledger';

/*
 * The AR reports (#/reports; issue 18 part 1, decision 128). Every report is SQL aggregates grouped in the database
 * over an index walk: aging reads the open invoices (stored status N, invoices_status_due_idx) joined to the ledger's
 * one balance source, the view invoice_balances, by invoice id; revenue walks invoices by issued_on
 * (invoices_issued_idx); failed payments walk transactions by (status, attempted_at) (transactions_status_idx).
 * USD and CAD are never summed together: every GROUP BY has the currency.
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
 * Open on the ledger as of `asOf`: issued by then, not reversed, stored status N (index-backed; the ledger check
 * proves it equal to the derived one) and an open balance in invoice_balances. The balance is the ledger's today.
 */
function openWhere(q: Pick<AgingInvoicesQuery, 'country' | 'currency' | 'customer_id' | 'bucket'>, asOf: string): SQL {
  return and(
    eq(invoices.status, 'N'),
    isNull(invoices.reversedAt),
    lte(invoices.issuedOn, asOf),
    gt(invoiceBalances.openCents, 0),
    q.currency === undefined ? undefined : eq(invoices.currency, q.currency),
    q.country === undefined ? undefined : sql`${countryOf} = ${q.country}`,
    q.customer_id === undefined ? undefined : eq(invoices.customerId, q.customer_id),
    q.bucket === undefined ? undefined : bucketWhere(q.bucket, asOf),
  )!;
}

/** The five bucket sums, the total and the count of an aggregate over open invoices. */
function bucketFigures(asOf: string) {
  const sumIf = (b: AgingBucket) =>
    cents(sql`sum(${invoiceBalances.openCents}) filter (where ${bucketWhere(b, asOf)})`);
  return {
    current_cents: sumIf('current'),
    days_1_30_cents: sumIf('1-30'),
    days_31_60_cents: sumIf('31-60'),
    days_61_90_cents: sumIf('61-90'),
    days_90_plus_cents: sumIf('90+'),
    total_cents: cents(sql`sum(${invoiceBalances.openCents})`),
    invoice_count: count(),
  };
}

function openInvoicesFrom<T extends Record<string, unknown>>(ctx: ServiceCtx, fields: T) {
  return ctx.app.database.db
    .select(fields as never)
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .innerJoin(customers, eq(customers.id, invoices.customerId))
    .leftJoin(stores, eq(stores.id, invoices.storeId));
}

async function agingTotals(ctx: ServiceCtx, q: AgingQuery, asOf: string): Promise<AgingTotals[]> {
  const rows = (await openInvoicesFrom(ctx, { currency: invoices.currency, ...bucketFigures(asOf) })
    .where(openWhere(q, asOf))
    .groupBy(invoices.currency)
    .orderBy(desc(invoices.currency))) as unknown as AgingTotals[];
  return rows;
}

function customerFields(asOf: string) {
  return {
    customer_id: invoices.customerId,
    legal_name: customers.legalName,
    country: customers.country,
    currency: invoices.currency,
    ...bucketFigures(asOf),
  };
}

function customerPage(ctx: ServiceCtx, q: AgingQuery, asOf: string, page: { limit: number; offset: number }) {
  const fields = customerFields(asOf);
  const s = parseSort(q.sort ?? AGING_CUSTOMER_DEFAULT_SORT, 'total_cents');
  const dir = s.desc ? desc : asc;
  const key: Record<AgingCustomerSortField, SQL | typeof customers.legalName | typeof invoices.customerId> = {
    legal_name: customers.legalName,
    customer_id: invoices.customerId,
    total_cents: fields.total_cents,
    current_cents: fields.current_cents,
    days_1_30_cents: fields.days_1_30_cents,
    days_31_60_cents: fields.days_31_60_cents,
    days_61_90_cents: fields.days_61_90_cents,
    days_90_plus_cents: fields.days_90_plus_cents,
  };
  return openInvoicesFrom(ctx, fields)
    .where(openWhere(q, asOf))
    .groupBy(invoices.customerId, customers.legalName, customers.country, invoices.currency)
    .orderBy(dir(key[s.field]), dir(invoices.customerId), desc(invoices.currency))
    .limit(page.limit)
    .offset(page.offset) as unknown as Promise<AgingCustomerRow[]>;
}

/** GET /api/reports/aging/{token}: totals per currency and one page of the by-customer table. */
export async function getAgingReport(ctx: ServiceCtx, q: AgingQuery): Promise<AgingReport> {
  const asOf = asOfDay(ctx, q.as_of);
  const db = ctx.app.database.db;
  const groups = db
    .select({ customerId: invoices.customerId })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .innerJoin(customers, eq(customers.id, invoices.customerId))
    .leftJoin(stores, eq(stores.id, invoices.storeId))
    .where(openWhere(q, asOf))
    .groupBy(invoices.customerId, invoices.currency)
    .as('groups');
  const [totals, items, [counted]] = await Promise.all([
    agingTotals(ctx, q, asOf),
    customerPage(ctx, q, asOf, q),
    db.select({ n: count() }).from(groups),
  ]);
  return { as_of: asOf, totals, customers: { items, total: counted?.n ?? 0 } };
}

/** format=csv of the aging report: every row of the by-customer table, in its order. */
export function getAgingReportCsv(ctx: ServiceCtx, q: AgingQuery): Readable {
  const asOf = asOfDay(ctx, q.as_of);
  return csvStream(AGING_CUSTOMER_CSV_COLUMNS, (limit, offset) => customerPage(ctx, q, asOf, { limit, offset }));
}

// ── Drill-down ────────────────────────────────────────────────────────────────────────────────────────

function invoicePage(ctx: ServiceCtx, q: AgingInvoicesQuery, asOf: string, page: { limit: number; offset: number }) {
  const days = sql<number>`(${asOf}::date - ${invoices.dueOn})`.mapWith(Number);
  const s = parseSort(q.sort ?? AGING_INVOICE_DEFAULT_SORT, 'days_past_due');
  const dir = s.desc ? desc : asc;
  // Days past due run opposite to the due date: the oldest first is the earliest due date first.
  const key: Record<AgingInvoiceSortField, SQL> = {
    days_past_due: s.desc ? asc(invoices.dueOn) : desc(invoices.dueOn),
    open_cents: dir(invoiceBalances.openCents),
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
      open_cents: invoiceBalances.openCents,
    })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
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
    openInvoicesFrom(ctx, {
      currency: invoices.currency,
      open_cents: cents(sql`sum(${invoiceBalances.openCents})`),
      count: count(),
    })
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

async function revenueRows(ctx: ServiceCtx, q: RevenueQuery, range: { from: string; to: string }) {
  const month = sql<string>`to_char(${invoices.issuedOn}, 'YYYY-MM')`;
  const rows = await ctx.app.database.db
    .select({
      month,
      type: invoices.type,
      currency: invoices.currency,
      invoice_count: count(),
      invoiced_cents: cents(sql`sum(${invoices.totalCents}) filter (where ${invoices.reversedAt} is null)`),
      reversed_cents: cents(sql`sum(${invoices.totalCents}) filter (where ${invoices.reversedAt} is not null)`),
      collected_cents: cents(sql`sum(${invoiceBalances.paidCents})`),
    })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .innerJoin(customers, eq(customers.id, invoices.customerId))
    .leftJoin(stores, eq(stores.id, invoices.storeId))
    .where(
      and(
        gte(invoices.issuedOn, range.from),
        lte(invoices.issuedOn, range.to),
        q.currency === undefined ? undefined : eq(invoices.currency, q.currency),
        q.country === undefined ? undefined : sql`${countryOf} = ${q.country}`,
        q.type === undefined ? undefined : eq(invoices.type, q.type),
      ),
    )
    .groupBy(month, invoices.type, invoices.currency)
    .orderBy(month, desc(invoices.currency), invoices.type);
  return rows.map((r): RevenueRow => ({
    ...r,
    type: r.type as InvoiceType,
    type_label: INVOICE_TYPE_LABELS[r.type as InvoiceType] ?? r.type,
    currency: r.currency as CurrencyCode,
  }));
}

/** GET /api/reports/revenue/{token}: invoiced, reversed and collected by month, invoice type and currency. */
export async function getRevenueReport(ctx: ServiceCtx, q: RevenueQuery): Promise<RevenueReport> {
  const range = reportRange(ctx, q);
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
  const range = reportRange(ctx, q);
  return csvStream(
    REVENUE_CSV_COLUMNS,
    allAtOnce(() => revenueRows(ctx, q, range)),
  );
}

// ── Failed payments and recovery ──────────────────────────────────────────────────────────────────────

/** Charge attempts: every charge that reached the gateway (not pending, not voided before it was sent). */
const ATTEMPT_STATUSES = ['S', 'F', 'R', 'B', 'C'];

async function failedRows(
  ctx: ServiceCtx,
  q: FailedPaymentReportQuery,
  range: { from: string; to: string },
): Promise<FailedPaymentReportRow[]> {
  const params: unknown[] = [range.from, addDays(range.to, 1), ctx.app.config.billing.timeZone, ATTEMPT_STATUSES];
  const filters: string[] = [];
  if (q.currency !== undefined) {
    params.push(q.currency);
    filters.push(`and t.currency = $${params.length}`);
  }
  if (q.country !== undefined) {
    params.push(q.country);
    filters.push(
      `and coalesce((select s.country from stores s where s.id = t.store_id),
                    (select c.country from customers c where c.id = t.customer_id)) = $${params.length}`,
    );
  }
  const rows = await ctx.app.database.query<{
    month: string;
    currency: string;
    attempts: number;
    attempted_cents: string;
    failed_attempts: number;
    failed_attempt_cents: string;
    failed_invoices: number | null;
    failed_cents: string | null;
    recovered_invoices: number | null;
    recovered_cents: string | null;
  }>(
    `with raw as (
       select t.id, t.invoice_id, t.currency, t.amount_cents, t.status, t.attempted_at,
              to_char(t.attempted_at at time zone $3, 'YYYY-MM') as month
       from transactions t
       where t.kind = 'charge' and t.status = any($4::text[])
         and t.attempted_at >= ($1::timestamp at time zone $3) and t.attempted_at < ($2::timestamp at time zone $3)
         ${filters.join(' ')}
     ),
     f as (
       select distinct on (raw.month, coalesce(raw.invoice_id, -raw.id)) raw.*
       from raw where raw.status = 'F'
       order by raw.month, coalesce(raw.invoice_id, -raw.id), raw.attempted_at desc, raw.id desc
     ),
     fr as (
       select f.month, f.currency, f.amount_cents,
              coalesce(b.status = 'P' and b.written_off_cents = 0 and b.paid_cents > 0, false) as recovered
       from f left join invoice_balances b on b.invoice_id = f.invoice_id
     ),
     a as (
       select month, currency, count(*)::int as attempts, sum(amount_cents)::text as attempted_cents,
              (count(*) filter (where status = 'F'))::int as failed_attempts,
              coalesce(sum(amount_cents) filter (where status = 'F'), 0)::text as failed_attempt_cents
       from raw group by month, currency
     ),
     g as (
       select month, currency, count(*)::int as failed_invoices, sum(amount_cents)::text as failed_cents,
              (count(*) filter (where recovered))::int as recovered_invoices,
              coalesce(sum(amount_cents) filter (where recovered), 0)::text as recovered_cents
       from fr group by month, currency
     )
     select a.*, g.failed_invoices, g.failed_cents, g.recovered_invoices, g.recovered_cents
     from a left join g on g.month = a.month and g.currency = a.currency
     order by a.month, a.currency desc`,
    params,
  );
  return rows.map((r) => {
    const failedInvoices = r.failed_invoices ?? 0;
    const recoveredInvoices = r.recovered_invoices ?? 0;
    return {
      month: r.month,
      currency: r.currency as CurrencyCode,
      attempts: r.attempts,
      attempted_cents: Number(r.attempted_cents),
      failed_attempts: r.failed_attempts,
      failed_attempt_cents: Number(r.failed_attempt_cents),
      failure_rate: r.attempts > 0 ? r.failed_attempts / r.attempts : 0,
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
