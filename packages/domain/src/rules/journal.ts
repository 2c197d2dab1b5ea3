import { ACCOUNT, REVENUE_ACCOUNT_BY_INVOICE_TYPE, type AccountCode, type JournalEntryKind } from '../codes/accounts';
import type { InvoiceType } from '../codes/invoices';
import type { InvoiceBalance } from './ledger';

/*
 * What each movement of money or credit posts to the journal (issue 28, decisions 143 and 145): ONE function,
 * journalLines, says the lines of one balanced entry; the SQL functions journal_expected_* of migration 0029 are its
 * twins (the triggers post what they say, by difference). Amounts are integer cents; a line is a debit or a credit.
 *
 * Receivables (1100) are kept per invoice. Movements post linearly (a charge credits receivables with all of its
 * amount); the invoice's settlement entry then moves what the ledger's application rule (invoiceBalance: payments,
 * then credits, then write-offs, each up to what is owed) leaves over: an overpayment to unapplied cash (2100), a
 * write-off beyond the balance back out of the write-off expense, and on reversal what is still open to reversals
 * (4950). Hence the journal's receivables of an invoice equal its ledger open balance.
 */

export interface JournalLine {
  readonly account: AccountCode;
  /** The line names the customer (1100, 2100) and, for receivables, the invoice. */
  readonly sub: 'invoice' | 'customer' | null;
  readonly debit_cents: number;
  readonly credit_cents: number;
}

export type JournalMovement =
  | {
      readonly kind: 'invoice_issued';
      readonly invoiceType: InvoiceType;
      readonly totalCents: number;
      readonly taxCents: number;
    }
  | { readonly kind: 'charge_captured'; readonly amountCents: number; readonly onInvoice: boolean }
  | {
      readonly kind: 'refund' | 'chargeback' | 'bank_return';
      readonly amountCents: number;
      readonly onInvoice: boolean;
    }
  | { readonly kind: 'fee'; readonly amountCents: number }
  | { readonly kind: 'receipt_received'; readonly amountCents: number; readonly method: string }
  | { readonly kind: 'receipt_applied' | 'receipt_unapplied'; readonly amountCents: number }
  | { readonly kind: 'credit'; readonly amountCents: number; readonly onInvoice: boolean }
  /** Signed: a positive adjustment lowers the balance (a credit), a negative one raises it (a debit). */
  | { readonly kind: 'adjustment'; readonly amountCents: number; readonly onInvoice: boolean }
  | { readonly kind: 'refund_memo'; readonly amountCents: number; readonly onInvoice: boolean }
  | { readonly kind: 'write_off'; readonly amountCents: number }
  | {
      readonly kind: 'invoice_settled';
      readonly overpaidCents: number;
      readonly excessWriteOffCents: number;
      readonly reversedCents: number;
    };

/** A signed amount (debit positive) as a line; zero amounts give no line. */
function line(account: AccountCode, amount: number, sub: JournalLine['sub'] = null): JournalLine[] {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`Journal amounts are integer cents, got ${amount}.`);
  if (amount === 0) return [];
  return [{ account, sub, debit_cents: Math.max(0, amount), credit_cents: Math.max(0, -amount) }];
}

const receivable = (amount: number) => line(ACCOUNT.RECEIVABLE, amount, 'invoice');
const unapplied = (amount: number) => line(ACCOUNT.UNAPPLIED_CASH, amount, 'customer');
/** The customer side of a movement: the invoice's receivable, or the customer's credit on account. */
const customerSide = (onInvoice: boolean, amount: number) => (onInvoice ? receivable(amount) : unapplied(amount));

