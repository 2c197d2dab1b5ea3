import { WRITE_OFF_TYPE } from '@pos/domain';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { type creditMemos, type writeOffs } from '../schema';
import { MEMO_REASONS } from './reference-data';
import { DAY, addDays, monthKey, type DemoRun, type DemoBilling } from './demo-run';

/** Credit memos (pending, approved, rejected) on paid invoices and write-offs of old unpaid ones. */
export async function planCredits(
  run: DemoRun,
  { paidInvoices, unpaidOld }: DemoBilling,
): Promise<{ memoRows: PgInsertValue<typeof creditMemos>[]; writeOffRows: PgInsertValue<typeof writeOffs>[] }> {
  const { rng, anchor, today } = run;
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

  return { memoRows, writeOffRows };
}
