import {
  CURRENCY_CODES,
  formatMoney,
  parseSort,
  RECONCILIATION_CSV_COLUMNS,
  type CurrencyCode,
  type ReconcileDayRequest,
  type ReconcileDayResult,
  type ReconciliationDifference,
  type ReconciliationDifferenceKind,
  type ReconciliationEntryKind,
  type ReconciliationList,
  type ReconciliationListQuery,
  type ReconciliationRun,
  type ReconciliationRunDetail,
  type ReconciliationSource,
  type ReconciliationSortField,
  type ReconciliationStatus,
  type ReconciliationTotals,
} from '@pos/domain';
import type { Readable } from 'node:stream';
import type { AppContext, ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { reconciliationDifferences, reconciliationRuns } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError, fieldError, notFound } from '../../http/errors';
import { runIdempotent } from '../../http/idempotency';
import { gatewaySettlementReport, type SettlementEntry } from '../payments';
import { csvStream } from '../../lib/csv-stream';
import { booksPostedOn, type BookLine } from './books';

/*
 * Reconciliation with the gateway's books (issue 28 item 4, decision 146). For a UTC day and a currency: the gateway's
 * settlement report beside what our books posted (books.ts, the one function to switch to the journal), matched line by
 * line — a charge or a refund by its own gateway reference, a void or a chargeback by the charge it acts on — and
 * stored as a run with both sides' totals and every line that differs.
 */

const DAY_MS = 86_400_000;

/** The UTC day before `now`: what the daily job reconciles (the gateway's day has closed). */
export function reconciliationDayBefore(now: Date): string {
  return new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
}

interface Line {
  kind: ReconciliationEntryKind;
  amountCents: number;
  at: Date;
}

/** How two books name the same line: a charge or refund by its own reference, a void or chargeback by the charge's. */
const gatewayKey = (e: SettlementEntry) =>
  `${e.kind}:${e.kind === 'charge' || e.kind === 'refund' ? e.gatewayTransactionId : e.chargeReference}`;
const booksKey = (b: BookLine) => `${b.kind}:${b.gatewayReference}`;

function totalsOf(lines: readonly Line[]): ReconciliationTotals {
  const sum = (kind: ReconciliationEntryKind) =>
    lines.filter((l) => l.kind === kind).reduce((s, l) => s + l.amountCents, 0);
  const charged = sum('charge');
  const refunded = sum('refund');
  const chargedBack = sum('chargeback');
  return {
    charged_cents: charged,
    refunded_cents: refunded,
    charged_back_cents: chargedBack,
    voided_cents: sum('void'),
    net_cents: charged - refunded - chargedBack,
    entries: lines.length,
  };
}

interface NewDifference {
  kind: ReconciliationDifferenceKind;
  entryKind: ReconciliationEntryKind;
  gatewayTransactionId: string | null;
  chargeReference: string | null;
  transactionId: number | null;
  customerId: number | null;
  invoiceId: number | null;
  gatewayAmountCents: number | null;
  booksAmountCents: number | null;
  at: Date | null;
}

/** One currency's outcome, before it is stored. */
interface Outcome {
  day: string;
  currency: CurrencyCode;
  status: ReconciliationStatus;
  gateway: ReconciliationTotals;
  books: ReconciliationTotals;
  differences: NewDifference[];
  failureReason: string | null;
}

/** Our transactions of the charges the gateway names, for the lines only the gateway has. */
async function chargesByReference(app: AppContext, references: string[]) {
  if (references.length === 0) return new Map<string, { id: number; customerId: number; invoiceId: number | null }>();
  const rows = await app.database.query<{ id: number; customer_id: number; invoice_id: number | null; ref: string }>(
    `select id, customer_id, invoice_id, gateway_reference as ref from transactions
      where gateway_reference = any($1::text[]) and kind = 'charge' order by id`,
    [references],
  );
  return new Map(
    rows.map((r) => [
      r.ref,
      {
        id: Number(r.id),
        customerId: Number(r.customer_id),
        invoiceId: r.invoice_id === null ? null : Number(r.invoice_id),
      },
    ]),
  );
}

