import {
  FEES,
  FOUR_EYES_WINDOW_DAYS,
  LEDGER_CHECK_MISMATCH_CAP,
  type LedgerLimitBreach,
  type InvoiceBalance,
  type InvoiceStatus,
  type LedgerCheck,
  type LedgerCheckQuery,
  type LedgerMismatch,
} from '@pos/domain';
import { and, eq, gt, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { invoiceBalances, invoices } from '../../db/schema';
import { journalMismatches, unbalancedEntries } from './journal.service';

/*
 * The ledger on the server (decision 112). The one SQL definition of an invoice's balance is the view
 * invoice_balances (migration 0011), the twin of the domain's invoiceBalance; every server read of a balance goes
 * through it — joined by invoice id, so only that invoice's rows are summed.
 */

export type InvoiceBalanceRow = typeof invoiceBalances.$inferSelect;

/**
 * Past due, for a query of `invoices` joined to `invoice_balances`: the SQL twin of the domain's isInvoiceOverdue
 * (open by the ledger, due before `today`, the billing day), never a reversed invoice. Collection's reads use it.
 */
export function overdueWhere(today: string): SQL {
  return and(isNull(invoices.reversedAt), gt(invoiceBalances.openCents, 0), lt(invoices.dueOn, today))!;
}

/** The view's columns, for a select that joins invoice_balances on invoice_id (one statement for a list). */
export const invoiceBalanceFields = {
  invoiceId: invoiceBalances.invoiceId,
  customerId: invoiceBalances.customerId,
  totalCents: invoiceBalances.totalCents,
  paidCents: invoiceBalances.paidCents,
  creditedCents: invoiceBalances.creditedCents,
  writtenOffCents: invoiceBalances.writtenOffCents,
  reversedCents: invoiceBalances.reversedCents,
  debitedCents: invoiceBalances.debitedCents,
  overpaidCents: invoiceBalances.overpaidCents,
  openCents: invoiceBalances.openCents,
  status: invoiceBalances.status,
};

export { invoiceBalances };

/** A view row as the domain's InvoiceBalance. */
export function toInvoiceBalance(r: Omit<InvoiceBalanceRow, 'storedPaidCents' | 'storedStatus'>): InvoiceBalance {
  return {
    open_cents: r.openCents,
    paid_cents: r.paidCents,
    credited_cents: r.creditedCents,
    written_off_cents: r.writtenOffCents,
    reversed_cents: r.reversedCents,
    debited_cents: r.debitedCents,
    overpaid_cents: r.overpaidCents,
    status: r.status as InvoiceStatus,
  };
}

/** The balances of some invoices by id (one statement; missing ids are absent). */
export async function balancesOf(db: Db, invoiceIds: readonly number[]): Promise<Map<number, InvoiceBalance>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(invoiceBalances)
    .where(inArray(invoiceBalances.invoiceId, [...invoiceIds]));
  return new Map(rows.map((r) => [r.invoiceId, toInvoiceBalance(r)]));
}

/**
 * The invoice's stored paid_cents, status, open_cents and written_off_cents follow the ledger (decisions 112, 137): call it in the transaction that
 * changed what counts for the invoice (a charge's answer, a receipt applied or un-applied, a memo or write-off
 * decided). Returns the row before and the derivation after.
 */
export async function syncInvoice(tx: Db, invoiceId: number, now: Date) {
  const derived = (await balancesOf(tx, [invoiceId])).get(invoiceId)!;
  const [before] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
  await tx
    .update(invoices)
    .set({
      paidCents: derived.paid_cents,
      status: derived.status,
      openCents: derived.open_cents,
      writtenOffCents: derived.written_off_cents,
      debitedCents: derived.debited_cents,
      updatedAt: now,
      version: sql`${invoices.version} + 1`,
    })
    .where(eq(invoices.id, invoiceId));
  return { before: before!, derived };
}

/**
 * Lock the store_balances rows of some invoices' stores, in store order (decision 139): call it before syncing
 * several invoices in one transaction, so that two transactions syncing invoices of the same stores wait for each
 * other instead of each holding one store's row the other needs (the invoice triggers update them in place).
 */
export async function lockStoreBalances(tx: Db, invoiceIds: readonly number[]): Promise<void> {
  if (invoiceIds.length < 2) return;
  await tx.execute(sql`select b.store_id from store_balances b
    where b.store_id in (select i.store_id from invoices i where i.id = any(${sql.param([...invoiceIds])}::int[]))
    order by b.store_id for update`);
}

/**
 * The consistency query: every stored figure that disagrees with the derivation — invoices' paid_cents, status,
 * open_cents and written_off_cents against invoice_balances, receipts' unapplied_cents against amount − allocations. One statement; the first
 * `cap` mismatches (by invoice, then receipt id) and the count of all.
 */
