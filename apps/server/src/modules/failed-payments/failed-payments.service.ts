import type { Readable } from 'node:stream';
import {
  DECLINE_CODES,
  DECLINE_KIND,
  DECLINE_LABELS,
  declineKindOf,
  describeBankAccount,
  describeCard,
  FAILED_PAYMENT_CSV_COLUMNS,
  FAILED_PAYMENT_DEFAULT_SORT,
  isDeclineCode,
  parseSort,
  type CurrencyCode,
  type DunningFeeState,
  type DunningStateCode,
  type FailedPaymentItem,
  type FailedPaymentSearchQuery,
  type FailedPaymentSearchResult,
  type FailedPaymentSortField,
  type RecoveryQuery,
  type RecoveryReport,
} from '@pos/domain';
import { and, asc, desc, eq, gte, inArray, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { billableStoreSql, billableStoreWhere } from '../../db/billable-stores.sql';
import { cappedCount } from '../../db/capped-count';
import type { Db } from '../../db/client';
import { customers, invoiceDunning, invoices, paymentInstruments, stores, transactions } from '../../db/schema';
import { csvStream } from '../../lib/csv-stream';
import { searchTextPattern } from '../../lib/sql-like';
import { billingToday } from '../billing';

/*
 * Failed payments (#/payments; issue 15 point 5, decision 117): every failed charge (transactions status F, kind
 * charge) with where its invoice stands in dunning (invoice_dunning, decision 116), and the month's recovery figures.
 * Reads only; the actions go through the queue call transactions/sns (the lead's worker).
 */

const HARD_CODES = DECLINE_CODES.filter((c) => DECLINE_KIND[c] === 'hard');

/** The store's country, else the merchant's. */
const countryOf = sql<string>`coalesce(${stores.country}, ${customers.country})`;

/** The WHERE of the list (and of its CSV and count) over `transactions`; never a test or demo store's (decision 149). */
export function failedPaymentWhere(q: FailedPaymentSearchQuery, now: Date): SQL {
  const pattern = q.q === undefined ? undefined : searchTextPattern(q.q);
  return and(
    eq(transactions.status, 'F'),
    eq(transactions.kind, 'charge'),
    billableStoreWhere(transactions.storeId),
    // Soft is every code not hard, an unknown or missing one too (declineKindOf).
    q.kind === 'hard' ? inArray(transactions.declineCode, HARD_CODES) : undefined,
    q.kind === 'soft'
      ? or(sql`${transactions.declineCode} is null`, notInArray(transactions.declineCode, HARD_CODES))
      : undefined,
    q.reason === undefined ? undefined : eq(transactions.declineCode, q.reason),
    q.country === undefined
      ? undefined
      : or(
          inArray(transactions.storeId, sql`(select s.id from stores s where s.country = ${q.country})`),
          and(
            sql`${transactions.storeId} is null`,
            inArray(transactions.customerId, sql`(select c.id from customers c where c.country = ${q.country})`),
          ),
        ),
    q.amount_min === undefined ? undefined : gte(transactions.amountCents, q.amount_min),
    q.amount_max === undefined ? undefined : lte(transactions.amountCents, q.amount_max),
    q.age === undefined ? undefined : gte(transactions.attemptedAt, new Date(now.getTime() - q.age * 86_400_000)),
    q.state === undefined
      ? undefined
      : inArray(transactions.invoiceId, sql`(select d.invoice_id from invoice_dunning d where d.state = ${q.state})`),
    pattern === undefined
      ? undefined
      : or(
          inArray(transactions.customerId, sql`(select c.id from customers c where c.search_text like ${pattern})`),
          inArray(transactions.storeId, sql`(select s.id from stores s where s.search_text like ${pattern})`),
        ),
  )!;
}

const SORT_COLUMNS: Readonly<Record<FailedPaymentSortField, SQL | typeof transactions.attemptedAt>> = {
  attempted_at: transactions.attemptedAt,
  amount_cents: sql`${transactions.amountCents}`,
  next_retry_on: sql`${invoiceDunning.nextRetryOn}`,
  customer: sql`${customers.legalName}`,
};

function order(sort: FailedPaymentSearchQuery['sort']): SQL[] {
  const s = parseSort(sort ?? FAILED_PAYMENT_DEFAULT_SORT, 'attempted_at');
  const dir = s.desc ? desc : asc;
  const key = SORT_COLUMNS[s.field];
  // Nulls (no retry planned) last either way.
  const first = s.field === 'next_retry_on' ? sql`${key} ${sql.raw(s.desc ? 'desc' : 'asc')} nulls last` : dir(key);
  return [first, dir(transactions.id)];
}

function failedPage(
  db: Db,
  where: SQL,
  sort: FailedPaymentSearchQuery['sort'],
  page: { limit: number; offset: number },
) {
  return db
    .select({
      t: {
        id: transactions.id,
        customerId: transactions.customerId,
        storeId: transactions.storeId,
        invoiceId: transactions.invoiceId,
        amountCents: transactions.amountCents,
        currency: transactions.currency,
        attemptedAt: transactions.attemptedAt,
        declineCode: transactions.declineCode,
        failureReason: transactions.failureReason,
      },
      legalName: customers.legalName,
      dba: stores.doingBusinessAs,
      country: countryOf,
      invoiceNumber: invoices.invoiceNumber,
      pi: {
        id: paymentInstruments.id,
        kind: paymentInstruments.kind,
        brand: paymentInstruments.cardBrand,
        last4: paymentInstruments.cardLast4,
        bankName: paymentInstruments.bankName,
        accountLast4: paymentInstruments.accountLast4,
      },
      d: {
        state: invoiceDunning.state,
        failedAttempts: invoiceDunning.failedAttempts,
        nextRetryOn: invoiceDunning.nextRetryOn,
        feeState: invoiceDunning.feeState,
        feeCents: invoiceDunning.feeCents,
      },
    })
    .from(transactions)
    .innerJoin(customers, eq(customers.id, transactions.customerId))
    .leftJoin(stores, eq(stores.id, transactions.storeId))
    .leftJoin(invoices, eq(invoices.id, transactions.invoiceId))
    .leftJoin(paymentInstruments, eq(paymentInstruments.id, transactions.paymentInstrumentId))
    .leftJoin(invoiceDunning, eq(invoiceDunning.invoiceId, transactions.invoiceId))
    .where(where)
    .orderBy(...order(sort))
    .limit(page.limit)
    .offset(page.offset);
}
type PageRow = Awaited<ReturnType<typeof failedPage>>[number];

/** 'Visa ending 4242', 'Chase ending 6789', 'Cash' (the domain's payment-method wording). */
function instrumentText(pi: PageRow['pi']): string | null {
  if (!pi || pi.id === null) return null;
  if (pi.kind === 'card') return describeCard(pi.brand, pi.last4);
  if (pi.kind === 'bank') return describeBankAccount(pi.bankName, pi.accountLast4);
  return 'Cash';
}

function toItem(r: PageRow): FailedPaymentItem {
  const code = r.t.declineCode;
  const d = r.d && r.d.state !== null ? r.d : null;
  return {
    transaction_id: r.t.id,
    customer_id: r.t.customerId,
    legal_name: r.legalName,
    store_id: r.t.storeId,
    doing_business_as: r.dba ?? null,
    country: r.country ?? null,
    invoice_id: r.t.invoiceId,
    invoice_number: r.invoiceNumber ?? null,
    amount_cents: r.t.amountCents,
    currency: r.t.currency as CurrencyCode,
    attempted_at: r.t.attemptedAt.toISOString(),
    instrument_label: instrumentText(r.pi),
    decline_code: code,
    decline_label: isDeclineCode(code) ? DECLINE_LABELS[code] : (r.t.failureReason ?? 'Declined'),
    decline_kind: declineKindOf(code),
    failure_reason: r.t.failureReason,
    failed_attempts: d?.failedAttempts ?? 0,
    next_retry_on: d?.nextRetryOn ?? null,
    dunning_state: (d?.state as DunningStateCode | undefined) ?? null,
    fee_state: (d?.feeState as DunningFeeState | null | undefined) ?? null,
    fee_cents: d?.feeCents ?? null,
  };
}

/** GET /api/payments/failed/{token}: one page and the total, exact up to the cap. */
export async function searchFailedPayments(
  ctx: ServiceCtx,
  q: FailedPaymentSearchQuery,
): Promise<FailedPaymentSearchResult> {
  const db = ctx.app.database.db;
  const where = failedPaymentWhere(q, ctx.app.clock.now());
  const items = (await failedPage(db, where, q.sort, q)).map(toItem);
  if (q.offset === 0 && items.length < q.limit) return { items, total: items.length, total_capped: false };
  return { items, ...(await cappedCount(db, transactions, where)) };
}

/** format=csv: every failed payment the filters match, in the list's order, streamed page by page. */
export function searchFailedPaymentsCsv(ctx: ServiceCtx, q: FailedPaymentSearchQuery): Readable {
  const db = ctx.app.database.db;
  const where = failedPaymentWhere(q, ctx.app.clock.now());
  return csvStream(FAILED_PAYMENT_CSV_COLUMNS, async (limit, offset) =>
    (await failedPage(db, where, q.sort, { limit, offset })).map(toItem),
  );
}

// ── Recovery ──────────────────────────────────────────────────────────────────────────────────────────

/** 'YYYY-MM' → the next month's 'YYYY-MM-01'. */
function nextMonthStart(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/**
 * The month's failures (F charges attempted in it, the month in the billing time zone), one per failed invoice: its
 * latest F charge of the month (a charge without an invoice is its own failure). $1 month start, $2 next month
 * start, $3 time zone. The bounds are local midnights turned into instants, so transactions_status_idx is walked.
 */
const MONTH_FAILURES = `
  raw as (
    select t.id, t.invoice_id, t.currency, t.amount_cents, t.decline_code, t.attempted_at
    from transactions t
    where t.status = 'F' and t.kind = 'charge' and ${billableStoreSql('t.store_id')}
      and t.attempted_at >= ($1::timestamp at time zone $3) and t.attempted_at < ($2::timestamp at time zone $3)
  ),
  f as (
    select distinct on (coalesce(raw.invoice_id, -raw.id)) raw.*, coalesce(d.state = 'recovered', false) as recovered
    from raw left join invoice_dunning d on d.invoice_id = raw.invoice_id
    order by coalesce(raw.invoice_id, -raw.id), raw.attempted_at desc, raw.id desc
  )`;

/** GET /api/payments/recovery/{token}?month: two aggregates in the database (per currency, per reason). */
export async function getRecoveryReport(ctx: ServiceCtx, q: RecoveryQuery): Promise<RecoveryReport> {
  const month = q.month ?? billingToday(ctx.app).slice(0, 7);
  const params = [`${month}-01`, nextMonthStart(month), ctx.app.config.billing.timeZone];
  const database = ctx.app.database;
  const [byCurrency, byReason] = await Promise.all([
    database.query<{
      currency: string;
      failed_attempts: number;
      failed_count: number;
      failed_cents: string;
      recovered_count: number;
      recovered_cents: string;
    }>(
      `with ${MONTH_FAILURES},
       attempts as (select currency, count(*)::int as n from raw group by currency)
       select f.currency, max(a.n)::int as failed_attempts, count(*)::int as failed_count,
              sum(f.amount_cents)::text as failed_cents,
              (count(*) filter (where f.recovered))::int as recovered_count,
              coalesce(sum(f.amount_cents) filter (where f.recovered), 0)::text as recovered_cents
       from f join attempts a on a.currency = f.currency
       group by f.currency order by f.currency`,
      params,
    ),
    database.query<{
      decline_code: string | null;
      currency: string;
      failed_count: number;
      failed_cents: string;
      recovered_count: number;
      recovered_cents: string;
    }>(
      `with ${MONTH_FAILURES}
       select f.decline_code, f.currency, count(*)::int as failed_count, sum(f.amount_cents)::text as failed_cents,
              (count(*) filter (where f.recovered))::int as recovered_count,
              coalesce(sum(f.amount_cents) filter (where f.recovered), 0)::text as recovered_cents
       from f group by f.decline_code, f.currency
       order by f.currency, sum(f.amount_cents) desc, f.decline_code nulls last`,
      params,
    ),
  ]);
  return {
    month,
    by_currency: byCurrency.map((r) => {
      const failed = Number(r.failed_cents);
      const recovered = Number(r.recovered_cents);
      return {
        currency: r.currency as CurrencyCode,
        failed_attempts: r.failed_attempts,
        failed_count: r.failed_count,
        failed_cents: failed,
        recovered_count: r.recovered_count,
        recovered_cents: recovered,
        recovery_rate: failed > 0 ? recovered / failed : 0,
      };
    }),
    by_reason: byReason.map((r) => ({
      decline_code: r.decline_code,
      decline_label: isDeclineCode(r.decline_code) ? DECLINE_LABELS[r.decline_code] : 'Other',
      decline_kind: declineKindOf(r.decline_code),
      currency: r.currency as CurrencyCode,
      failed_count: r.failed_count,
      failed_cents: Number(r.failed_cents),
      recovered_count: r.recovered_count,
      recovered_cents: Number(r.recovered_cents),
    })),
  };
}