/**
 * Compare one day and currency (outside any transaction: the gateway is called here). A gateway that does not answer
 * makes a failed outcome, which is stored like the others so the screen shows it.
 */
export async function compareDay(app: AppContext, day: string, currency: CurrencyCode): Promise<Outcome> {
  let report: SettlementEntry[];
  try {
    report = await gatewaySettlementReport(app, { day, currency });
  } catch (err) {
    if (!(err instanceof AppError) || (err.code !== 'unavailable' && err.code !== 'validation_failed')) throw err;
    const books = totalsOf(await booksPostedOn(app.database, { day, currency }));
    const empty = totalsOf([]);
    return { day, currency, status: 'failed', gateway: empty, books, differences: [], failureReason: err.message };
  }
  const books = await booksPostedOn(app.database, { day, currency });
  const ours = new Map<string, BookLine>();
  for (const b of books) ours.set(booksKey(b), b);
  const theirs = new Map<string, SettlementEntry>();
  for (const e of report) theirs.set(gatewayKey(e), e);

  const differences: NewDifference[] = [];
  const onlyAtGateway = report.filter((e) => !ours.has(gatewayKey(e)));
  const known = await chargesByReference(app, [...new Set(onlyAtGateway.map((e) => e.chargeReference))]);
  for (const e of report) {
    const b = ours.get(gatewayKey(e));
    if (!b) {
      const charge = known.get(e.chargeReference);
      differences.push({
        kind: 'missing_at_ours',
        entryKind: e.kind,
        gatewayTransactionId: e.gatewayTransactionId,
        chargeReference: e.chargeReference,
        transactionId: charge?.id ?? null,
        customerId: charge?.customerId ?? null,
        invoiceId: charge?.invoiceId ?? null,
        gatewayAmountCents: e.amountCents,
        booksAmountCents: null,
        at: e.at,
      });
    } else if (b.amountCents !== e.amountCents) {
      differences.push({
        kind: 'amount_differs',
        entryKind: e.kind,
        gatewayTransactionId: e.gatewayTransactionId,
        chargeReference: e.chargeReference,
        transactionId: b.transactionId,
        customerId: b.customerId,
        invoiceId: b.invoiceId,
        gatewayAmountCents: e.amountCents,
        booksAmountCents: b.amountCents,
        at: e.at,
      });
    }
  }
  for (const b of books) {
    if (theirs.has(booksKey(b))) continue;
    differences.push({
      kind: 'missing_at_gateway',
      entryKind: b.kind,
      gatewayTransactionId: null,
      chargeReference: b.gatewayReference,
      transactionId: b.transactionId,
      customerId: b.customerId,
      invoiceId: b.invoiceId,
      gatewayAmountCents: null,
      booksAmountCents: b.amountCents,
      at: b.at,
    });
  }
  differences.sort((a, b) => (a.at?.getTime() ?? 0) - (b.at?.getTime() ?? 0));
  return {
    day,
    currency,
    status: differences.length === 0 ? 'matched' : 'differences',
    gateway: totalsOf(report),
    books: totalsOf(books),
    differences,
    failureReason: null,
  };
}

/** Store a compared day as a run with its differences (in the caller's transaction). */
async function storeRun(
  tx: Db,
  outcome: Outcome,
  meta: { source: ReconciliationSource; requestedBy: string | null; now: Date },
): Promise<number> {
  const [run] = await tx
    .insert(reconciliationRuns)
    .values({
      day: outcome.day,
      currency: outcome.currency,
      status: outcome.status,
      source: meta.source,
      gatewayChargedCents: outcome.gateway.charged_cents,
      gatewayRefundedCents: outcome.gateway.refunded_cents,
      gatewayChargedBackCents: outcome.gateway.charged_back_cents,
      gatewayVoidedCents: outcome.gateway.voided_cents,
      gatewayEntries: outcome.gateway.entries,
      booksChargedCents: outcome.books.charged_cents,
      booksRefundedCents: outcome.books.refunded_cents,
      booksChargedBackCents: outcome.books.charged_back_cents,
      booksVoidedCents: outcome.books.voided_cents,
      booksEntries: outcome.books.entries,
      differenceCount: outcome.differences.length,
      failureReason: outcome.failureReason,
      requestedByEmail: meta.requestedBy,
      finishedAt: meta.now,
    })
    .returning({ id: reconciliationRuns.id });
  if (outcome.differences.length > 0)
    await tx
      .insert(reconciliationDifferences)
      .values(outcome.differences.map((d) => ({ ...d, runId: run!.id, currency: outcome.currency })));
  return run!.id;
}

