import { z } from 'zod';
import { MERCHANT_COUNTRY_CODES, type MerchantCountryCode } from '../codes/countries';
import { CURRENCY_CODES } from '../codes/currencies';
import { INVOICE_TYPES, type InvoiceType } from '../codes/invoices';
import { AGING_BUCKETS } from '../rules/aging';
import { paginationQuerySchema } from './common';
import { sortSchema } from './customers';

/*
 * The AR reports (#/reports, privilege reports_edit; issue 18 part 1, decision 128). Every figure is per currency:
 * USD and CAD are never added together (rows carry `currency`, totals are one row per currency).
 *   GET /api/reports/aging/{token}?as_of&country&currency&sort&limit&offset[&format=csv]        → agingReport
 *   GET /api/reports/aging/invoices/{token}?as_of&bucket&country&currency&customer_id&sort&limit&offset
 *       [&format=csv]                                                                           → agingInvoices
 *   GET /api/reports/revenue/{token}?from&to&country&currency&type[&format=csv]                 → revenueReport
 *   GET /api/reports/failed-payments/{token}?from&to&country&currency[&format=csv]              → failedPaymentReport
 * format=csv streams every row of the report's table (the by-customer table, the invoices, the monthly rows).
 */

/** The longest from–to range a report takes (ten years of months). */
export const REPORT_MAX_RANGE_DAYS = 3660;
/** The default range: this month and the 11 before it. */
export const REPORT_DEFAULT_MONTHS = 12;

const MAX_ID = 2_147_483_647;
const isoDate = (what: string) => z.iso.date({ message: `Enter the ${what} as YYYY-MM-DD.` });
/** `format=csv` streams every row of a report's table (the orders and sales reports take it too). */
export const reportFormat = z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json');
const format = reportFormat;

/** Filters every report takes: the store's country (else the merchant's) and the currency. */
export const reportPlaceFilters = {
  country: z
    .enum(MERCHANT_COUNTRY_CODES as [MerchantCountryCode, ...MerchantCountryCode[]], {
      message: 'Country is US or CA.',
    })
    .optional(),
  currency: z.enum(CURRENCY_CODES, { message: `Currency is one of ${CURRENCY_CODES.join(', ')}.` }).optional(),
};

/** from / to (YYYY-MM-DD, both days included); defaults are the server's (the last 12 months to today). */
const rangeQuery = z
  .object({ from: isoDate('first day').optional(), to: isoDate('last day').optional(), ...reportPlaceFilters, format })
  .superRefine(checkReportRange);

/** A report's from–to range: the last day not before the first, at most REPORT_MAX_RANGE_DAYS apart. */
export function checkReportRange(q: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  if (!q.from || !q.to) return;
  if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'The last day is before the first.' });
  else if (Date.parse(q.to) - Date.parse(q.from) > REPORT_MAX_RANGE_DAYS * 86_400_000)
    ctx.addIssue({ code: 'custom', path: ['from'], message: `A report covers at most ${REPORT_MAX_RANGE_DAYS} days.` });
}

// ── AR aging ──────────────────────────────────────────────────────────────────────────────────────────

export const agingBucketSchema = z.enum(AGING_BUCKETS, {
  message: `Bucket is one of ${AGING_BUCKETS.join(', ')}.`,
});

/** The five bucket columns of a figure row, in bucket order. */
export const AGING_BUCKET_FIELDS = {
  current: 'current_cents',
  '1-30': 'days_1_30_cents',
  '31-60': 'days_31_60_cents',
  '61-90': 'days_61_90_cents',
  '90+': 'days_90_plus_cents',
} as const;
export type AgingBucketField = (typeof AGING_BUCKET_FIELDS)[keyof typeof AGING_BUCKET_FIELDS];

const bucketFigures = {
  current_cents: z.number().int(),
  days_1_30_cents: z.number().int(),
  days_31_60_cents: z.number().int(),
  days_61_90_cents: z.number().int(),
  days_90_plus_cents: z.number().int(),
  total_cents: z.number().int(),
  invoice_count: z.number().int(),
};

