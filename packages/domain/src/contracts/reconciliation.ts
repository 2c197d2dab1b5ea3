import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { pagedList, paginationQuerySchema } from './common';
import { sortSchema } from './customers';

/*
 * Reconciliation with the gateway's books (issue 28 item 4, decision 146): per UTC day and currency, what the gateway
 * settled, refunded, voided and charged back beside what our books posted; the differences with the transactions
 * behind them. Runs come from the daily schedule or from "Reconcile a day" (AR Team, Admin).
 */

/** A run's outcome: every line on both sides agrees; some do not; the gateway could not answer. */
export const RECONCILIATION_STATUSES = ['matched', 'differences', 'failed'] as const;
export type ReconciliationStatus = (typeof RECONCILIATION_STATUSES)[number];
export const RECONCILIATION_STATUS_LABELS: Readonly<Record<ReconciliationStatus, string>> = {
  matched: 'Matched',
  differences: 'Differences',
  failed: 'Gateway did not answer',
};

/** Who started a run. */
export const RECONCILIATION_SOURCES = ['schedule', 'staff'] as const;
export type ReconciliationSource = (typeof RECONCILIATION_SOURCES)[number];

/** The lines both books keep: a settled charge, a refund, a charge voided before settlement, a chargeback. */
export const RECONCILIATION_ENTRY_KINDS = ['charge', 'refund', 'void', 'chargeback'] as const;
export type ReconciliationEntryKind = (typeof RECONCILIATION_ENTRY_KINDS)[number];
export const RECONCILIATION_ENTRY_KIND_LABELS: Readonly<Record<ReconciliationEntryKind, string>> = {
  charge: 'Charge',
  refund: 'Refund',
  void: 'Void',
  chargeback: 'Chargeback',
};

/** What is wrong with a line: only the gateway has it, only our books have it, both have it with other amounts. */
export const RECONCILIATION_DIFFERENCE_KINDS = ['missing_at_ours', 'missing_at_gateway', 'amount_differs'] as const;
export type ReconciliationDifferenceKind = (typeof RECONCILIATION_DIFFERENCE_KINDS)[number];
export const RECONCILIATION_DIFFERENCE_LABELS: Readonly<Record<ReconciliationDifferenceKind, string>> = {
  missing_at_ours: 'Missing in our books',
  missing_at_gateway: 'Missing at the gateway',
  amount_differs: 'Amount differs',
};

const currencySchema = z.enum(CURRENCY_CODES, { message: `Currency is one of ${CURRENCY_CODES.join(', ')}.` });
const isoDate = (what: string) => z.iso.date({ message: `Enter the ${what} as YYYY-MM-DD.` });

/** One side's totals of a day (integer cents; the voided amount released, not money moved). */
export const reconciliationTotals = z.object({
  charged_cents: z.number().int(),
  refunded_cents: z.number().int(),
  charged_back_cents: z.number().int(),
  voided_cents: z.number().int(),
  /** charged − refunded − charged back: what the day moved into the account at the gateway. */
  net_cents: z.number().int(),
  /** How many lines. */
  entries: z.number().int(),
});
export type ReconciliationTotals = z.infer<typeof reconciliationTotals>;

export const reconciliationRun = z.object({
  id: z.number().int(),
  day: z.string(),
  currency: currencySchema,
  status: z.enum(RECONCILIATION_STATUSES),
  source: z.enum(RECONCILIATION_SOURCES),
  gateway: reconciliationTotals,
  books: reconciliationTotals,
  difference_count: z.number().int(),
  /** Why the gateway could not answer (status failed). */
  failure_reason: z.string().nullable(),
  requested_by: z.string().nullable(),
  finished_at: z.string(),
});
export type ReconciliationRun = z.infer<typeof reconciliationRun>;

export const reconciliationDifference = z.object({
  id: z.number().int(),
  kind: z.enum(RECONCILIATION_DIFFERENCE_KINDS),
  entry_kind: z.enum(RECONCILIATION_ENTRY_KINDS),
  /** The gateway's id of its line (null: only our books have it). */
  gateway_transaction_id: z.string().nullable(),
  /** The charge the line acts on, as the gateway or our books name it. */
  charge_reference: z.string().nullable(),
  /** Our transaction behind it (for a line only the gateway has: our charge it acts on, when we know it). */
  transaction_id: z.number().int().nullable(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  invoice_id: z.number().int().nullable(),
  invoice_number: z.string().nullable(),
  gateway_amount_cents: z.number().int().nullable(),
  books_amount_cents: z.number().int().nullable(),
  currency: currencySchema,
  at: z.string().nullable(),
});
export type ReconciliationDifference = z.infer<typeof reconciliationDifference>;

export const reconciliationRunDetail = reconciliationRun.extend({ differences: z.array(reconciliationDifference) });
export type ReconciliationRunDetail = z.infer<typeof reconciliationRunDetail>;

export const RECONCILIATION_SORT_FIELDS = ['day', 'currency', 'status', 'difference_count', 'finished_at'] as const;
export type ReconciliationSortField = (typeof RECONCILIATION_SORT_FIELDS)[number];

export const reconciliationListQuery = paginationQuerySchema
  .extend({
    from: isoDate('first day').optional(),
    to: isoDate('last day').optional(),
    currency: currencySchema.optional(),
    status: z.enum(RECONCILIATION_STATUSES, { message: 'Status is matched, differences or failed.' }).optional(),
    sort: sortSchema(RECONCILIATION_SORT_FIELDS),
    format: z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json'),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The last day is before the first.' });
  });
export type ReconciliationListQuery = z.infer<typeof reconciliationListQuery>;
export type ReconciliationListQueryInput = z.input<typeof reconciliationListQuery>;

export const reconciliationList = pagedList(reconciliationRun);
export type ReconciliationList = z.infer<typeof reconciliationList>;

export const reconciliationRunParams = z.object({
  runId: z.coerce.number().int().positive().max(2_147_483_647),
  token: z.string(),
});

/**
 * "Reconcile a day": a past or the current UTC day; one currency or, left out, every currency. The day is checked
 * against the server's clock (not in the future).
 */
export const reconcileDayRequest = z.object({
  day: isoDate('day'),
  currency: currencySchema.optional(),
});
export type ReconcileDayRequest = z.infer<typeof reconcileDayRequest>;

export const reconcileDayResult = z.object({ runs: z.array(reconciliationRun) });
export type ReconcileDayResult = z.infer<typeof reconcileDayResult>;

/** The CSV columns of the runs list (one row per run). */
export const RECONCILIATION_CSV_COLUMNS = [
  'id',
  'day',
  'currency',
  'status',
  'source',
  'gateway_charged',
  'gateway_refunded',
  'gateway_charged_back',
  'gateway_voided',
  'gateway_net',
  'books_charged',
  'books_refunded',
  'books_charged_back',
  'books_voided',
  'books_net',
  'differences',
  'requested_by',
  'finished_at',
] as const;