const RUN_COLUMNS = `r.id, r.day::text as day, r.currency, r.status, r.source,
  r.gateway_charged_cents, r.gateway_refunded_cents, r.gateway_charged_back_cents, r.gateway_voided_cents,
  r.gateway_entries, r.books_charged_cents, r.books_refunded_cents, r.books_charged_back_cents, r.books_voided_cents,
  r.books_entries, r.difference_count, r.failure_reason, r.requested_by_email, r.finished_at`;

interface RunRow {
  id: number;
  day: string;
  currency: CurrencyCode;
  status: ReconciliationStatus;
  source: ReconciliationSource;
  gateway_charged_cents: string | number;
  gateway_refunded_cents: string | number;
  gateway_charged_back_cents: string | number;
  gateway_voided_cents: string | number;
  gateway_entries: number;
  books_charged_cents: string | number;
  books_refunded_cents: string | number;
  books_charged_back_cents: string | number;
  books_voided_cents: string | number;
  books_entries: number;
  difference_count: number;
  failure_reason: string | null;
  requested_by_email: string | null;
  finished_at: Date | string;
}

function side(r: RunRow, prefix: 'gateway' | 'books'): ReconciliationTotals {
  const n = (k: string) => Number(r[`${prefix}_${k}` as keyof RunRow]);
  const charged = n('charged_cents');
  const refunded = n('refunded_cents');
  const chargedBack = n('charged_back_cents');
  return {
    charged_cents: charged,
    refunded_cents: refunded,
    charged_back_cents: chargedBack,
    voided_cents: n('voided_cents'),
    net_cents: charged - refunded - chargedBack,
    entries: n('entries'),
  };
}

const runOf = (r: RunRow): ReconciliationRun => ({
  id: Number(r.id),
  day: r.day,
  currency: r.currency,
  status: r.status,
  source: r.source,
  gateway: side(r, 'gateway'),
  books: side(r, 'books'),
  difference_count: Number(r.difference_count),
  failure_reason: r.failure_reason,
  requested_by: r.requested_by_email,
  finished_at: new Date(r.finished_at).toISOString(),
});

async function runsByIds(app: AppContext, ids: number[]): Promise<ReconciliationRun[]> {
  const rows = await app.database.query<RunRow>(
    `select ${RUN_COLUMNS} from reconciliation_runs r where r.id = any($1::int[]) order by r.id`,
    [ids],
  );
  return rows.map(runOf);
}

/** The daily job (and a retry of it): yesterday (UTC) for every currency, stored as scheduled runs. */
export async function runScheduledReconciliation(
  app: AppContext,
  options: { day?: string } = {},
): Promise<{ day: string; runs: Array<{ run_id: number; currency: CurrencyCode; status: ReconciliationStatus }> }> {
  const now = app.clock.now();
  const day = options.day ?? reconciliationDayBefore(now);
  // A retry of the day's job redoes only what has no answered scheduled run yet.
  const done = await app.database.query<{ currency: string }>(
    `select distinct currency from reconciliation_runs where day = $1::date and source = 'schedule' and status <> 'failed'`,
    [day],
  );
  const outcomes: Outcome[] = [];
  for (const currency of CURRENCY_CODES.filter((c) => !done.some((d) => d.currency === c)))
    outcomes.push(await compareDay(app, day, currency));
  const ids = await app.database.db.transaction(async (tx) => {
    const made: number[] = [];
    for (const o of outcomes) made.push(await storeRun(tx, o, { source: 'schedule', requestedBy: null, now }));
    return made;
  });
  return {
    day,
    runs: outcomes.map((o, i) => ({ run_id: ids[i]!, currency: o.currency, status: o.status })),
  };
}

