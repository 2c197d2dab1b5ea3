import { z } from 'zod';
import { CURRENCY_CODES, type CurrencyCode } from '../codes/currencies';
import { RECEIPT_MAX_AGE_YEARS } from '../limits';
import { addMonthsAnchored, anchorDayOf } from '../rules/billing-periods';
import { cappedPagedList, paginationQuerySchema } from './common';
import { queryBooleanSchema } from './customer-accounts';
import { sortSchema } from './customers';
import { uploadPublicId } from './uploads';

/*
 * Receipts (#/view-receipts, privilege `receipts`; #/view-receipts/{id}, privilege `apply_receipt`; issue 16 point 3,
 * decision 119): money received outside the gateway (check, cash, wire, ACH, card at the counter) and its
 * application to the customer's open invoices.
 *   GET    /api/receipts/{token}?customer_id&method&currency&received_from&received_to&unapplied&q&sort&limit&offset
 *          [&format=csv]                                                 → receiptSearchResult (CSV: every row)
 *   POST   /api/receipts/checkimage/{token}   multipart, field `checkimage` → uploadInfo (the check image)
 *   POST   /api/receipts/{token}              receiptCreate, Idempotency-Key → 201 receiptPage
 *   GET    /api/receipts/{receiptId}/{token}                              → receiptPage
 *   POST   /api/receipts/{receiptId}/applications/{token}  receiptApply, Idempotency-Key → receiptPage
 *   DELETE /api/receipts/{receiptId}/applications/{allocationId}/{token}?version, Idempotency-Key → receiptPage
 * Applications never exceed the receipt's unapplied amount nor an invoice's open balance (the ledger's, decision
 * 112); the server re-reads both under row locks, so two applications at once cannot overdraw the receipt.
 */

export const RECEIPT_METHODS = ['check', 'cash', 'wire', 'ach', 'card'] as const;
export type ReceiptMethod = (typeof RECEIPT_METHODS)[number];
export const RECEIPT_METHOD_LABELS: Readonly<Record<ReceiptMethod, string>> = {
  check: 'Check',
  cash: 'Cash',
  wire: 'Bank transfer (wire)',
  ach: 'Bank transfer (ACH)',
  card: 'Card (outside the gateway)',
};
/** The methods the cash/check fee (billing item 53) may be charged on (decision 119). */
export const CASH_CHECK_FEE_METHODS: readonly ReceiptMethod[] = ['check', 'cash'];
/** The fee is a US charge: a USD receipt of a US customer (decision 119). */
export const CASH_CHECK_FEE_CURRENCY: CurrencyCode = 'USD';

/** Whether the cash/check fee may be charged with a receipt (decision 119). */
export function cashCheckFeeApplies(input: { method: ReceiptMethod; currency: string; country: string | null }) {
  return (
    CASH_CHECK_FEE_METHODS.includes(input.method) &&
    input.currency === CASH_CHECK_FEE_CURRENCY &&
    input.country === 'US'
  );
}

export const RECEIPT_SORT_FIELDS = ['received_on', 'amount_cents', 'unapplied_cents', 'customer', 'id'] as const;
export type ReceiptSortField = (typeof RECEIPT_SORT_FIELDS)[number];
/** Newest first. */
export const RECEIPT_DEFAULT_SORT = '-received_on';
export const RECEIPT_TEXT_MIN = 2;
/** At most this many invoices in one application. */
export const RECEIPT_APPLY_MAX_LINES = 100;
export const RECEIPT_REFERENCE_MAX = 60;
export const RECEIPT_NOTE_MAX = 1000;
/** The largest receipt: 10,000,000.00 (a typo guard). */
export const RECEIPT_MAX_CENTS = 1_000_000_000;

/**
 * The days a receipt may be dated, given the billing day today (YYYY-MM-DD, BILLING_TIME_ZONE): from
 * RECEIPT_MAX_AGE_YEARS before it (the same day of the month; Feb 29 → Feb 28) to today itself (issue 27).
 */
export function receiptDateWindow(today: string): { earliest: string; latest: string } {
  return { earliest: addMonthsAnchored(today, -12 * RECEIPT_MAX_AGE_YEARS, anchorDayOf(today)), latest: today };
}

/** What is wrong with a receipt's day received (YYYY-MM-DD) on the billing day `today`, or null: the one rule. */
export function receiptDateProblem(receivedOn: string, today: string): string | null {
  const { earliest, latest } = receiptDateWindow(today);
  if (receivedOn > latest) return 'The day received cannot be in the future.';
  if (receivedOn < earliest)
    return `The day received cannot be more than ${RECEIPT_MAX_AGE_YEARS} years ago (the earliest is ${earliest}).`;
  return null;
}