export const AGING_CUSTOMER_SORT_FIELDS = [
  'legal_name',
  'customer_id',
  'total_cents',
  'current_cents',
  'days_1_30_cents',
  'days_31_60_cents',
  'days_61_90_cents',
  'days_90_plus_cents',
] as const;
export type AgingCustomerSortField = (typeof AGING_CUSTOMER_SORT_FIELDS)[number];
/** The largest balance first. */
export const AGING_CUSTOMER_DEFAULT_SORT = '-total_cents';

export const agingQuery = paginationQuerySchema.extend({
  /** The day ages are counted on (default today, the billing day). */
  as_of: isoDate('as-of day').optional(),
  ...reportPlaceFilters,
  sort: sortSchema(AGING_CUSTOMER_SORT_FIELDS),
  format,
});
export type AgingQuery = z.infer<typeof agingQuery>;

export const agingTotals = z.object({ currency: z.enum(CURRENCY_CODES), ...bucketFigures });
export type AgingTotals = z.infer<typeof agingTotals>;

export const agingCustomerRow = z.object({
  customer_id: z.number().int(),
  legal_name: z.string(),
  country: z.string().nullable(),
  currency: z.enum(CURRENCY_CODES),
  ...bucketFigures,
});
export type AgingCustomerRow = z.infer<typeof agingCustomerRow>;

export const agingReport = z.object({
  as_of: z.string(),
  /** One row per currency (a currency with nothing open is absent). */
  totals: z.array(agingTotals),
  /** One row per customer and currency, paginated and sorted. */
  customers: z.object({ items: z.array(agingCustomerRow), total: z.number().int() }),
});
export type AgingReport = z.infer<typeof agingReport>;

export const AGING_CUSTOMER_CSV_COLUMNS = [
  'customer_id',
  'legal_name',
  'country',
  'currency',
  'current_cents',
  'days_1_30_cents',
  'days_31_60_cents',
  'days_61_90_cents',
  'days_90_plus_cents',
  'total_cents',
  'invoice_count',
] as const satisfies readonly (keyof AgingCustomerRow)[];

// ── Drill-down: the invoices behind a figure ──────────────────────────────────────────────────────────

export const AGING_INVOICE_SORT_FIELDS = ['days_past_due', 'open_cents', 'invoice_number', 'legal_name'] as const;
export type AgingInvoiceSortField = (typeof AGING_INVOICE_SORT_FIELDS)[number];
/** The oldest first. */
export const AGING_INVOICE_DEFAULT_SORT = '-days_past_due';

export const agingInvoicesQuery = paginationQuerySchema.extend({
  as_of: isoDate('as-of day').optional(),
  /** One bucket; absent: every open invoice. */
  bucket: agingBucketSchema.optional(),
  ...reportPlaceFilters,
  customer_id: z.coerce
    .number({ message: 'The customer id is a number.' })
    .int({ message: 'The customer id is a whole number.' })
    .min(1, { message: 'The customer id is at least 1.' })
    .max(MAX_ID, { message: 'The customer id is too large.' })
    .optional(),
  sort: sortSchema(AGING_INVOICE_SORT_FIELDS),
  format,
});
export type AgingInvoicesQuery = z.infer<typeof agingInvoicesQuery>;

export const agingInvoiceRow = z.object({
  invoice_id: z.number().int(),
  invoice_number: z.string(),
  customer_id: z.number().int(),
  legal_name: z.string(),
  store_id: z.number().int().nullable(),
  doing_business_as: z.string().nullable(),
  country: z.string().nullable(),
  currency: z.enum(CURRENCY_CODES),
  issued_on: z.string(),
  due_on: z.string(),
  days_past_due: z.number().int(),
  bucket: agingBucketSchema,
  total_cents: z.number().int(),
  /** The ledger's open balance (invoice_balances). */
  open_cents: z.number().int(),
});
export type AgingInvoiceRow = z.infer<typeof agingInvoiceRow>;

export const agingInvoices = z.object({
  as_of: z.string(),
  bucket: agingBucketSchema.nullable(),
  items: z.array(agingInvoiceRow),
  total: z.number().int(),
  /** The open balance of all the matching invoices, per currency. */
  totals: z.array(z.object({ currency: z.enum(CURRENCY_CODES), open_cents: z.number().int(), count: z.number() })),
});
export type AgingInvoices = z.infer<typeof agingInvoices>;