/**
 * POST /api/reconciliation/runs/{token} (AR Team, Admin; Idempotency-Key): reconcile a day now, one currency or all.
 * The gateway is asked outside any transaction; the runs, their differences and the audit entry commit together.
 */
export function reconcileDayNow(
  ctx: ServiceCtx,
  body: ReconcileDayRequest,
  idempotencyKey: string | undefined,
): Promise<ReconcileDayResult> {
  const { app } = ctx;
  return runIdempotent(
    ctx,
    { route: 'POST /reconciliation/runs', key: idempotencyKey, request: { params: {}, body }, status: 201 },
    {
      outside: async ({ now }) => {
        const today = now.toISOString().slice(0, 10);
        if (body.day > today)
          throw fieldError('day', `A day that has not begun cannot be reconciled (today is ${today}, UTC).`);
        const outcomes: Outcome[] = [];
        for (const currency of body.currency ? [body.currency] : CURRENCY_CODES)
          outcomes.push(await compareDay(app, body.day, currency));
        return outcomes;
      },
      effect: async (tx, now, outcomes) => {
        const ids: number[] = [];
        for (const o of outcomes)
          ids.push(await storeRun(tx, o, { source: 'staff', requestedBy: ctx.session.email, now }));
        await writeAudit(tx, {
          ...(ctx.actor satisfies AuditActor),
          at: now,
          action: 'reconcile_day',
          entity: 'reconciliation_run',
          entityId: ids[0] ?? null,
          after: {
            day: body.day,
            runs: outcomes.map((o, i) => ({
              run_id: ids[i],
              currency: o.currency,
              status: o.status,
              differences: o.differences.length,
            })),
          },
          requestId: ctx.requestId,
          customerId: null,
        });
        return {
          runs: outcomes.map((o, i): ReconciliationRun => ({
            id: ids[i]!,
            day: o.day,
            currency: o.currency,
            status: o.status,
            source: 'staff',
            gateway: o.gateway,
            books: o.books,
            difference_count: o.differences.length,
            failure_reason: o.failureReason,
            requested_by: ctx.session.email,
            finished_at: now.toISOString(),
          })),
        };
      },
    },
  );
}

const SORT_COLUMNS: Record<ReconciliationSortField, string> = {
  day: 'r.day',
  currency: 'r.currency',
  status: 'r.status',
  difference_count: 'r.difference_count',
  finished_at: 'r.finished_at',
};

function listWhere(q: ReconciliationListQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const parts: string[] = [];
  const add = (clause: (n: number) => string, value: unknown) => {
    params.push(value);
    parts.push(clause(params.length));
  };
  if (q.from) add((n) => `r.day >= $${n}::date`, q.from);
  if (q.to) add((n) => `r.day <= $${n}::date`, q.to);
  if (q.currency) add((n) => `r.currency = $${n}`, q.currency);
  if (q.status) add((n) => `r.status = $${n}`, q.status);
  return { where: parts.length ? `where ${parts.join(' and ')}` : '', params };
}

function orderOf(q: ReconciliationListQuery): string {
  const s = parseSort<ReconciliationSortField>(q.sort ?? '-day', 'day');
  const dir = s.desc ? 'desc' : 'asc';
  return `order by ${SORT_COLUMNS[s.field]} ${dir}, r.id ${dir}`;
}

