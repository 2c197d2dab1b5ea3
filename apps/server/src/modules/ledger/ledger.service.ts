import {
  LEDGER_CHECK_MISMATCH_CAP,
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
        ('written_off_cents', i.written_off_cents::text, b.written_off_cents::text)
      ) as f(field, stored, derived)
      where (b.stored_paid_cents <> b.paid_cents or b.stored_status <> b.status or i.open_cents <> b.open_cents
          or i.written_off_cents <> b.written_off_cents) and f.stored <> f.derived and ${inRange}
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
  const c = counts[0]!;
  return {
    checked_invoices: Number(c.invoices),
    checked_receipts: Number(c.receipts),
    mismatch_count: Number(rows[0]?.total ?? 0),
    mismatches: list,
    checked_at: ctx.app.clock.now().toISOString(),
  };
}
