import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { CREDIT_MEMO_STATUSES, CREDIT_MEMO_TYPES, WRITE_OFF_TYPES } from '../codes/invoices';
import { paginationQuerySchema, pagedList } from './common';

/*
 * Memos and write-offs (issue 16 points 1 and 4, decision 120). Money moves only when one is approved (see
 * contracts/approvals.ts for the queue):
 *   POST /api/memos/{token}                       memoCreateRequest → memoItem (status P)             Idempotency-Key
 *   GET  /api/memos/{token}?status&type&customer_id&invoice_id&limit&offset → memoList
 *   POST /api/memos/{memoId}/decision/{token}     decisionRequest → memoDecisionResult                Idempotency-Key
 *   POST /api/writeoffs/{token}                   writeOffCreateRequest → writeOffItem (status P)     Idempotency-Key
 *   GET  /api/writeoffs/{token}?status&customer_id&invoice_id&limit&offset → writeOffList
 *   POST /api/writeoffs/{writeOffId}/decision/{token} decisionRequest → writeOffDecisionResult         Idempotency-Key
 * Creating needs `invoices` or `ar_approvals`; deciding needs `ar_approvals`, and above the credit threshold someone
 * other than the requester (rules/approvals.ts).
 */

export const REFUND_METHODS = ['gateway', 'check'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];
export const REFUND_METHOD_LABELS: Readonly<Record<RefundMethod, string>> = {
  gateway: 'Refund of the original charge',
  check: 'Check to mail',
};

const MAX_CENTS = 100_000_000_00;
const id = (what: string) =>
  z
    .number({ message: `Choose the ${what}.` })
    .int({ message: `The ${what} is a whole number.` })
    .positive({ message: `The ${what} is a positive number.` })
    .max(2_147_483_647, { message: `The ${what} is too large.` });
const queryId = (what: string) => z.coerce.number().pipe(id(what));

export const memoReasonSchema = z
  .string({ message: 'Say why (the reason).' })
  .trim()
  .min(3, { message: 'Say why (at least 3 characters).' })
  .max(500, { message: 'The reason is at most 500 characters.' });
export const memoNoteSchema = z
  .string({ message: 'Add a note for the approver.' })
  .trim()
  .min(1, { message: 'Add a note for the approver.' })
  .max(2000, { message: 'The note is at most 2,000 characters.' });

export const memoCreateRequest = z
  .object({
    customer_id: id('customer'),
    /** Null or absent: on account (the customer's credit, no invoice). */
    invoice_id: id('invoice').nullable().optional(),
    /** The store of an on-account memo (an invoice's memo takes the invoice's store). */
    store_id: id('store').nullable().optional(),
    type: z.enum(CREDIT_MEMO_TYPES as [string, ...string[]], {
      message: 'Type is C (credit), R (refund) or A (adjustment).',
    }),
    /** Cents; credits and refunds are positive; an adjustment is signed: positive lowers the balance, negative raises it. */
    amount_cents: z
      .number({ message: 'Enter the amount.' })
      .int({ message: 'The amount is whole cents.' })
      .min(-MAX_CENTS, { message: 'The amount is out of range.' })
      .max(MAX_CENTS, { message: 'The amount is out of range.' }),
    /** An on-account memo's currency (an invoice's memo is in the invoice's currency). */
    currency: z.enum(CURRENCY_CODES, { message: `Currency is one of ${CURRENCY_CODES.join(', ')}.` }).optional(),
    reason: memoReasonSchema,
    note: memoNoteSchema,
    /** A refund's way back: the original charge through the gateway, or a check to mail. */
    refund_method: z
      .enum(REFUND_METHODS, { message: 'Refund by the original charge (gateway) or by check.' })
      .optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.type === 'A' && m.amount_cents === 0)
      ctx.addIssue({ code: 'custom', path: ['amount_cents'], message: 'An adjustment is not zero.' });
    if (m.type !== 'A' && m.amount_cents <= 0)
      ctx.addIssue({ code: 'custom', path: ['amount_cents'], message: 'Enter an amount above zero.' });
    if (m.type === 'R' && !m.refund_method)
      ctx.addIssue({ code: 'custom', path: ['refund_method'], message: 'Choose how the money goes back.' });
    if (m.type !== 'R' && m.refund_method)
      ctx.addIssue({ code: 'custom', path: ['refund_method'], message: 'Only a refund has a refund method.' });
    if (m.type === 'R' && m.refund_method === 'gateway' && !m.invoice_id)
      ctx.addIssue({
        code: 'custom',
        path: ['refund_method'],
        message: 'A refund on account goes by check (there is no charge to refund).',
      });
  });
