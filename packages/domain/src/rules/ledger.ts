import type { CreditMemoStatus, CreditMemoType, InvoiceStatus } from '../codes/invoices';
import type { TransactionStatus } from '../codes/transactions';

/*
 * The ledger of one invoice (decision 112): ONE function, invoiceBalance, computes an invoice's open balance and
 * status; the server's SQL view invoice_balances is its twin (apps/server/src/modules/ledger), and a consistency
 * check proves stored paid_cents / status equal the derivation.
 *
 * What moves an invoice's balance:
 *   money_in    a charge transaction in status S; a receipt allocation (money received outside the gateway)
 *   money_out   a refund / chargeback / reversal transaction in status S or B; an approved refund memo (type R):
 *               money paid back to the merchant — it raises the balance unless it refunds an overpayment or a credit
 *   credit      an approved credit memo (type C, lowers the balance) or adjustment (type A, signed: a positive
 *               amount lowers the balance, a negative one raises it)
 *   write_off   an approved write-off (142 or 164; pending and rejected ones wait like memos)
 *   reversal    the invoice was reversed: whatever is still open is cancelled (open 0, status R)
 * Nothing else counts: charges in status V, P, R (reprocessed), F, B or C carry no money (a charge in B or C was
 * charged back or refunded on the charge itself), fee transactions are not payments, pending or rejected memos wait.
 *
 * Application (entry order never matters, only the sums): payments first, then credits, then write-offs, each up
 * to what is still owed (a credit memo on a paid invoice is a credit balance until refunded); what money or credit is left over is overpaid_cents (a credit balance, never a negative
 * balance); write-offs beyond the balance are dropped. Net money out beyond money in, and net negative adjustments,
 * are debits: they raise what is owed above the total (debited_cents). Hence always
 *   total + debited = paid + credited + written_off + reversed + open,   open >= 0,
 * and status: R when reversed, else N while open > 0, else P.
 */

export type LedgerEntry =
  | { readonly kind: 'money_in'; readonly amount_cents: number }
  | { readonly kind: 'money_out'; readonly amount_cents: number }
  | { readonly kind: 'credit'; readonly amount_cents: number }
  | { readonly kind: 'write_off'; readonly amount_cents: number }
  | { readonly kind: 'reversal' };

export interface InvoiceBalance {
  /** What is still owed; never below zero; 0 when reversed. */
  open_cents: number;
  /** Money applied to the invoice (net of money paid back), at most what is owed. */
  paid_cents: number;
  /** Credit applied (credit memos and adjustments), at most what is owed after payments. */
  credited_cents: number;
  written_off_cents: number;
  /** The part of the total a reversal cancelled (0 unless reversed). */
  reversed_cents: number;
  /** Net debits: money out beyond money in, negative adjustments beyond credits. */
  debited_cents: number;
  /** Money or credit beyond what was owed (a credit balance of the merchant). */
  overpaid_cents: number;
  status: InvoiceStatus;
}

/**
 * Overdue: due before `today` (YYYY-MM-DD, the billing day) with something still open by the ledger. The invoices
 * screen's filter and the customer header's oldest overdue date are its SQL twins (`due_on < today and open_cents > 0`).
 */
export function isInvoiceOverdue(
  inv: { readonly due_on: string; readonly open_cents: number },
  today: string,
): boolean {
  return inv.open_cents > 0 && inv.due_on < today;
}

/** The status an invoice's figures imply: R reversed, N pending while anything is open, P paid (settled). */
export function invoiceStatusOf(b: { readonly reversed: boolean; readonly open_cents: number }): InvoiceStatus {
  if (b.reversed) return 'R';
  return b.open_cents > 0 ? 'N' : 'P';
}

function cents(n: number): number {
  if (!Number.isSafeInteger(n)) throw new RangeError(`Ledger amounts are integer cents, got ${n}.`);
  return n;
}

/** The one balance of an invoice from its total and ledger entries (any order). */
export function invoiceBalance(totalCents: number, entries: readonly LedgerEntry[]): InvoiceBalance {
  const total = cents(totalCents);
  if (total < 0) throw new RangeError(`An invoice total is never negative, got ${total}.`);
  let money = 0;
  let credit = 0;
  let writeOff = 0;
  let reversed = false;
  for (const e of entries) {
    switch (e.kind) {
      case 'money_in':
        money += Math.abs(cents(e.amount_cents));
        break;
      case 'money_out':
        money -= Math.abs(cents(e.amount_cents));
        break;
      case 'credit':
        credit += cents(e.amount_cents);
        break;
      case 'write_off':
        writeOff += Math.abs(cents(e.amount_cents));
        break;
      case 'reversal':
        reversed = true;
        break;
    }
  }
  const debited = Math.max(0, -money) + Math.max(0, -credit);
  const owed = total + debited;
  const creditIn = Math.max(0, credit);
  const moneyIn = Math.max(0, money);
  const paid = Math.min(moneyIn, owed);
  const credited = Math.min(creditIn, owed - paid);
  const writtenOff = Math.min(writeOff, owed - credited - paid);
  const remaining = owed - credited - paid - writtenOff;
  const open = reversed ? 0 : remaining;
  return {
    open_cents: open,
    paid_cents: paid,
    credited_cents: credited,
    written_off_cents: writtenOff,
    reversed_cents: reversed ? remaining : 0,
    debited_cents: debited,
    overpaid_cents: moneyIn - paid + (creditIn - credited),
    status: invoiceStatusOf({ reversed, open_cents: open }),
  };
}

/* ── Rows → entries: the mapping the SQL view mirrors ─────────────────────────────────────────────────────── */

export const LEDGER_MONEY_OUT_TRANSACTION_KINDS = ['refund', 'chargeback', 'reversal'] as const;

/** A transaction's ledger entry, or null when it carries no money for the invoice. */
export function transactionLedgerEntry(t: {
  readonly kind: string;
  readonly status: TransactionStatus | string;
  readonly amount_cents: number;
}): LedgerEntry | null {
  if (t.kind === 'charge') return t.status === 'S' ? { kind: 'money_in', amount_cents: t.amount_cents } : null;
  if ((LEDGER_MONEY_OUT_TRANSACTION_KINDS as readonly string[]).includes(t.kind))
    return t.status === 'S' || t.status === 'B' ? { kind: 'money_out', amount_cents: t.amount_cents } : null;
  return null;
}

/** A credit memo's ledger entry: only approved memos count; R refunds money, C credits, A adjusts (signed). */
export function creditMemoLedgerEntry(m: {
  readonly type: CreditMemoType | string;
  readonly status: CreditMemoStatus | string;
  readonly amount_cents: number;
}): LedgerEntry | null {
  if (m.status !== 'A') return null;
  if (m.type === 'R') return { kind: 'money_out', amount_cents: m.amount_cents };
  if (m.type === 'C') return { kind: 'credit', amount_cents: Math.abs(m.amount_cents) };
  if (m.type === 'A') return { kind: 'credit', amount_cents: m.amount_cents };
  return null;
}
