import { z } from 'zod';
import { cappedPagedList, paginationQuerySchema } from './common';
import { SCHEDULED_JOB_QUEUE } from './jobs';

/*
 * Admin tools (Admin role only):
 *   GET  /api/admin/mail/{token}?to=&template=&limit&offset       → mailList
 *   GET  /api/admin/mail/{id}/{token}                              → mailMessage
 *   GET  /api/admin/jobs/{token}?queue=&state=&limit&offset        → jobList
 *   POST /api/admin/jobs/{queue}/{id}/retry/{token}                → { id, state }
 *   POST /api/admin/jobs/{queue}/{id}/cancel/{token}               → { id, state }
 */

export const MAIL_STATUS_VALUES = ['stored', 'queued', 'sent', 'failed'] as const;

export const mailListQuery = paginationQuerySchema.extend({
  to: z.string().trim().max(254).optional(),
  template: z.string().trim().max(100).optional(),
});

export const mailSummary = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  template: z.string(),
  status: z.enum(MAIL_STATUS_VALUES),
  links: z.array(z.string()),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type MailSummary = z.infer<typeof mailSummary>;

/** `total` is exact up to SEARCH_TOTAL_CAP; `total_capped: true` → more ("1,000+"; decision 109). */
export const mailList = cappedPagedList(mailSummary);
export const mailMessage = mailSummary.extend({
  html: z.string().nullable(),
  text: z.string().nullable(),
  error: z.string().nullable(),
});
export type MailMessageInfo = z.infer<typeof mailMessage>;

export const JOB_STATE_VALUES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobStateValue = (typeof JOB_STATE_VALUES)[number];

export const jobListQuery = paginationQuerySchema.extend({
  queue: z.string().trim().max(100).optional(),
  state: z.enum(JOB_STATE_VALUES).optional(),
});

export const jobSummary = z.object({
  id: z.string(),
  queue: z.string(),
  state: z.enum(JOB_STATE_VALUES),
  retry_count: z.number().int(),
  retry_limit: z.number().int(),
  created_on: z.string(),
  started_on: z.string().nullable(),
  completed_on: z.string().nullable(),
  data: z.unknown(),
  output: z.unknown(),
  dead_lettered: z.boolean(),
});
export type JobSummary = z.infer<typeof jobSummary>;

export const jobList = z.object({
  items: z.array(jobSummary),
  /** Exact up to SEARCH_TOTAL_CAP; `total_capped: true` → more ("1,000+"; decision 109). */
  total: z.number().int(),
  total_capped: z.boolean(),
  /** Counts per queue and state of the live (not yet archived) jobs, for the filters. */
  queues: z.array(z.object({ queue: z.string(), counts: z.record(z.string(), z.number().int()) })),
});

export const jobActionParams = z.object({ queue: z.string().min(1).max(100), id: z.uuid(), token: z.string() });
export const jobActionInfo = z.object({ id: z.string(), state: z.enum(JOB_STATE_VALUES) });

/*
 * POST /api/admin/jobs/{queue}/run/{token} (Admin): run a scheduled job now instead of waiting for its schedule —
 * e.g. the payment sweep after a bank-paid order completes (decision 151). The billing run has its own screen.
 */
export const RUNNABLE_SCHEDULED_QUEUES = [
  SCHEDULED_JOB_QUEUE.paymentsSweep,
  SCHEDULED_JOB_QUEUE.gatewayReconciliation,
  SCHEDULED_JOB_QUEUE.reportFactsCompact,
  SCHEDULED_JOB_QUEUE.idempotencyKeysExpire,
] as const;
export type RunnableScheduledQueue = (typeof RUNNABLE_SCHEDULED_QUEUES)[number];
export const RUNNABLE_SCHEDULED_QUEUE_LABELS: Readonly<Record<RunnableScheduledQueue, string>> = {
  'payments-sweep': 'Payment sweep (pending charges, holds, retries, auto-pay)',
  'gateway-reconciliation': "Gateway reconciliation (yesterday's books)",
  'report-facts-compact': 'Report facts compaction',
  'idempotency-keys-expire': 'Expired Idempotency-Keys clean-up',
};
export const jobRunParams = z.object({
  queue: z.enum(RUNNABLE_SCHEDULED_QUEUES, { message: 'Choose a scheduled job that may be run now.' }),
  token: z.string(),
});
export const jobRunInfo = z.object({ queue: z.string(), job_id: z.string(), message: z.string() });
export type JobRunInfo = z.infer<typeof jobRunInfo>;
