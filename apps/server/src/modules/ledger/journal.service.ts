import type { CurrencyCode, JournalMismatch, LedgerCheckQuery, UnbalancedEntry } from '@pos/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';

/*
 * Reads of the double-entry journal (issue 28, decision 145). The journal is posted by the triggers of migration 0029
 * (journal_sync: what each money row says, by difference); these are the figures derived from it — an invoice's open
 * balance (its receivables, account 1100), a customer's unapplied credit (2100, per currency), what is refundable on
 * an invoice (money received less money paid back, as posted) — and the ledger check's comparisons of the journal
 * with the ledger (invoice_balances and the money tables).
 */

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const n = (v: unknown) => Number(v ?? 0);

/** Invoices' open balances from the journal: Σ debits − Σ credits of their receivables (absent ids: 0). */
export async function journalOpenCents(db: Db, invoiceIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map(invoiceIds.map((id) => [id, 0]));
  if (invoiceIds.length === 0) return out;
  const found = await rows<{ invoice_id: number; cents: string }>(
    db,
    sql`select l.invoice_id, sum(l.debit_cents - l.credit_cents) as cents from journal_lines l
      where l.account = '1100' and l.invoice_id = any(${sql.param([...invoiceIds])}::int[]) group by l.invoice_id`,
  );
  for (const r of found) out.set(Number(r.invoice_id), n(r.cents));
  return out;
}

/** A customer's unapplied credit (credit on account) per currency from the journal: the credit balance of 2100. */
export async function journalUnappliedCents(
  db: Db,
  customerId: number,
): Promise<Partial<Record<CurrencyCode, number>>> {
  const found = await rows<{ currency: CurrencyCode; cents: string }>(
    db,
    sql`select e.currency, sum(l.credit_cents - l.debit_cents) as cents
      from journal_lines l join journal_entries e on e.id = l.entry_id
      where l.customer_id = ${customerId} and l.account = '2100' group by e.currency`,
  );
  return Object.fromEntries(found.map((r) => [r.currency, n(r.cents)]));
}

export interface JournalRefundable {
  /** Money posted to the invoice's receivable: settled charges and receipts applied. */
  readonly receivedCents: number;
  /** Money posted back: refunds, chargebacks, bank returns on the invoice and approved refund memos. */
  readonly refundedCents: number;
  /** Not posted yet but counted against the limit: refund transactions under way, refund memos waiting. */
  readonly pendingCents: number;
  /** received − refunded − pending. */
  readonly refundableCents: number;
}

/**
 * What is refundable on an invoice, from the journal: the receivable lines of its money entries (transactions,
 * receipt applications, refund memos — first postings and their corrections), less the refunds not posted yet.
 */
export async function journalRefundable(db: Db, invoiceId: number): Promise<JournalRefundable> {
  const [r] = await rows<Record<string, string>>(
    db,
    sql`select
      coalesce(sum(l.credit_cents - l.debit_cents) filter (where e.source in ('transaction', 'allocation') and t.kind is distinct from 'refund'
        and t.kind is distinct from 'chargeback' and t.kind is distinct from 'reversal'), 0) as received,
      coalesce(sum(l.debit_cents - l.credit_cents) filter (where t.kind in ('refund', 'chargeback', 'reversal') or m.type = 'R'), 0) as refunded,
      (select coalesce(sum(amount_cents), 0) from transactions where invoice_id = ${invoiceId}
         and kind in ('refund', 'chargeback', 'reversal') and status = 'P')
        + (select coalesce(sum(amount_cents), 0) from credit_memos where invoice_id = ${invoiceId} and type = 'R' and status = 'P')
        as pending
    from journal_lines l
    join journal_entries e on e.id = l.entry_id
    left join transactions t on e.source = 'transaction' and t.id = e.source_id
    left join credit_memos m on e.source = 'memo' and m.id = e.source_id
    where l.account = '1100' and l.invoice_id = ${invoiceId}`,
  );
  const received = n(r?.received);
  const refunded = n(r?.refunded);
  const pending = n(r?.pending);
  return {
    receivedCents: received,
    refundedCents: refunded,
    pendingCents: pending,
    refundableCents: received - refunded - pending,
  };
}

/** The invoices a check covers: all, or an id range. */
function inRange(column: SQL, range: LedgerCheckQuery): SQL {
  return sql`${column} between ${range.from_invoice_id ?? 0} and ${range.to_invoice_id ?? 2_147_483_647}`;
}

const fullCheck = (range: LedgerCheckQuery) => range.from_invoice_id === undefined && range.to_invoice_id === undefined;

/**
 * The journal against the ledger, one statement: per invoice (in the range), its receivables against
 * invoice_balances.open_cents; per customer and currency (a full check only: credit on account is not per invoice),
 * its unapplied cash against receipts not applied + invoices overpaid + charges without an invoice + approved credits
 * and adjustments without an invoice − approved refund memos without one. The first `cap` and the count of all.
 */