const MAX_ID = 2_147_483_647;
const isoDate = (what: string) => z.iso.date({ message: `Enter the ${what} as YYYY-MM-DD.` });
const queryId = (what: string) =>
  z.coerce
    .number({ message: `The ${what} is a number.` })
    .int({ message: `The ${what} is a whole number.` })
    .min(1, { message: `The ${what} is at least 1.` })
    .max(MAX_ID, { message: `The ${what} is too large.` });
const bodyId = (what: string) =>
  z
    .number({ message: `Choose the ${what}.` })
    .int({ message: `The ${what} is a whole number.` })
    .min(1, { message: `Choose the ${what}.` })
    .max(MAX_ID, { message: `The ${what} is too large.` });
const positiveCents = (what: string) =>
  z
    .number({ message: `Enter the ${what} in cents.` })
    .int({ message: `The ${what} is a whole number of cents.` })
    .min(1, { message: `The ${what} must be more than 0.` })
    .max(RECEIPT_MAX_CENTS, { message: `The ${what} is at most 10,000,000.00.` });
const methodSchema = z.enum(RECEIPT_METHODS, { message: `The method is one of ${RECEIPT_METHODS.join(', ')}.` });
const currencySchema = z.enum(CURRENCY_CODES, { message: `Currency is one of ${CURRENCY_CODES.join(', ')}.` });

export const receiptSearchQuery = paginationQuerySchema
  .extend({
    customer_id: queryId('customer id').optional(),
    method: methodSchema.optional(),
    currency: currencySchema.optional(),
    received_from: isoDate('first day received').optional(),
    received_to: isoDate('last day received').optional(),
    /** Only receipts with money left to apply. */
    unapplied: queryBooleanSchema.optional(),
    /** Text in the reference (check number), the merchant's legal name or the store's DBA. */
    q: z
      .string()
      .trim()
      .min(RECEIPT_TEXT_MIN, { message: `Type at least ${RECEIPT_TEXT_MIN} characters to search.` })
      .max(100, { message: 'Search text is at most 100 characters.' })
      .optional(),
    sort: sortSchema(RECEIPT_SORT_FIELDS),
    format: z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json'),
  })
  .superRefine((q, ctx) => {
    if (q.received_from && q.received_to && q.received_from > q.received_to)
      ctx.addIssue({ code: 'custom', path: ['received_to'], message: 'The last day is before the first.' });
  });
export type ReceiptSearchQuery = z.infer<typeof receiptSearchQuery>;

export const receiptItem = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  legal_name: z.string(),
  country: z.string().nullable(),
  store_id: z.number().int().nullable(),
  doing_business_as: z.string().nullable(),
  method: methodSchema,
  method_label: z.string(),
  reference: z.string().nullable(),
  received_on: z.string(),
  amount_cents: z.number().int(),
  /** Applied to invoices so far: amount − unapplied. */
  applied_cents: z.number().int(),
  unapplied_cents: z.number().int(),
  currency: currencySchema,
  note: z.string().nullable(),
  /** The check image's public id (GET /api/uploads/{id}/{token}). */
  upload_id: uploadPublicId.nullable(),
  fee_invoice_id: z.number().int().nullable(),
  fee_invoice_number: z.string().nullable(),
  created_by_email: z.string(),
  created_at: z.string(),
  version: z.number().int(),
});
export type ReceiptItem = z.infer<typeof receiptItem>;
export const receiptSearchResult = cappedPagedList(receiptItem);
export type ReceiptSearchResult = z.infer<typeof receiptSearchResult>;

export const RECEIPT_CSV_COLUMNS = [
  'id',
  'received_on',
  'customer_id',
  'legal_name',
  'store_id',
  'doing_business_as',
  'method',
  'reference',
  'currency',
  'amount_cents',
  'applied_cents',
  'unapplied_cents',
  'fee_invoice_number',
  'created_by_email',
  'note',
] as const satisfies readonly (keyof ReceiptItem)[];

