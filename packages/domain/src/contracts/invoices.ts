import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { INVOICE_STATUSES, INVOICE_TYPES, type InvoiceStatus, type InvoiceType } from '../codes/invoices';
import { cappedPagedList, paginationQuerySchema, queryValueList } from './common';
import { creditInvoice, creditMemo, invoice, invoiceLine, queryBooleanSchema, transaction } from './customer-accounts';
import { auditEntry, sortSchema } from './customers';

/*
 * The invoices screen (#/view-invoices, privilege `invoices`; issue 14 point 4, decision 114):
 *   GET  /api/invoices/{token}?status&type&customer_id&store_id&currency&issued_from&issued_to&due_from&due_to
 *        &overdue&q&sort&limit&offset[&format=csv]                       → invoiceSearchResult (CSV: every row)
 *   GET  /api/invoices/{invoiceId}/{token}                               → invoicePage
 *   GET  /api/invoices/{invoiceId}/pdf/{token}                           → application/pdf
 *   POST /api/invoices/{invoiceId}/email/{token}  (empty body)           → invoiceEmailResult
 * Every balance is the ledger's (decision 112: the view invoice_balances, twin of invoiceBalance).
 */

const MAX_ID = 2_147_483_647;
const isoDate = (what: string) => z.iso.date({ message: `Enter the ${what} as YYYY-MM-DD.` });
const queryId = (what: string) =>
  z.coerce
    .number({ message: `The ${what} is a number.` })
    .int({ message: `The ${what} is a whole number.` })
    .min(1, { message: `The ${what} is at least 1.` })
    .max(MAX_ID, { message: `The ${what} is too large.` });

export const INVOICE_SEARCH_SORT_FIELDS = [
  'issued_on',
  'due_on',
  'invoice_number',
  'total_cents',
  'customer_id',
  'status',
] as const;
export type InvoiceSearchSortField = (typeof INVOICE_SEARCH_SORT_FIELDS)[number];
/** Newest first; ties by id, in the sort's direction (an index walk of (issued_on, id)). */
export const INVOICE_SEARCH_DEFAULT_SORT = '-issued_on';
/** Text filter: at least this many characters (a shorter one would match nearly everything). */
export const INVOICE_TEXT_MIN = 2;

export const invoiceSearchQuery = paginationQuerySchema
  .extend({
    /** One status or several (`N,P`). */
    status: queryValueList<InvoiceStatus>(INVOICE_STATUSES, 'Status is N (pending), P (paid) or R (reversed).'),
    /** One type or several (`S,M`). */
    type: queryValueList<InvoiceType>(INVOICE_TYPES, `Type is one of ${INVOICE_TYPES.join(', ')}.`),
    customer_id: queryId('customer id').optional(),
    store_id: queryId('store id').optional(),
    currency: z.enum(CURRENCY_CODES, { message: `Currency is one of ${CURRENCY_CODES.join(', ')}.` }).optional(),
    issued_from: isoDate('first issue date').optional(),
    issued_to: isoDate('last issue date').optional(),
    due_from: isoDate('first due date').optional(),
    due_to: isoDate('last due date').optional(),
    /** Due before today with an open balance (ledger) above zero. */
    overdue: queryBooleanSchema.default(false),
    /** Text in the merchant's legal name or the store's DBA (the searched text of decision 111). */
    q: z
      .string()
      .trim()
      .min(INVOICE_TEXT_MIN, { message: `Type at least ${INVOICE_TEXT_MIN} characters to search by name.` })
      .max(100, { message: 'Search text is at most 100 characters.' })
      .optional(),
    sort: sortSchema(INVOICE_SEARCH_SORT_FIELDS),
    format: z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json'),
  })
  .superRefine((q, ctx) => {
    if (q.issued_from && q.issued_to && q.issued_from > q.issued_to)
      ctx.addIssue({ code: 'custom', path: ['issued_to'], message: 'The last issue date is before the first.' });
    if (q.due_from && q.due_to && q.due_from > q.due_to)
      ctx.addIssue({ code: 'custom', path: ['due_to'], message: 'The last due date is before the first.' });
  });
export type InvoiceSearchQuery = z.infer<typeof invoiceSearchQuery>;

/** One row of the list: the invoice (balance from the ledger) with its merchant's and store's names. */
export const invoiceSearchItem = invoice.extend({
  legal_name: z.string(),
  doing_business_as: z.string().nullable(),
  /** Due before today with an open balance. */
  overdue: z.boolean(),
});
export type InvoiceSearchItem = z.infer<typeof invoiceSearchItem>;
export const invoiceSearchResult = cappedPagedList(invoiceSearchItem);
export type InvoiceSearchResult = z.infer<typeof invoiceSearchResult>;

