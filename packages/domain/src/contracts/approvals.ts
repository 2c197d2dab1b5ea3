import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { paginationQuerySchema, pagedList } from './common';
import { memoReasonSchema } from './memos';

/*
 * The approvals queue (#/approvals, privilege ar_approvals; issue 16 point 2, decision 121): everything waiting for
 * a second person — pending memos (credits, refunds, adjustments), pending write-offs, and orders in Pending AR
 * Approval (121).
 *   GET  /api/approvals/{token}?kind&amount_min&amount_max&older_than_days&requester&limit&offset → approvalList
 *   POST /api/approvals/decisions/{token}   approvalDecisionsRequest → approvalDecisionsResult  (Idempotency-Key)
 * Each item of a bulk decision is decided on its own (one refused does not stop the others) by the same service as
 * its single decision: memos and write-offs by the memos module, orders by the order status change (121 → 126 AR
 * Submitted on approve, 121 → 3 Rejected on reject, with a status reason).
 */

export const APPROVAL_KINDS = ['memo', 'write_off', 'order'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_KIND_LABELS: Readonly<Record<ApprovalKind, string>> = {
  memo: 'Memo',
  write_off: 'Write-off',
  order: 'Order',
};
/** A page of the queue holds at most this many; a bulk decision at most this many items. */
export const APPROVAL_BULK_MAX = 100;

const cents = (what: string) =>
  z.coerce
    .number({ message: `The ${what} is an amount in cents.` })
    .int({ message: `The ${what} is a whole number of cents.` })
    .min(0, { message: `The ${what} is not negative.` })
    .max(Number.MAX_SAFE_INTEGER, { message: `The ${what} is too large.` });

export const approvalListQuery = paginationQuerySchema
  .extend({
    kind: z.enum(APPROVAL_KINDS, { message: 'Kind is memo, write_off or order.' }).optional(),
    /** By size (an adjustment's absolute amount). */
    amount_min: cents('smallest amount').optional(),
    amount_max: cents('largest amount').optional(),
    /** Waiting at least this many days. */
    older_than_days: z.coerce
      .number({ message: 'The age is a number of days.' })
      .int({ message: 'The age is a whole number of days.' })
      .min(0, { message: 'The age is not negative.' })
      .max(3660, { message: 'The age is at most 3,660 days.' })
      .optional(),
    /** Part of the requester's e-mail. */
    requester: z.string().trim().min(1).max(200, { message: 'The requester is at most 200 characters.' }).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.amount_min !== undefined && q.amount_max !== undefined && q.amount_min > q.amount_max)
      ctx.addIssue({ code: 'custom', path: ['amount_max'], message: 'The largest amount is below the smallest.' });
  });
export type ApprovalListQuery = z.infer<typeof approvalListQuery>;

export const approvalItem = z.object({
  kind: z.enum(APPROVAL_KINDS),
  /** The memo, write-off or order id. */
  id: z.number().int(),
  version: z.number().int(),
  /** 'Credit memo', 'Refund memo (check to mail)', 'Write_Off Unrecoverable', 'Order 700123 (Pending AR Approval)'. */
  title: z.string(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  invoice_id: z.number().int().nullable(),
  invoice_number: z.string().nullable(),
  /** Signed for an adjustment; an order's total sale. */
  amount_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  requested_by: z.string().nullable(),
  requested_at: z.string(),
  age_days: z.number().int(),
  needs_second_approver: z.boolean(),
  /** False when the session asked for it itself and it is over the threshold (the server refuses). */
  can_decide: z.boolean(),
});
export type ApprovalItem = z.infer<typeof approvalItem>;
export const approvalList = pagedList(approvalItem);
export type ApprovalList = z.infer<typeof approvalList>;

export const approvalDecisionsRequest = z
  .object({
    items: z
      .array(
        z
          .object({
            kind: z.enum(APPROVAL_KINDS, { message: 'Kind is memo, write_off or order.' }),
            id: z.number().int().positive(),
            version: z.number().int().min(1),
          })
          .strict(),
      )
      .min(1, { message: 'Select at least one item.' })
      .max(APPROVAL_BULK_MAX, { message: `Decide at most ${APPROVAL_BULK_MAX} items at once.` }),
    decision: z.enum(['approve', 'reject'], { message: 'Decide approve or reject.' }),
    reason: memoReasonSchema,
    /** An order's rejection needs a status reason of Rejected (3). */
    status_reason_id: z.number().int().positive().optional(),
  })
  .strict();
export type ApprovalDecisionsRequest = z.infer<typeof approvalDecisionsRequest>;

export const approvalDecisionOutcome = z.object({
  kind: z.enum(APPROVAL_KINDS),
  id: z.number().int(),
  ok: z.boolean(),
  /** What happened, in words ('Approved', 'Rejected', or why not and what to do). */
  message: z.string(),
  /** The HTTP status the single decision would have answered (200, 403, 404, 409…). */
  status: z.number().int(),
});
export type ApprovalDecisionOutcome = z.infer<typeof approvalDecisionOutcome>;
export const approvalDecisionsResult = z.object({ results: z.array(approvalDecisionOutcome) });
export type ApprovalDecisionsResult = z.infer<typeof approvalDecisionsResult>;