/** POST /api/receipts/{token}: record money received. */
export const receiptCreate = z
  .object({
    customer_id: bodyId('customer'),
    store_id: bodyId('store').nullable().optional(),
    method: methodSchema,
    amount_cents: positiveCents('amount'),
    currency: currencySchema,
    received_on: isoDate('day the money was received'),
    /** The check number, the wire or ACH reference. */
    reference: z
      .string()
      .trim()
      .max(RECEIPT_REFERENCE_MAX, { message: `The reference is at most ${RECEIPT_REFERENCE_MAX} characters.` })
      .optional()
      .transform((v) => (v ? v : undefined)),
    note: z
      .string()
      .trim()
      .max(RECEIPT_NOTE_MAX, { message: `The note is at most ${RECEIPT_NOTE_MAX} characters.` })
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** The check image, uploaded first by the same user (POST /api/receipts/checkimage/{token}): its public id. */
    upload_id: uploadPublicId.nullable().optional(),
    /** Charge the cash/check fee (billing item 53) on an invoice of its own (decision 119). */
    charge_fee: z.boolean({ message: 'charge_fee is true or false.' }).default(false),
  })
  .superRefine((b, ctx) => {
    if (b.method === 'check' && !b.reference)
      ctx.addIssue({ code: 'custom', path: ['reference'], message: 'Enter the check number.' });
    if ((b.method === 'wire' || b.method === 'ach') && !b.reference)
      ctx.addIssue({ code: 'custom', path: ['reference'], message: 'Enter the bank reference of the transfer.' });
    if (b.upload_id != null && b.method !== 'check')
      ctx.addIssue({ code: 'custom', path: ['upload_id'], message: 'Only a check has a check image.' });
    if (b.charge_fee && !CASH_CHECK_FEE_METHODS.includes(b.method))
      ctx.addIssue({ code: 'custom', path: ['charge_fee'], message: 'The cash/check fee applies to cash and checks.' });
  });
export type ReceiptCreate = z.infer<typeof receiptCreate>;
export type ReceiptCreateInput = z.input<typeof receiptCreate>;

export const receiptParams = z.object({ receiptId: queryId('receipt id'), token: z.string() });
export const receiptAllocationParams = z.object({
  receiptId: queryId('receipt id'),
  allocationId: queryId('application id'),
  token: z.string(),
});

/** POST /api/receipts/{receiptId}/applications/{token}: apply parts of the receipt to open invoices. */
export const receiptApply = z
  .object({
    /** The receipt's version as the user saw it (409 if it changed since). */
    version: z.number({ message: 'Send the version of the receipt.' }).int().min(0),
    applications: z
      .array(z.object({ invoice_id: bodyId('invoice'), amount_cents: positiveCents('amount to apply') }), {
        message: 'Send the invoices to apply to.',
      })
      .min(1, { message: 'Enter an amount for at least one invoice.' })
      .max(RECEIPT_APPLY_MAX_LINES, { message: `Apply to at most ${RECEIPT_APPLY_MAX_LINES} invoices at once.` }),
  })
  .superRefine((b, ctx) => {
    const seen = new Set<number>();
    b.applications.forEach((a, i) => {
      if (seen.has(a.invoice_id))
        ctx.addIssue({
          code: 'custom',
          path: ['applications', i, 'invoice_id'],
          message: `Invoice ${a.invoice_id} is named twice.`,
        });
      seen.add(a.invoice_id);
    });
  });
export type ReceiptApply = z.infer<typeof receiptApply>;

/** DELETE …/applications/{allocationId}/{token}?version: un-apply one application. */
export const receiptUnapplyQuery = z.object({
  version: z.coerce.number({ message: 'Send the version of the receipt.' }).int().min(0),
});
export type ReceiptUnapplyQuery = z.infer<typeof receiptUnapplyQuery>;

export const receiptAllocation = z.object({
  id: z.number().int(),
  invoice_id: z.number().int(),
  invoice_number: z.string(),
  amount_cents: z.number().int(),
  allocated_by_email: z.string(),
  allocated_at: z.string(),
});
export type ReceiptAllocation = z.infer<typeof receiptAllocation>;

/** One of the customer's open invoices in the receipt's currency (balance from the ledger). */
export const receiptOpenInvoice = z.object({
  invoice_id: z.number().int(),
  invoice_number: z.string(),
  store_id: z.number().int().nullable(),
  doing_business_as: z.string().nullable(),
  issued_on: z.string(),
  due_on: z.string(),
  total_cents: z.number().int(),
  open_cents: z.number().int(),
  currency: currencySchema,
});
export type ReceiptOpenInvoice = z.infer<typeof receiptOpenInvoice>;

export const receiptPage = z.object({
  receipt: receiptItem,
  allocations: z.array(receiptAllocation),
  open_invoices: z.array(receiptOpenInvoice),
});
export type ReceiptPage = z.infer<typeof receiptPage>;
