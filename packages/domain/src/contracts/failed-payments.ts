import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { DECLINE_CODES, DECLINE_KINDS, type DeclineKind } from '../codes/declines';
import { cappedPagedList, paginationQuerySchema } from './common';
import { sortSchema } from './customers';

/*
 * Failed payments (#/payments, privilege failed_payments_edit; issue 15 point 5, decision 117):
 *   GET  /api/payments/failed/{token}?kind&reason&country&amount_min&amount_max&age&state&q&sort&limit&offset
 *        [&format=csv]                                                   → failedPaymentSearchResult (CSV: every row)
 *   GET  /api/payments/recovery/{token}?month=YYYY-MM                    → recoveryReport
 * Actions (retry now, waive the fee, send the update link, stop retries) go through the queue call
 * POST /api/customers/transactions/sns/{token} (contracts/jobs.ts transactionsSnsRequest).
 */

/** The dunning states of a failed invoice (table invoice_dunning; decision 116). */
export const DUNNING_STATES = ['retrying', 'collection', 'stopped', 'recovered'] as const;
export type DunningStateCode = (typeof DUNNING_STATES)[number];
export const DUNNING_STATE_LABELS: Readonly<Record<DunningStateCode, string>> = {
  retrying: 'Retrying',
  collection: 'In collection',
  stopped: 'Retries stopped',
  recovered: 'Recovered',
};

/** The failed-payment fee of a US store (decision 116): pending → invoiced on the next invoice, or waived. */
export const DUNNING_FEE_STATES = ['pending', 'invoiced', 'waived'] as const;
export type DunningFeeState = (typeof DUNNING_FEE_STATES)[number];

export const FAILED_PAYMENT_SORT_FIELDS = ['attempted_at', 'amount_cents', 'next_retry_on', 'customer'] as const;
export type FailedPaymentSortField = (typeof FAILED_PAYMENT_SORT_FIELDS)[number];
/** Newest failure first. */
export const FAILED_PAYMENT_DEFAULT_SORT = '-attempted_at';
export const FAILED_PAYMENT_TEXT_MIN = 2;
/** The age filter: failures attempted within this many days at most. */
export const FAILED_PAYMENT_MAX_AGE_DAYS = 3660;

const cents = (what: string) =>
  z.coerce
    .number({ message: `The ${what} is an amount in cents.` })
    .int({ message: `The ${what} is a whole number of cents.` })
    .min(0, { message: `The ${what} is not negative.` })
    .max(Number.MAX_SAFE_INTEGER, { message: `The ${what} is too large.` });

export const failedPaymentSearchQuery = paginationQuerySchema
  .extend({
    kind: z.enum(DECLINE_KINDS as [DeclineKind, ...DeclineKind[]], { message: 'Kind is soft or hard.' }).optional(),
    reason: z.enum(DECLINE_CODES, { message: `Reason is one of ${DECLINE_CODES.join(', ')}.` }).optional(),
    country: z.enum(['US', 'CA'], { message: 'Country is US or CA.' }).optional(),
    amount_min: cents('smallest amount').optional(),
    amount_max: cents('largest amount').optional(),
    /** Attempted within this many days (counted back from now). */
    age: z.coerce
      .number({ message: 'The age is a number of days.' })
      .int({ message: 'The age is a whole number of days.' })
      .min(1, { message: 'The age is at least 1 day.' })
      .max(FAILED_PAYMENT_MAX_AGE_DAYS, { message: `The age is at most ${FAILED_PAYMENT_MAX_AGE_DAYS} days.` })
      .optional(),
    state: z.enum(DUNNING_STATES, { message: `Dunning state is one of ${DUNNING_STATES.join(', ')}.` }).optional(),
    /** Text in the merchant's legal name or the store's DBA. */
    q: z
      .string()
      .trim()
      .min(FAILED_PAYMENT_TEXT_MIN, {
        message: `Type at least ${FAILED_PAYMENT_TEXT_MIN} characters to search by name.`,
      })
      .max(100, { message: 'Search text is at most 100 characters.' })
      .optional(),
    sort: sortSchema(FAILED_PAYMENT_SORT_FIELDS),
    format: z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json'),
  })
  .superRefine((q, ctx) => {
    if (q.amount_min !== undefined && q.amount_max !== undefined && q.amount_min > q.amount_max)
      ctx.addIssue({ code: 'custom', path: ['amount_max'], message: 'The largest amount is below the smallest.' });
  });