export type MemoCreateRequest = z.infer<typeof memoCreateRequest>;

/** Approve or reject, with why; `version` is the version of the request the decider saw. */
export const decisionRequest = z
  .object({
    decision: z.enum(['approve', 'reject'], { message: 'Decide approve or reject.' }),
    reason: memoReasonSchema,
    version: z
      .number({ message: 'Send the version you saw.' })
      .int({ message: 'The version is a whole number.' })
      .min(1, { message: 'The version is a positive number.' }),
  })
  .strict();
export type DecisionRequest = z.infer<typeof decisionRequest>;

/** Who asked, who decided, when and why — the same on every request that waits for a second person. */
const decisionFields = {
  created_by_email: z.string(),
  created_at: z.string(),
  approved_by_email: z.string().nullable(),
  decided_at: z.string().nullable(),
  decision_reason: z.string().nullable(),
  /** Above the credit threshold: someone other than created_by_email must decide. */
  needs_second_approver: z.boolean(),
  version: z.number().int(),
};

export const memoItem = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  store_id: z.number().int().nullable(),
  invoice_id: z.number().int().nullable(),
  invoice_number: z.string().nullable(),
  type: z.enum(CREDIT_MEMO_TYPES as [string, ...string[]]),
  type_label: z.string(),
  status: z.enum(CREDIT_MEMO_STATUSES as [string, ...string[]]),
  status_label: z.string(),
  amount_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  reason: z.string(),
  note: z.string().nullable(),
  refund_method: z.enum(REFUND_METHODS).nullable(),
  /** The gateway refund transaction of an approved refund. */
  transaction_id: z.number().int().nullable(),
  return_id: z.number().int().nullable(),
  ...decisionFields,
});
export type MemoItem = z.infer<typeof memoItem>;

export const memoListQuery = paginationQuerySchema.extend({
  status: z.enum(CREDIT_MEMO_STATUSES as [string, ...string[]], { message: 'Status is P, A or R.' }).optional(),
  type: z.enum(CREDIT_MEMO_TYPES as [string, ...string[]], { message: 'Type is C, R or A.' }).optional(),
  customer_id: queryId('customer').optional(),
  invoice_id: queryId('invoice').optional(),
});
export type MemoListQuery = z.infer<typeof memoListQuery>;
export const memoList = pagedList(memoItem);
export type MemoList = z.infer<typeof memoList>;

/** The invoice's open balance after a decision (null for an on-account memo). */
export const memoDecisionResult = z.object({ memo: memoItem, invoice_balance_cents: z.number().int().nullable() });
export type MemoDecisionResult = z.infer<typeof memoDecisionResult>;

export const memoIdParams = z.object({ memoId: queryId('memo'), token: z.string() });
export const writeOffIdParams = z.object({ writeOffId: queryId('write-off'), token: z.string() });

export const writeOffCreateRequest = z
  .object({
    invoice_id: id('invoice'),
    /** 142 Write_Off, 164 Write_Off Unrecoverable. */
    type: z.union(WRITE_OFF_TYPES.map((t) => z.literal(t)) as unknown as [z.ZodLiteral<142>, z.ZodLiteral<164>], {
      message: 'Type is 142 (Write_Off) or 164 (Write_Off Unrecoverable).',
    }),
    reason: memoReasonSchema,
    note: memoNoteSchema,
  })
  .strict();
export type WriteOffCreateRequest = z.infer<typeof writeOffCreateRequest>;

export const writeOffItem = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  invoice_id: z.number().int(),
  invoice_number: z.string(),
  type: z.number().int(),
  type_label: z.string(),
  status: z.enum(CREDIT_MEMO_STATUSES as [string, ...string[]]),
  status_label: z.string(),
  /** The invoice's open balance when asked; approval writes off exactly this (409 if the balance moved). */
  amount_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  reason: z.string(),
  note: z.string().nullable(),
  ...decisionFields,
});
export type WriteOffItem = z.infer<typeof writeOffItem>;

export const writeOffListQuery = paginationQuerySchema.extend({
  status: z.enum(CREDIT_MEMO_STATUSES as [string, ...string[]], { message: 'Status is P, A or R.' }).optional(),
  customer_id: queryId('customer').optional(),
  invoice_id: queryId('invoice').optional(),
});
export type WriteOffListQuery = z.infer<typeof writeOffListQuery>;
export const writeOffList = pagedList(writeOffItem);
export type WriteOffList = z.infer<typeof writeOffList>;

export const writeOffDecisionResult = z.object({
  write_off: writeOffItem,
  invoice_balance_cents: z.number().int(),
});
export type WriteOffDecisionResult = z.infer<typeof writeOffDecisionResult>;