export const AGING_INVOICE_CSV_COLUMNS = [
  'invoice_id',
  'invoice_number',
  'customer_id',
  'legal_name',
  'store_id',
  'doing_business_as',
  'country',
  'currency',
  'issued_on',
  'due_on',
  'days_past_due',
  'bucket',
  'total_cents',
  'open_cents',
] as const satisfies readonly (keyof AgingInvoiceRow)[];

// ── Revenue ───────────────────────────────────────────────────────────────────────────────────────────

export const revenueQuery = rangeQuery.safeExtend({
  type: z
    .enum(INVOICE_TYPES as [InvoiceType, ...InvoiceType[]], { message: `Type is one of ${INVOICE_TYPES.join(', ')}.` })
    .optional(),
});
export type RevenueQuery = z.infer<typeof revenueQuery>;

/** One month × invoice type × currency: invoices issued in the month (issued_on). */
export const revenueRow = z.object({
  month: z.string(),
  type: z.enum(INVOICE_TYPES as [InvoiceType, ...InvoiceType[]]),
  type_label: z.string(),
  currency: z.enum(CURRENCY_CODES),
  invoice_count: z.number().int(),
  /** Totals of the invoices not reversed. */
  invoiced_cents: z.number().int(),
  /** Totals of the invoices reversed since (not in invoiced_cents). */
  reversed_cents: z.number().int(),
  /** Paid on those invoices so far (the ledger's paid_cents). */
  collected_cents: z.number().int(),
});
export type RevenueRow = z.infer<typeof revenueRow>;

export const revenueTotals = z.object({
  currency: z.enum(CURRENCY_CODES),
  invoice_count: z.number().int(),
  invoiced_cents: z.number().int(),
  reversed_cents: z.number().int(),
  collected_cents: z.number().int(),
});

export const revenueReport = z.object({
  from: z.string(),
  to: z.string(),
  rows: z.array(revenueRow),
  totals: z.array(revenueTotals),
});
export type RevenueReport = z.infer<typeof revenueReport>;

export const REVENUE_CSV_COLUMNS = [
  'month',
  'type',
  'type_label',
  'currency',
  'invoice_count',
  'invoiced_cents',
  'reversed_cents',
  'collected_cents',
] as const satisfies readonly (keyof RevenueRow)[];

// ── Failed payments and recovery ──────────────────────────────────────────────────────────────────────

export const failedPaymentReportQuery = rangeQuery;
export type FailedPaymentReportQuery = z.infer<typeof failedPaymentReportQuery>;

/**
 * One month × currency (the month of the attempt, in the billing time zone). Attempts: every charge attempted
 * (any status but pending); failed: those in status F. A failed invoice counts once, in the month its first charge
 * failed, for its total (decision 137); it is recovered when the ledger says it was paid since (nothing open, not
 * reversed, nothing written off, money paid on it).
 */
export const failedPaymentReportRow = z.object({
  month: z.string(),
  currency: z.enum(CURRENCY_CODES),
  attempts: z.number().int(),
  attempted_cents: z.number().int(),
  failed_attempts: z.number().int(),
  failed_attempt_cents: z.number().int(),
  /** failed_attempts / attempts (0 with no attempt). */
  failure_rate: z.number(),
  failed_invoices: z.number().int(),
  failed_cents: z.number().int(),
  recovered_invoices: z.number().int(),
  recovered_cents: z.number().int(),
  /** recovered_invoices / failed_invoices (0 with no failure). */
  recovery_rate: z.number(),
});
export type FailedPaymentReportRow = z.infer<typeof failedPaymentReportRow>;

export const failedPaymentReport = z.object({
  from: z.string(),
  to: z.string(),
  rows: z.array(failedPaymentReportRow),
});
export type FailedPaymentReport = z.infer<typeof failedPaymentReport>;

export const FAILED_PAYMENT_REPORT_CSV_COLUMNS = [
  'month',
  'currency',
  'attempts',
  'attempted_cents',
  'failed_attempts',
  'failed_attempt_cents',
  'failure_rate',
  'failed_invoices',
  'failed_cents',
  'recovered_invoices',
  'recovered_cents',
  'recovery_rate',
] as const satisfies readonly (keyof FailedPaymentReportRow)[];