/** The lines of one movement's entry (possibly none: nothing moved). They always balance. */
export function journalLines(m: JournalMovement): JournalLine[] {
  switch (m.kind) {
    case 'invoice_issued':
      return [
        ...receivable(m.totalCents),
        ...line(ACCOUNT.SALES_TAX_PAYABLE, -m.taxCents),
        ...line(REVENUE_ACCOUNT_BY_INVOICE_TYPE[m.invoiceType], -(m.totalCents - m.taxCents)),
      ];
    case 'charge_captured':
      return [...line(ACCOUNT.CASH_IN_TRANSIT, m.amountCents), ...customerSide(m.onInvoice, -m.amountCents)];
    case 'refund':
    case 'chargeback':
    case 'bank_return':
      // Without an invoice it pays out a refund memo (the memo owes it: refunds payable).
      return [
        ...(m.onInvoice ? receivable(m.amountCents) : line(ACCOUNT.REFUNDS_PAYABLE, m.amountCents)),
        ...line(ACCOUNT.CASH_IN_TRANSIT, -m.amountCents),
      ];
    case 'fee':
      return [...line(ACCOUNT.CASH_IN_TRANSIT, m.amountCents), ...line(ACCOUNT.REVENUE_FEES, -m.amountCents)];
    case 'receipt_received':
      return [
        ...line(m.method === 'card' ? ACCOUNT.CASH_IN_TRANSIT : ACCOUNT.BANK, m.amountCents),
        ...unapplied(-m.amountCents),
      ];
    case 'receipt_applied':
      return [...unapplied(m.amountCents), ...receivable(-m.amountCents)];
    case 'receipt_unapplied':
      return [...receivable(m.amountCents), ...unapplied(-m.amountCents)];
    case 'credit':
      return [...line(ACCOUNT.CREDITS_ALLOWED, m.amountCents), ...customerSide(m.onInvoice, -m.amountCents)];
    case 'adjustment':
      return m.amountCents >= 0
        ? [...line(ACCOUNT.CREDITS_ALLOWED, m.amountCents), ...customerSide(m.onInvoice, -m.amountCents)]
        : [...customerSide(m.onInvoice, -m.amountCents), ...line(ACCOUNT.REVENUE_OTHER, m.amountCents)];
    case 'refund_memo':
      return [...customerSide(m.onInvoice, m.amountCents), ...line(ACCOUNT.REFUNDS_PAYABLE, -m.amountCents)];
    case 'write_off':
      return [...line(ACCOUNT.WRITE_OFF_EXPENSE, m.amountCents), ...receivable(-m.amountCents)];
    case 'invoice_settled':
      return [
        ...receivable(m.overpaidCents + m.excessWriteOffCents - m.reversedCents),
        ...unapplied(-m.overpaidCents),
        ...line(ACCOUNT.WRITE_OFF_EXPENSE, -m.excessWriteOffCents),
        ...line(ACCOUNT.REVERSALS, m.reversedCents),
      ];
  }
}

/** The entry kind a movement posts as (an adjustment that raises the balance is a debit adjustment). */
export function journalEntryKind(m: JournalMovement): JournalEntryKind {
  if (m.kind === 'adjustment') return m.amountCents >= 0 ? 'adjustment' : 'debit_adjustment';
  if (m.kind === 'invoice_settled') return m.reversedCents !== 0 ? 'invoice_reversed' : 'invoice_settled';
  return m.kind;
}

/**
 * The settlement an invoice's ledger balance implies (`approvedWriteOffCents`: the sum of its approved write-offs,
 * of which the balance kept `written_off_cents`).
 */
export function invoiceSettlement(b: InvoiceBalance, approvedWriteOffCents: number): JournalMovement {
  return {
    kind: 'invoice_settled',
    overpaidCents: b.overpaid_cents,
    excessWriteOffCents: approvedWriteOffCents - b.written_off_cents,
    reversedCents: b.reversed_cents,
  };
}

/** Σ debits − Σ credits of some lines (0 for a balanced entry). */
export function journalImbalance(lines: readonly JournalLine[]): number {
  return lines.reduce((s, l) => s + l.debit_cents - l.credit_cents, 0);
}

/** The balance (debit positive) of one account over some lines. */
export function accountBalance(lines: readonly JournalLine[], account: AccountCode): number {
  return lines.filter((l) => l.account === account).reduce((s, l) => s + l.debit_cents - l.credit_cents, 0);
}