export function journalMismatchesSql(cap: number, range: LedgerCheckQuery = {}): SQL {
  const customers = fullCheck(range)
    ? sql`
    union all
    select '2100', coalesce(j.customer_id, d.customer_id), null::int, coalesce(j.currency, d.currency),
      coalesce(j.cents, 0), coalesce(d.cents, 0)
    from (
      select l.customer_id, e.currency, sum(l.credit_cents - l.debit_cents) as cents
      from journal_lines l join journal_entries e on e.id = l.entry_id
      where l.account = '2100' group by 1, 2
    ) j
    full join (
      select x.customer_id, x.currency, sum(x.cents) as cents from (
        select r.customer_id, r.currency, r.amount_cents - coalesce((select sum(a.amount_cents) from receipt_allocations a where a.receipt_id = r.id), 0) as cents
          from receipts r
        union all
        select i.customer_id, i.currency, b.overpaid_cents from invoice_balances b join invoices i on i.id = b.invoice_id
          where b.overpaid_cents <> 0
        union all
        select t.customer_id, t.currency, t.amount_cents from transactions t
          where t.kind = 'charge' and t.status = 'S' and t.invoice_id is null
        union all
        select m.customer_id, m.currency,
          case when m.type = 'R' then -abs(m.amount_cents) when m.type = 'C' then abs(m.amount_cents) else m.amount_cents end
          from credit_memos m where m.status = 'A' and m.invoice_id is null
      ) x group by 1, 2
    ) d on d.customer_id = j.customer_id and d.currency = j.currency
    where coalesce(j.cents, 0) <> coalesce(d.cents, 0)`
    : sql``;
  return sql`
    with receivables as (
      select l.invoice_id, sum(l.debit_cents - l.credit_cents) as cents from journal_lines l
      where l.account = '1100' and ${inRange(sql`l.invoice_id`, range)} group by l.invoice_id
    ),
    mismatches as (
      select '1100' as account, coalesce(b.customer_id, (select e.customer_id from journal_lines l join journal_entries e on e.id = l.entry_id
          where l.invoice_id = j.invoice_id and l.account = '1100' limit 1)) as customer_id,
        coalesce(b.invoice_id, j.invoice_id) as invoice_id,
        coalesce(i.currency, (select e.currency from journal_lines l join journal_entries e on e.id = l.entry_id
          where l.invoice_id = j.invoice_id and l.account = '1100' limit 1)) as currency,
        coalesce(j.cents, 0) as journal_cents, coalesce(b.open_cents, 0) as derived_cents
      from (select b.* from invoice_balances b where ${inRange(sql`b.invoice_id`, range)}) b
      join invoices i on i.id = b.invoice_id
      full join receivables j on j.invoice_id = b.invoice_id
      where coalesce(j.cents, 0) <> coalesce(b.open_cents, 0)
      ${customers}
    )
    select account, customer_id, invoice_id, currency, journal_cents::text as journal_cents,
      derived_cents::text as derived_cents, count(*) over () as total
    from mismatches
    order by account, invoice_id nulls last, customer_id, currency
    limit ${cap}`;
}

/** Entries whose Σ debits ≠ Σ credits, or with no line (in a range check: the entries of those invoices). */
export function unbalancedEntriesSql(cap: number, range: LedgerCheckQuery = {}): SQL {
  const where = fullCheck(range) ? sql`true` : inRange(sql`e.invoice_id`, range);
  return sql`
    select e.id as entry_id, e.kind, e.currency, coalesce(sum(l.debit_cents), 0)::text as debit_cents,
      coalesce(sum(l.credit_cents), 0)::text as credit_cents, count(*) over () as total
    from journal_entries e left join journal_lines l on l.entry_id = e.id
    where ${where}
    group by e.id
    having coalesce(sum(l.debit_cents), 0) <> coalesce(sum(l.credit_cents), 0) or count(l.entry_id) = 0
    order by e.id
    limit ${cap}`;
}

export async function journalMismatches(
  db: Db,
  cap: number,
  range: LedgerCheckQuery = {},
): Promise<{ count: number; list: JournalMismatch[] }> {
  const found = await rows<{
    account: '1100' | '2100';
    customer_id: number | null;
    invoice_id: number | null;
    currency: string | null;
    journal_cents: string;
    derived_cents: string;
    total: string | number;
  }>(db, journalMismatchesSql(cap, range));
  return {
    count: n(found[0]?.total),
    list: found.map((r) => ({
      account: r.account,
      customer_id: r.customer_id === null ? null : Number(r.customer_id),
      invoice_id: r.invoice_id === null ? null : Number(r.invoice_id),
      currency: r.currency ?? '',
      journal_cents: n(r.journal_cents),
      derived_cents: n(r.derived_cents),
    })),
  };
}

export async function unbalancedEntries(
  db: Db,
  cap: number,
  range: LedgerCheckQuery = {},
): Promise<{ count: number; list: UnbalancedEntry[] }> {
  const found = await rows<{
    entry_id: string | number;
    kind: string;
    currency: string;
    debit_cents: string;
    credit_cents: string;
    total: string | number;
  }>(db, unbalancedEntriesSql(cap, range));
  return {
    count: n(found[0]?.total),
    list: found.map((r) => ({
      entry_id: Number(r.entry_id),
      kind: r.kind,
      currency: r.currency,
      debit_cents: n(r.debit_cents),
      credit_cents: n(r.credit_cents),
    })),
  };
}