async function listPage(app: AppContext, q: ReconciliationListQuery, limit: number, offset: number) {
  const { where, params } = listWhere(q);
  const rows = await app.database.query<RunRow>(
    `select ${RUN_COLUMNS} from reconciliation_runs r ${where} ${orderOf(q)}
      limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, limit, offset],
  );
  return rows.map(runOf);
}

/** GET /api/reconciliation/runs/{token}: filters, sort (default newest day first), paging. */
export async function listReconciliationRuns(ctx: ServiceCtx, q: ReconciliationListQuery): Promise<ReconciliationList> {
  const { where, params } = listWhere(q);
  const [items, [total]] = await Promise.all([
    listPage(ctx.app, q, q.limit, q.offset),
    ctx.app.database.query<{ n: number | string }>(`select count(*) as n from reconciliation_runs r ${where}`, params),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}

type CsvRow = Record<(typeof RECONCILIATION_CSV_COLUMNS)[number], string | number | null>;

/** The runs list as CSV (every matching run, amounts as money). */
export function reconciliationRunsCsv(ctx: ServiceCtx, q: ReconciliationListQuery): Readable {
  const money = (cents: number, currency: CurrencyCode) => formatMoney(cents, currency);
  return csvStream<CsvRow>(RECONCILIATION_CSV_COLUMNS, async (limit, offset) =>
    (await listPage(ctx.app, q, limit, offset)).map((r) => ({
      id: r.id,
      day: r.day,
      currency: r.currency,
      status: r.status,
      source: r.source,
      gateway_charged: money(r.gateway.charged_cents, r.currency),
      gateway_refunded: money(r.gateway.refunded_cents, r.currency),
      gateway_charged_back: money(r.gateway.charged_back_cents, r.currency),
      gateway_voided: money(r.gateway.voided_cents, r.currency),
      gateway_net: money(r.gateway.net_cents, r.currency),
      books_charged: money(r.books.charged_cents, r.currency),
      books_refunded: money(r.books.refunded_cents, r.currency),
      books_charged_back: money(r.books.charged_back_cents, r.currency),
      books_voided: money(r.books.voided_cents, r.currency),
      books_net: money(r.books.net_cents, r.currency),
      differences: r.difference_count,
      requested_by: r.requested_by,
      finished_at: r.finished_at,
    })),
  );
}

interface DifferenceRow {
  id: number;
  kind: ReconciliationDifference['kind'];
  entry_kind: ReconciliationEntryKind;
  gateway_transaction_id: string | null;
  charge_reference: string | null;
  transaction_id: number | null;
  customer_id: number | null;
  customer_name: string | null;
  invoice_id: number | null;
  invoice_number: string | null;
  gateway_amount_cents: string | number | null;
  books_amount_cents: string | number | null;
  currency: CurrencyCode;
  at: Date | string | null;
}

const centsOrNull = (v: string | number | null) => (v === null ? null : Number(v));

/** GET /api/reconciliation/runs/{runId}/{token}: a run with its differences. */
export async function getReconciliationRun(ctx: ServiceCtx, runId: number): Promise<ReconciliationRunDetail> {
  const [run] = await runsByIds(ctx.app, [runId]);
  if (!run) throw notFound(`Reconciliation run ${runId}`);
  const rows = await ctx.app.database.query<DifferenceRow>(
    `select d.id, d.kind, d.entry_kind, d.gateway_transaction_id, d.charge_reference, d.transaction_id, d.customer_id,
            c.legal_name as customer_name, d.invoice_id, i.invoice_number, d.gateway_amount_cents, d.books_amount_cents,
            d.currency, d.at
       from reconciliation_differences d
       left join customers c on c.id = d.customer_id
       left join invoices i on i.id = d.invoice_id
      where d.run_id = $1 order by d.at nulls last, d.id`,
    [runId],
  );
  return {
    ...run,
    differences: rows.map((d) => ({
      id: Number(d.id),
      kind: d.kind,
      entry_kind: d.entry_kind,
      gateway_transaction_id: d.gateway_transaction_id,
      charge_reference: d.charge_reference,
      transaction_id: d.transaction_id === null ? null : Number(d.transaction_id),
      customer_id: d.customer_id === null ? null : Number(d.customer_id),
      customer_name: d.customer_name,
      invoice_id: d.invoice_id === null ? null : Number(d.invoice_id),
      invoice_number: d.invoice_number,
      gateway_amount_cents: centsOrNull(d.gateway_amount_cents),
      books_amount_cents: centsOrNull(d.books_amount_cents),
      currency: d.currency,
      at: d.at === null ? null : new Date(d.at).toISOString(),
    })),
  };
}