/** The CSV's columns (format=csv: every row the filters match, in the list's order). */
export const INVOICE_CSV_COLUMNS = [
  'id',
  'invoice_number',
  'customer_id',
  'legal_name',
  'store_id',
  'doing_business_as',
  'status',
  'type',
  'issued_on',
  'due_on',
  'currency',
  'total_cents',
  'tax_cents',
  'paid_cents',
  'balance_cents',
  'overdue',
] as const satisfies readonly (keyof InvoiceSearchItem)[];

export const invoiceIdParams = z.object({ invoiceId: queryId('invoice id'), token: z.string() });

export const invoiceWriteOff = z.object({
  id: z.number().int(),
  /** 142 Write_Off, 164 Write_Off Unrecoverable. */
  type: z.number().int(),
  amount_cents: z.number().int(),
  currency: z.string(),
  reason: z.string(),
  created_by_email: z.string(),
  created_at: z.string(),
  /** P waiting for approval, A approved (counts), R rejected (issue 16); who decided and when. */
  status: z.string().optional(),
  approved_by_email: z.string().nullable().optional(),
  decided_at: z.string().nullable().optional(),
});
export type InvoiceWriteOff = z.infer<typeof invoiceWriteOff>;

/** A receipt's amount applied to the invoice (money received outside the gateway). */
export const invoiceReceiptApplied = z.object({
  receipt_id: z.number().int(),
  method: z.string(),
  reference: z.string().nullable(),
  received_on: z.string(),
  amount_cents: z.number().int(),
  allocated_by_email: z.string(),
  allocated_at: z.string(),
});
export type InvoiceReceiptApplied = z.infer<typeof invoiceReceiptApplied>;

/** The ledger of the invoice (decision 112): total + debited = paid + credited + written off + reversed + open. */
export const invoiceLedger = z.object({
  open_cents: z.number().int(),
  paid_cents: z.number().int(),
  credited_cents: z.number().int(),
  written_off_cents: z.number().int(),
  reversed_cents: z.number().int(),
  debited_cents: z.number().int(),
  overpaid_cents: z.number().int(),
});

/** GET /api/invoices/{invoiceId}/{token}: everything the invoice page shows. */
/** One journal entry an invoice's money posted (issue 29: the sale, its tax, the capture), with every line. */
export const invoiceJournalEntry = z.object({
  entry_id: z.number().int(),
  kind: z.string(),
  kind_label: z.string(),
  effective_on: z.string(),
  lines: z.array(
    z.object({
      account: z.string(),
      account_name: z.string(),
      debit_cents: z.number().int(),
      credit_cents: z.number().int(),
    }),
  ),
});

export const invoicePage = invoiceSearchItem.extend({
  /** The type R credit invoice that nets it once reversed (decision 152); null otherwise. */
  credit_invoice: creditInvoice.nullable(),
  /** The journal entries of the invoice, oldest first: what its issue, payments, credits and reversal posted. */
  journal: z.array(invoiceJournalEntry),
  /** The stored lines; a line of the tax item (6) is the invoice's tax — print invoiceItemLines(lines) (decision 149). */
  lines: z.array(invoiceLine.extend({ billing_item_name: z.string() })),
  /** The tax once, per component named for the jurisdiction (domain taxLines: they add up to tax_cents; 149). */
  tax_lines: z.array(
    z.object({
      component: z.enum(['GST', 'HST', 'PST', 'STATE']).nullable(),
      label: z.string(),
      rate_basis_points: z.number().int().nullable(),
      amount_cents: z.number().int(),
    }),
  ),
  /** A Canadian invoice's provider registration numbers (GST/HST, PST / QST / RST) from configuration (149). */
  tax_registrations: z.array(z.object({ label: z.string(), number: z.string() })),
  transactions: z.array(transaction),
  credit_memos: z.array(creditMemo),
  write_offs: z.array(invoiceWriteOff),
  receipts: z.array(invoiceReceiptApplied),
  ledger: invoiceLedger,
  /** The merchant's e-mail (where "E-mail to merchant" sends), null when it has none. */
  merchant_email: z.string().nullable(),
  /** The billing run that made the invoice (decision 113), null for one no run made. */
  billing_run: z.object({ run_id: z.number().int(), as_of: z.string(), requested_by: z.string() }).nullable(),
  /** Audit entries of the invoice, oldest first. */
  history: z.array(auditEntry),
});
export type InvoicePage = z.infer<typeof invoicePage>;

export const invoiceEmailResult = z.object({ mail_id: z.number().int(), to: z.string(), sent_at: z.string() });
export type InvoiceEmailResult = z.infer<typeof invoiceEmailResult>;