export type FailedPaymentSearchQuery = z.infer<typeof failedPaymentSearchQuery>;

/** One failed charge with its merchant, store, invoice, instrument and where its invoice is in dunning. */
export const failedPaymentItem = z.object({
  transaction_id: z.number().int(),
  customer_id: z.number().int(),
  legal_name: z.string(),
  store_id: z.number().int().nullable(),
  doing_business_as: z.string().nullable(),
  country: z.string().nullable(),
  invoice_id: z.number().int().nullable(),
  invoice_number: z.string().nullable(),
  amount_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  attempted_at: z.string(),
  instrument_label: z.string().nullable(),
  decline_code: z.string().nullable(),
  decline_label: z.string(),
  decline_kind: z.enum(['soft', 'hard']),
  failure_reason: z.string().nullable(),
  /** Failed attempts on the invoice so far (0 when the invoice is not in dunning). */
  failed_attempts: z.number().int(),
  next_retry_on: z.string().nullable(),
  dunning_state: z.enum(DUNNING_STATES).nullable(),
  fee_state: z.enum(DUNNING_FEE_STATES).nullable(),
  fee_cents: z.number().int().nullable(),
});
export type FailedPaymentItem = z.infer<typeof failedPaymentItem>;
export const failedPaymentSearchResult = cappedPagedList(failedPaymentItem);
export type FailedPaymentSearchResult = z.infer<typeof failedPaymentSearchResult>;

export const FAILED_PAYMENT_CSV_COLUMNS = [
  'transaction_id',
  'attempted_at',
  'customer_id',
  'legal_name',
  'store_id',
  'doing_business_as',
  'country',
  'invoice_number',
  'currency',
  'amount_cents',
  'instrument_label',
  'decline_code',
  'decline_kind',
  'failure_reason',
  'failed_attempts',
  'next_retry_on',
  'dunning_state',
  'fee_state',
] as const satisfies readonly (keyof FailedPaymentItem)[];

export const recoveryQuery = z.object({
  month: z
    .string({ message: 'Enter the month as YYYY-MM.' })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'Enter the month as YYYY-MM.' })
    .optional(),
});
export type RecoveryQuery = z.infer<typeof recoveryQuery>;

/*
 * A failure of the month is a failed invoice (or a failed charge without one): the latest F charge of that invoice
 * attempted in the month, so that three retries of one $79 invoice count $79 once (decision 117). failed_attempts
 * counts every F charge of the month.
 */

/** One currency's figures (USD and CAD are never added together). */
export const recoveryCurrencyFigures = z.object({
  currency: z.enum(CURRENCY_CODES),
  /** Every F charge attempted in the month. */
  failed_attempts: z.number().int(),
  /** Failed invoices of the month. */
  failed_count: z.number().int(),
  failed_cents: z.number().int(),
  /** Failed invoices of the month paid since by a successful charge (dunning state recovered). */
  recovered_count: z.number().int(),
  recovered_cents: z.number().int(),
  /** recovered_cents / failed_cents, 0..1 (0 when nothing failed). */
  recovery_rate: z.number(),
});
export type RecoveryCurrencyFigures = z.infer<typeof recoveryCurrencyFigures>;

export const recoveryReasonFigures = z.object({
  decline_code: z.string().nullable(),
  decline_label: z.string(),
  decline_kind: z.enum(['soft', 'hard']),
  currency: z.enum(CURRENCY_CODES),
  failed_count: z.number().int(),
  failed_cents: z.number().int(),
  recovered_count: z.number().int(),
  recovered_cents: z.number().int(),
});
export type RecoveryReasonFigures = z.infer<typeof recoveryReasonFigures>;

export const recoveryReport = z.object({
  month: z.string(),
  by_currency: z.array(recoveryCurrencyFigures),
  by_reason: z.array(recoveryReasonFigures),
});
export type RecoveryReport = z.infer<typeof recoveryReport>;

/**
 * What a transactions/sns job answers when it completes (GET /api/jobs/{jobId}: `output`): one outcome per named
 * transaction, in words (the worker of decision 116, modules/payments actions.service.ts TransactionActionOutcome).
 */
export const transactionsSnsOutput = z.object({
  action: z.string(),
  results: z.array(
    z.object({
      transaction_id: z.number().int(),
      ok: z.boolean(),
      result: z.string(),
      new_transaction_id: z.number().int().optional(),
    }),
  ),
});
export type TransactionsSnsOutput = z.infer<typeof transactionsSnsOutput>;