export function ledgerMismatchesSql(cap: number, range: LedgerCheckQuery = {}) {
  const inRange = invoiceRange(sql`b.invoice_id`, range);
  return sql`
    with invoice_mismatches as (
      select b.invoice_id, null::int as receipt_id, f.field, f.stored, f.derived
      from invoice_balances b
      join invoices i on i.id = b.invoice_id
      cross join lateral (values
        ('paid_cents', b.stored_paid_cents::text, b.paid_cents::text),
        ('status', b.stored_status, b.status),
        ('open_cents', i.open_cents::text, b.open_cents::text),
        ('written_off_cents', i.written_off_cents::text, b.written_off_cents::text),
        ('debited_cents', i.debited_cents::text, b.debited_cents::text)
      ) as f(field, stored, derived)
      where (b.stored_paid_cents <> b.paid_cents or b.stored_status <> b.status or i.open_cents <> b.open_cents
          or i.written_off_cents <> b.written_off_cents or i.debited_cents <> b.debited_cents) and f.stored <> f.derived and ${inRange}
    ),
    receipt_mismatches as (
      select null::int as invoice_id, r.id as receipt_id, 'unapplied_cents' as field,
        r.unapplied_cents::text as stored, (r.amount_cents - coalesce(a.allocated, 0))::text as derived
      from receipts r
      left join (select receipt_id, sum(amount_cents) as allocated from receipt_allocations group by receipt_id) a
        on a.receipt_id = r.id
      where r.unapplied_cents <> r.amount_cents - coalesce(a.allocated, 0)
    ),
    all_mismatches as (select * from invoice_mismatches union all select * from receipt_mismatches)
    select invoice_id, receipt_id, field, stored, derived, count(*) over () as total
    from all_mismatches
    order by invoice_id nulls last, receipt_id, field
    limit ${cap}`;
}

interface MismatchRow {
  invoice_id: number | null;
  receipt_id: number | null;
  field: LedgerMismatch['field'];
  stored: string;
  derived: string;
  total: string | number;
}

async function select<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The invoices a check covers: all, or an id range (a check of 12M invoices in slices). */
function invoiceRange(column: SQL, range: LedgerCheckQuery): SQL {
  return sql`${column} between ${range.from_invoice_id ?? 0} and ${range.to_invoice_id ?? 2_147_483_647}`;
}

/**
 * The money limits the books show broken (issue 28, decision 143): what the posting function refuses, found after the
 * fact, so that a row written around it (or a limit the code forgot) is noticed. Refunds against receipts per invoice;
 * credits and write-offs against the total; money paid back to a customer against money it paid in, per currency; and
 * approvals by their own requester of requests that add up past the threshold on one invoice, or on one customer in
 * the window before the request.
 */
export function ledgerLimitBreachesSql(cap: number, range: LedgerCheckQuery = {}) {
  const inRange = invoiceRange(sql`i.id`, range);
  const threshold = FEES.CREDIT_THRESHOLD_CENTS;
  const windowDays = FOUR_EYES_WINDOW_DAYS;
  return sql`
    with per_invoice as (
      select i.id as invoice_id, i.customer_id, i.currency, i.total_cents,
        coalesce((select sum(amount_cents) from transactions t where t.invoice_id = i.id and t.kind = 'charge' and t.status = 'S'), 0)
          + coalesce((select sum(amount_cents) from receipt_allocations a where a.invoice_id = i.id), 0) as received,
        coalesce((select sum(amount_cents) from transactions t where t.invoice_id = i.id
                  and t.kind in ('refund', 'chargeback', 'reversal') and t.status in ('S', 'B')), 0)
          + coalesce((select sum(amount_cents) from credit_memos m where m.invoice_id = i.id and m.type = 'R' and m.status = 'A'), 0)
          as refunded,
        coalesce((select sum(amount_cents) from credit_memos m where m.invoice_id = i.id and m.type in ('C', 'A') and m.status = 'A'), 0)
          + coalesce((select sum(amount_cents) from write_offs w where w.invoice_id = i.id and w.status = 'A'), 0) as credited
      from invoices i
      where ${inRange}
        and (exists (select 1 from credit_memos m where m.invoice_id = i.id and m.status = 'A')
          or exists (select 1 from write_offs w where w.invoice_id = i.id and w.status = 'A')
          or exists (select 1 from transactions t where t.invoice_id = i.id and t.kind in ('refund', 'chargeback', 'reversal')))
    ),
    invoice_breaches as (
      select 'refunded_more_than_received' as kind, customer_id, invoice_id, currency, refunded as amount, received as lim,
        null::int as memo_id, null::int as write_off_id
      from per_invoice where refunded > received
      union all
      select 'credited_more_than_total', customer_id, invoice_id, currency, credited, total_cents, null, null
      from per_invoice where credited > total_cents
    ),
    money_in as (
      select customer_id, currency, sum(amount_cents) as cents from transactions
        where kind = 'charge' and status = 'S' group by customer_id, currency
      union all
      select customer_id, currency, sum(amount_cents) from receipts group by customer_id, currency
    ),
    money_out as (
      select customer_id, currency, sum(amount_cents) as cents from transactions
        where kind in ('refund', 'chargeback', 'reversal') and status in ('S', 'B') and invoice_id is not null
        group by customer_id, currency
      union all
      select customer_id, currency, sum(amount_cents) from credit_memos where type = 'R' and status = 'A'
        group by customer_id, currency
    ),
    customer_breaches as (
      select 'paid_back_more_than_paid_in' as kind, o.customer_id, null::int as invoice_id, o.currency,
        o.cents as amount, coalesce(i.cents, 0) as lim, null::int as memo_id, null::int as write_off_id
      from (select customer_id, currency, sum(cents) as cents from money_out group by customer_id, currency) o
      left join (select customer_id, currency, sum(cents) as cents from money_in group by customer_id, currency) i
        on i.customer_id = o.customer_id and i.currency = o.currency
      where o.cents > coalesce(i.cents, 0)
    ),
    requests as (
      select id as memo_id, null::int as write_off_id, customer_id, invoice_id, currency, abs(amount_cents) as cents,
        status, lower(created_by_email) as requester, lower(approved_by_email) as decider, created_at, decided_at
      from credit_memos where status in ('P', 'A')
      union all
      select null, id, customer_id, invoice_id, currency, amount_cents, status, lower(created_by_email),
        lower(approved_by_email), created_at, decided_at
      from write_offs where status in ('P', 'A')
    ),
    four_eyes as (
      select 'four_eyes_split' as kind, r.customer_id, r.invoice_id, r.currency,
        greatest(
          (select coalesce(sum(o.cents), 0) from requests o where o.requester = r.requester and o.invoice_id = r.invoice_id
             and o.created_at <= greatest(r.decided_at, r.created_at)),
          (select coalesce(sum(o.cents), 0) from requests o where o.requester = r.requester and o.customer_id = r.customer_id
             and o.created_at between greatest(r.decided_at, r.created_at) - make_interval(days => ${windowDays})
               and greatest(r.decided_at, r.created_at))
        ) as amount,
        ${threshold}::bigint as lim, r.memo_id, r.write_off_id
      from requests r
      where r.status = 'A' and r.decider = r.requester
    ),
    breaches as (
      select * from invoice_breaches
      union all select * from customer_breaches
      union all select * from four_eyes where amount > lim
    )
    select kind, customer_id, invoice_id, currency, amount::text as amount, lim::text as lim, memo_id, write_off_id,
      count(*) over () as total
    from breaches
    order by customer_id, invoice_id nulls first, kind, memo_id, write_off_id
    limit ${cap}`;
}

