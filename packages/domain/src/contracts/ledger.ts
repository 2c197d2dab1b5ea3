import { z } from 'zod';

/*
 * The ledger check (decision 112), Admin only:
 *   GET /api/billing/ledger-check/{token}?from_invoice_id&to_invoice_id → ledgerCheck
 * (the range, both ends included, lets a 12M-invoice ledger be checked in slices; receipts are always all checked)
 * Lists invoices whose stored paid_cents or status differ from the ledger's derivation (invoiceBalance and its SQL
 * twin, the invoice_balances view), and receipts whose unapplied_cents differ from amount − allocations. The list is
 * capped at LEDGER_CHECK_MISMATCH_CAP; mismatch_count counts them all.
 */

export const LEDGER_CHECK_MISMATCH_CAP = 200;

const invoiceId = z.coerce.number().int().min(1).max(2_147_483_647);
export const ledgerCheckQuery = z
  .object({ from_invoice_id: invoiceId.optional(), to_invoice_id: invoiceId.optional() })
  .refine(
    (q) => q.from_invoice_id === undefined || q.to_invoice_id === undefined || q.from_invoice_id <= q.to_invoice_id,
    {
      message: 'from_invoice_id must not be after to_invoice_id.',
      path: ['to_invoice_id'],
    },
  );
export type LedgerCheckQuery = z.infer<typeof ledgerCheckQuery>;

export const LEDGER_CHECK_FIELDS = [
  'paid_cents',
  'status',
  'open_cents',
  'written_off_cents',
  'debited_cents',
  'unapplied_cents',
] as const;

export const ledgerMismatch = z.object({
  /** The invoice (paid_cents, status), or null for a receipt's figure. */
  invoice_id: z.number().int().nullable(),
  /** The receipt (unapplied_cents), or null for an invoice's figure. */
  receipt_id: z.number().int().nullable(),
  field: z.enum(LEDGER_CHECK_FIELDS),
  stored: z.union([z.number(), z.string()]),
  derived: z.union([z.number(), z.string()]),
});
export type LedgerMismatch = z.infer<typeof ledgerMismatch>;

/**
 * A money limit the books show broken (issue 28, decision 143) — what the posting function refuses, found after the
 * fact: more refunded on an invoice than was received on it; more credited and written off than the invoice's total;
 * more paid back to a customer (in one currency) than it ever paid; a credit, refund or write-off approved by its own
 * requester although the requester's requests on that invoice, or on that customer in 30 days, add up past the
 * four-eyes threshold.
 */
export const LEDGER_LIMIT_KINDS = [
  'refunded_more_than_received',
  'credited_more_than_total',
  'paid_back_more_than_paid_in',
  'four_eyes_split',
] as const;
export type LedgerLimitKind = (typeof LEDGER_LIMIT_KINDS)[number];

export const ledgerLimitBreach = z.object({
  kind: z.enum(LEDGER_LIMIT_KINDS),
  customer_id: z.number().int(),
  invoice_id: z.number().int().nullable(),
  currency: z.string(),
  /** The figure over its limit, and the limit (cents). */
  amount_cents: z.number().int(),
  limit_cents: z.number().int(),
  /** The memo or write-off that broke it (four-eyes), when one did. */
  memo_id: z.number().int().nullable(),
  write_off_id: z.number().int().nullable(),
});
export type LedgerLimitBreach = z.infer<typeof ledgerLimitBreach>;

/**
 * The journal against the ledger (issue 28, decision 145): an invoice's receivables (account 1100) against its open
 * balance (invoice_balances), and a customer's unapplied cash (2100, per currency) against its credit on account as
 * the money tables say it (receipts not applied, invoices overpaid, charges without an invoice, approved memos
 * without one). journal_cents and derived_cents are both positive on the account's normal side.
 */
export const journalMismatch = z.object({
  account: z.enum(['1100', '2100']),
  customer_id: z.number().int().nullable(),
  invoice_id: z.number().int().nullable(),
  currency: z.string(),
  journal_cents: z.number().int(),
  derived_cents: z.number().int(),
});
export type JournalMismatch = z.infer<typeof journalMismatch>;

/** A journal entry whose debits and credits differ (or that has no lines): only a row written around the triggers. */
export const unbalancedEntry = z.object({
  entry_id: z.number().int(),
  kind: z.string(),
  currency: z.string(),
  debit_cents: z.number().int(),
  credit_cents: z.number().int(),
});
export type UnbalancedEntry = z.infer<typeof unbalancedEntry>;

export const ledgerCheck = z.object({
  checked_invoices: z.number().int(),
  checked_receipts: z.number().int(),
  mismatch_count: z.number().int(),
  mismatches: z.array(ledgerMismatch),
  /** Money limits the books show broken (capped like mismatches). */
  limit_breach_count: z.number().int(),
  limit_breaches: z.array(ledgerLimitBreach),
  /** The journal's receivables and unapplied cash against the ledger (capped like mismatches). */
  journal_mismatch_count: z.number().int(),
  journal_mismatches: z.array(journalMismatch),
  /** Entries whose debits and credits differ (capped like mismatches). */
  unbalanced_entry_count: z.number().int(),
  unbalanced_entries: z.array(unbalancedEntry),
  /** No mismatch, no broken limit, the journal agrees and balances. */
  ok: z.boolean(),
  checked_at: z.string(),
});
export type LedgerCheck = z.infer<typeof ledgerCheck>;
