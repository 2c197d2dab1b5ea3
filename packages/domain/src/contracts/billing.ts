import { z } from 'zod';
import { pagedList, paginationQuerySchema } from './common';

/** The billing engine's runs (issue 14, decision 113). */

export const BILLING_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type BillingRunStatus = (typeof BILLING_RUN_STATUSES)[number];
export const BILLING_RUN_STATUS_LABELS: Readonly<Record<BillingRunStatus, string>> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
};

/** POST /api/billing/runs/{token}: `as_of` defaults to today in the billing time zone. */
export const billingRunRequest = z
  .object({
    as_of: z.iso.date({ message: 'Enter the billing date as YYYY-MM-DD.' }).optional(),
  })
  .strict();
export type BillingRunRequest = z.infer<typeof billingRunRequest>;

export const billingRunStarted = z.object({ run_id: z.number().int(), job_id: z.string().nullable() });
export type BillingRunStarted = z.infer<typeof billingRunStarted>;

export const billingRunInfo = z.object({
  run_id: z.number().int(),
  as_of: z.string(),
  status: z.enum(BILLING_RUN_STATUSES),
  requested_by: z.string(),
  /** Plans due when the run started (each plan counts once, however many periods it owes). */
  plans_due: z.number().int(),
  /** Plans billed so far (a plan owing three periods counts three times: one per period billed). */
  plans_done: z.number().int(),
  invoices_created: z.number().int(),
  /** Periods that already had their invoice (a re-run): the plan moved on, nothing was written. */
  skipped: z.number().int(),
  /** Stores past expiry + the 37-day grace that the run lapsed (their terminals told to stop). */
  licenses_lapsed: z.number().int(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  error: z.string().nullable().optional(),
});
export type BillingRunInfo = z.infer<typeof billingRunInfo>;

export const billingRunList = pagedList(billingRunInfo);
export type BillingRunList = z.infer<typeof billingRunList>;

export const billingRunListQuery = paginationQuerySchema.pick({ limit: true, offset: true });
export type BillingRunListQuery = z.infer<typeof billingRunListQuery>;

export const billingRunParams = z.object({
  runId: z.coerce.number().int().positive().max(2_147_483_647),
  token: z.string(),
});