interface BreachRow {
  kind: LedgerLimitBreach['kind'];
  customer_id: number;
  invoice_id: number | null;
  currency: string;
  amount: string;
  lim: string;
  memo_id: number | null;
  write_off_id: number | null;
  total: string | number;
}

/** GET /api/billing/ledger-check/{token}?from_invoice_id&to_invoice_id (Admin). */
export async function ledgerCheck(ctx: ServiceCtx, range: LedgerCheckQuery = {}): Promise<LedgerCheck> {
  const db = ctx.app.database.db;
  const rows = await select<MismatchRow>(db, ledgerMismatchesSql(LEDGER_CHECK_MISMATCH_CAP, range));
  const counts = await select<{ invoices: string | number; receipts: string | number }>(
    db,
    sql`select (select count(*) from invoices i where ${invoiceRange(sql`i.id`, range)}) as invoices,
      (select count(*) from receipts) as receipts`,
  );
  const num = (v: string) => (v !== '' && /^-?\d+$/.test(v) ? Number(v) : v);
  const list = rows.map((r): LedgerMismatch => ({
    invoice_id: r.invoice_id,
    receipt_id: r.receipt_id,
    field: r.field,
    stored: r.field === 'status' ? r.stored : num(r.stored),
    derived: r.field === 'status' ? r.derived : num(r.derived),
  }));
  const breachRows = await select<BreachRow>(db, ledgerLimitBreachesSql(LEDGER_CHECK_MISMATCH_CAP, range));
  const breaches = breachRows.map((b): LedgerLimitBreach => ({
    kind: b.kind,
    customer_id: Number(b.customer_id),
    invoice_id: b.invoice_id === null ? null : Number(b.invoice_id),
    currency: b.currency,
    amount_cents: Number(b.amount),
    limit_cents: Number(b.lim),
    memo_id: b.memo_id === null ? null : Number(b.memo_id),
    write_off_id: b.write_off_id === null ? null : Number(b.write_off_id),
  }));
  const journal = await journalMismatches(db, LEDGER_CHECK_MISMATCH_CAP, range);
  const unbalanced = await unbalancedEntries(db, LEDGER_CHECK_MISMATCH_CAP, range);
  const c = counts[0]!;
  const mismatchCount = Number(rows[0]?.total ?? 0);
  const breachCount = Number(breachRows[0]?.total ?? 0);
  return {
    checked_invoices: Number(c.invoices),
    checked_receipts: Number(c.receipts),
    mismatch_count: mismatchCount,
    mismatches: list,
    limit_breach_count: breachCount,
    limit_breaches: breaches,
    journal_mismatch_count: journal.count,
    journal_mismatches: journal.list,
    unbalanced_entry_count: unbalanced.count,
    unbalanced_entries: unbalanced.list,
    ok: mismatchCount === 0 && breachCount === 0 && journal.count === 0 && unbalanced.count === 0,
    checked_at: ctx.app.clock.now().toISOString(),
  };
}
