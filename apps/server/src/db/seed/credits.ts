import {
  WRITE_OFF_TYPE,
  creditMemoLedgerEntry,
  invoiceBalance,
  transactionLedgerEntry,
  type InvoiceStatus,
  type LedgerEntry,
} from '@pos/domain';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { type creditMemos, type writeOffs } from '../schema';
import { MEMO_REASONS } from './reference-data';
import { DAY, addDays, monthKey, type DemoRun, type DemoBilling } from './demo-run';

/** Credit memos (pending, approved, rejected) on paid invoices and write-offs of old unpaid ones. */
export async function planCredits(
  run: DemoRun,
  billing: DemoBilling,
): Promise<{ memoRows: PgInsertValue<typeof creditMemos>[]; writeOffRows: PgInsertValue<typeof writeOffs>[] }> {
  const { rng, anchor, today } = run;
  const { paidInvoices, unpaidOld } = billing;
  // ── credit memos, write-offs, returns ────────────────────────────────────────────────────────────
  const memoRows: PgInsertValue<typeof creditMemos>[] = [];
  const recentPaid = paidInvoices.filter((p) => monthKey(anchor) - monthKey(p.issued) <= 2);
  const olderPaid = paidInvoices.filter((p) => monthKey(anchor) - monthKey(p.issued) > 2);
  const memo = (p: (typeof paidInvoices)[number], status: 'P' | 'A' | 'R', createdAt: Date) => {
    const reason = rng.pick(MEMO_REASONS);
    const type = reason.startsWith('Refund')
      ? 'R'
      : reason.startsWith('Price match') || reason.startsWith('Tax')
        ? 'A'
        : 'C';
    const amount = Math.max(100, Math.min(p.total, rng.int(5, 60) * 500));
    memoRows.push({
      customerId: p.s.customer.id,
      storeId: p.s.id,
      invoiceId: p.id,
      type,
      status,
      amountCents: amount,
      currency: p.s.customer.currency,
      reason,
      createdByEmail: `${rng.pick(['service', 'support', 'care'])}@example.com`,
      approvedByEmail: status === 'P' ? null : rng.pick(['ar@example.com', 'admin@example.com']),
      decidedAt: status === 'P' ? null : addDays(createdAt, rng.int(1, 4)),
      createdAt,
      updatedAt: createdAt,
    });
  };
  for (const p of rng.sample(recentPaid, 24)) memo(p, 'P', addDays(today, -rng.int(1, 14) - rng.next()));
  for (const p of rng.sample(olderPaid, 30)) memo(p, 'A', addDays(p.issued, rng.int(12, 40)));
  for (const p of rng.sample(olderPaid, 10)) memo(p, 'R', addDays(p.issued, rng.int(12, 40)));

  const writeOffRows = rng
    .sample(
      unpaidOld.filter((u) => u.s.status === 'closed' || monthKey(anchor) - monthKey(u.issued) >= 6),
      12,
    )
    .map((u) => ({
      customerId: u.s.customer.id,
      invoiceId: u.id,
      type: u.s.status === 'closed' ? WRITE_OFF_TYPE.WRITE_OFF_UNRECOVERABLE : WRITE_OFF_TYPE.WRITE_OFF,
      amountCents: u.total,
      currency: u.s.customer.currency,
      reason:
        u.s.status === 'closed'
          ? 'Store closed; balance unrecoverable'
          : 'Small balance written off after collection attempts',
      createdByEmail: 'ar@example.com',
      createdAt: addDays(u.issued, 75 > (today.getTime() - u.issued.getTime()) / DAY ? 1 : 75),
    }));

  settleInvoices(billing, memoRows, writeOffRows);
  return { memoRows, writeOffRows };
}

/**
 * The stored paid_cents and status of every invoice as the ledger derives them (decision 112): an approved refund
 * memo pays money back (the invoice is open again), a write-off of the whole balance settles it (P). Draws nothing
 * from the generator, so every other row stays as it was.
 */
function settleInvoices(
  { invoiceRows, txRows, allocationRows }: DemoBilling,
  memoRows: PgInsertValue<typeof creditMemos>[],
  writeOffRows: PgInsertValue<typeof writeOffs>[],
): void {
  const entries = new Map<number, LedgerEntry[]>();
  const add = (invoiceId: unknown, e: LedgerEntry | null) => {
    if (typeof invoiceId !== 'number' || e === null) return;
    const list = entries.get(invoiceId) ?? [];
    list.push(e);
    entries.set(invoiceId, list);
  };
  for (const t of txRows)
    add(
      t.invoiceId,
      transactionLedgerEntry({ kind: String(t.kind), status: String(t.status), amount_cents: Number(t.amountCents) }),
    );
  for (const a of allocationRows) add(a.invoiceId, { kind: 'money_in', amount_cents: Number(a.amountCents) });
  for (const m of memoRows)
    add(
      m.invoiceId,
      creditMemoLedgerEntry({ type: String(m.type), status: String(m.status), amount_cents: Number(m.amountCents) }),
    );
  for (const w of writeOffRows) add(w.invoiceId, { kind: 'write_off', amount_cents: Number(w.amountCents) });
  for (const inv of invoiceRows) {
    const list = entries.get(Number(inv.id)) ?? [];
    if (inv.reversedAt) list.push({ kind: 'reversal' });
    const b = invoiceBalance(Number(inv.totalCents), list);
    inv.paidCents = b.paid_cents;
    inv.status = b.status satisfies InvoiceStatus;
    inv.openCents = b.open_cents;
    inv.writtenOffCents = b.written_off_cents;
  }
}
