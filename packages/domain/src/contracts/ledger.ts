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

export const ledgerCheck = z.object({
  checked_invoices: z.number().int(),
  checked_receipts: z.number().int(),
  mismatch_count: z.number().int(),
  mismatches: z.array(ledgerMismatch),
  checked_at: z.string(),
});
export type LedgerCheck = z.infer<typeof ledgerCheck>;
