import { z } from 'zod';
import { FEES } from '../codes/billing';
import { CURRENCY_CODES } from '../codes/currencies';
import { restockingFeeCents } from '../rules/fees';
import { cappedPagedList, paginationQuerySchema } from './common';
import { idParam, sortSchema } from './customers';
import { recordVersionSchema } from './customer-accounts';

/*
 * Returns and refunds (#/returns-refund, #/viewreturns, #/refund; issue 16 point 5, decision 122):
 *   GET  /api/returns/eligible/{token}?storeid&customerid&q      → returnEligibility (recent hardware sales in the
 *                                                                  window, each with its returnable terminals)
 *   GET  /api/returns/{token}?status&customer_id&age&q&sort&limit&offset[&format=csv] → returnSearchResult
 *   POST /api/returns/{token}            returnCreateRequest        → returnDetail (201)
 *   GET  /api/returns/{id}/{token}                                  → returnDetail
 *   POST /api/returns/{id}/status/{token} returnStatusRequest       → returnDetail (receive | inspect | reject)
 *   POST /api/returns/{id}/refund/{token} returnRefundRequest, Idempotency-Key → returnDetail
 * Status: requested → received (its terminals are retired) → inspected → refunded; or rejected (with a reason).
 */

export const RETURN_STATUSES = ['requested', 'received', 'inspected', 'refunded', 'rejected'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export const RETURN_STATUS_LABELS: Readonly<Record<ReturnStatus, string>> = {
  requested: 'Requested',
  received: 'Received',
  inspected: 'Inspected',
  refunded: 'Refunded',
  rejected: 'Rejected',
};
/** Statuses of a return still under way: its terminals cannot be in another return. */
export const OPEN_RETURN_STATUSES: readonly ReturnStatus[] = ['requested', 'received', 'inspected'];

export const RETURN_ACTIONS = ['receive', 'inspect', 'reject'] as const;
export type ReturnAction = (typeof RETURN_ACTIONS)[number];
/** From which status each step may be taken (refund: from inspected, its own call). */
export const RETURN_ACTION_FROM: Readonly<Record<ReturnAction, readonly ReturnStatus[]>> = {
  receive: ['requested'],
  inspect: ['received'],
  reject: ['requested', 'received', 'inspected'],
};
export const RETURN_ACTION_TO: Readonly<Record<ReturnAction, ReturnStatus>> = {
  receive: 'received',
  inspect: 'inspected',
  reject: 'rejected',
};

export const RETURN_REFUND_METHODS = ['gateway', 'check'] as const;
export type ReturnRefundMethod = (typeof RETURN_REFUND_METHODS)[number];
export const RETURN_REFUND_METHOD_LABELS: Readonly<Record<ReturnRefundMethod, string>> = {
  gateway: 'To the card (original payment)',
  check: 'By check',
};

/** Default eligibility window in days (server config RETURN_WINDOW_DAYS). */
export const RETURN_WINDOW_DAYS_DEFAULT = 30;
/** §9: the restocking fee, charged unless waived with a reason. */
export const RETURN_RESTOCKING_FEE_CENTS = FEES.RESTOCKING_FEE_CENTS;
/** A refund above this needs an approver other than the return's requester (§9 credit threshold). */
export const RETURN_FOUR_EYES_CENTS = FEES.CREDIT_THRESHOLD_CENTS;

/**
 * The money of a return: the terminals' value from the hardware invoice, less the restocking fee (never below 0),
 * is the credit; of the credit, what the invoice no longer owes once credited and the merchant had paid is paid back.
 * `open_cents` and `paid_cents` are the invoice's figures from the ledger before the credit.
 */
export function returnBreakdown(input: {
  unit_cents: readonly number[];
  fee_waived: boolean;
  open_cents: number;
  paid_cents: number;
}): { value_cents: number; fee_cents: number; credit_cents: number; refund_cents: number } {
  const value = input.unit_cents.reduce((n, c) => n + c, 0);
  const fee = restockingFeeCents({ valueCents: value, waived: input.fee_waived });
  const credit = Math.max(0, value - fee);
  const refund = Math.max(0, Math.min(credit - Math.min(credit, input.open_cents), input.paid_cents));
  return { value_cents: value, fee_cents: fee, credit_cents: credit, refund_cents: refund };
}

const text = (what: string, max: number) =>
  z
    .string({ message: `Enter ${what}.` })
    .trim()
    .min(1, { message: `Enter ${what}.` })
    .max(max, { message: `${what[0]!.toUpperCase()}${what.slice(1)} is at most ${max} characters.` });

const id = (what: string) =>
  z
    .number({ message: `Choose ${what}.` })
    .int({ message: `Choose ${what}.` })
    .min(1, { message: `Choose ${what}.` });

export const returnCreateRequest = z
  .object({
    store_id: id('the store'),
    /** The order the terminals came with (optional: the store's newest hardware sale otherwise). */
    order_id: id('the order').nullish(),
    terminal_ids: z
      .array(id('a terminal'), { message: 'Tick the terminals coming back.' })
      .min(1, { message: 'Tick at least one terminal coming back.' })
      .max(200, { message: 'At most 200 terminals in one return.' }),
    reason: text('why the terminals come back', 500),
    /** Waive the restocking fee: give the reason (empty or absent: the fee applies). */
    fee_waived_reason: z
      .string()
      .trim()
      .max(500, { message: 'The waiver reason is at most 500 characters.' })
      .nullish(),
    waive_fee: z.boolean().default(false),
    note: z.string().trim().max(2000, { message: 'The note is at most 2,000 characters.' }).nullish(),
  })
  .superRefine((r, ctx) => {
    if (r.waive_fee && !r.fee_waived_reason)
      ctx.addIssue({ code: 'custom', path: ['fee_waived_reason'], message: 'Say why the restocking fee is waived.' });
    if (new Set(r.terminal_ids).size !== r.terminal_ids.length)
      ctx.addIssue({ code: 'custom', path: ['terminal_ids'], message: 'A terminal is listed twice.' });
  });
export type ReturnCreateRequest = z.input<typeof returnCreateRequest>;

export const returnStatusRequest = z
  .object({
    action: z.enum(RETURN_ACTIONS, { message: 'The step is receive, inspect or reject.' }),
    version: recordVersionSchema,
    /** Required to reject; a note otherwise. */
    reason: z.string().trim().max(500, { message: 'The reason is at most 500 characters.' }).nullish(),
  })
  .superRefine((r, ctx) => {
    if (r.action === 'reject' && !r.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Say why the return is rejected.' });
  });
export type ReturnStatusRequest = z.infer<typeof returnStatusRequest>;

export const returnRefundRequest = z.object({
  method: z.enum(RETURN_REFUND_METHODS, { message: 'Refund to the card (gateway) or by check.' }),
  version: recordVersionSchema,
});
export type ReturnRefundRequest = z.infer<typeof returnRefundRequest>;

export const returnIdTokenParams = z.object({ id: idParam, token: z.string() });

export const returnEligibilityQuery = z.object({
  storeid: z.coerce.number({ message: 'The store id is a number.' }).int().min(1).optional(),
  customerid: z.coerce.number({ message: 'The customer id is a number.' }).int().min(1).optional(),
  /** Text in the merchant's legal name or the store's DBA. */
  q: z.string().trim().min(2, { message: 'Type at least 2 characters.' }).max(100).optional(),
});
export type ReturnEligibilityQuery = z.infer<typeof returnEligibilityQuery>;

export const returnableTerminal = z.object({
  terminal_id: z.number().int(),
  elmer_id: z.string(),
  serial_number: z.string(),
  product_name: z.string().nullable(),
  unit_cents: z.number().int(),
  /** Null when it can be returned; else why not (retired, already in return #n). */
  blocked_reason: z.string().nullable(),
});
export type ReturnableTerminal = z.infer<typeof returnableTerminal>;

/** One hardware sale inside the window: its invoice, what the merchant paid, and its terminals. */
export const returnEligibleSale = z.object({
  customer_id: z.number().int(),
  legal_name: z.string(),
  store_id: z.number().int(),
  doing_business_as: z.string().nullable(),
  order_id: z.number().int().nullable(),
  invoice_id: z.number().int(),
  invoice_number: z.string(),
  issued_on: z.string(),
  /** The last day a return may be requested. */
  returnable_until: z.string(),
  currency: z.enum(CURRENCY_CODES),
  total_cents: z.number().int(),
  paid_cents: z.number().int(),
  open_cents: z.number().int(),
  /** Paid by a card charge the gateway can refund. */
  card_refundable: z.boolean(),
  terminals: z.array(returnableTerminal),
});
export type ReturnEligibleSale = z.infer<typeof returnEligibleSale>;

export const returnEligibility = z.object({
  window_days: z.number().int(),
  restocking_fee_cents: z.number().int(),
  sales: z.array(returnEligibleSale),
});
export type ReturnEligibility = z.infer<typeof returnEligibility>;

export const RETURN_SORT_FIELDS = ['created_at', 'refund_cents', 'customer', 'status'] as const;
export type ReturnSortField = (typeof RETURN_SORT_FIELDS)[number];
export const RETURN_DEFAULT_SORT = '-created_at';

export const returnSearchQuery = paginationQuerySchema.extend({
  status: z.enum(RETURN_STATUSES, { message: `Status is one of ${RETURN_STATUSES.join(', ')}.` }).optional(),
  customer_id: z.coerce.number({ message: 'The customer id is a number.' }).int().min(1).optional(),
  /** Requested within this many days. */
  age: z.coerce
    .number({ message: 'The age is a number of days.' })
    .int({ message: 'The age is a whole number of days.' })
    .min(1, { message: 'The age is at least 1 day.' })
    .max(3660, { message: 'The age is at most 3660 days.' })
    .optional(),
  q: z.string().trim().min(2, { message: 'Type at least 2 characters to search by name.' }).max(100).optional(),
  sort: sortSchema(RETURN_SORT_FIELDS),
  format: z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json'),
});
export type ReturnSearchQuery = z.infer<typeof returnSearchQuery>;

export const returnItem = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  legal_name: z.string(),
  store_id: z.number().int().nullable(),
  doing_business_as: z.string().nullable(),
  order_id: z.number().int().nullable(),
  invoice_id: z.number().int().nullable(),
  invoice_number: z.string().nullable(),
  status: z.enum(RETURN_STATUSES),
  reason: z.string(),
  terminal_count: z.number().int(),
  value_cents: z.number().int(),
  restocking_fee_cents: z.number().int(),
  fee_waived_reason: z.string().nullable(),
  credit_cents: z.number().int(),
  refund_cents: z.number().int(),
  refund_method: z.enum(RETURN_REFUND_METHODS).nullable(),
  currency: z.enum(CURRENCY_CODES),
  created_at: z.string(),
  created_by_email: z.string(),
  version: z.number().int(),
});
export type ReturnItem = z.infer<typeof returnItem>;
export const returnSearchResult = cappedPagedList(returnItem);
export type ReturnSearchResult = z.infer<typeof returnSearchResult>;

export const RETURN_CSV_COLUMNS = [
  'id',
  'created_at',
  'status',
  'customer_id',
  'legal_name',
  'store_id',
  'doing_business_as',
  'invoice_number',
  'terminal_count',
  'currency',
  'value_cents',
  'restocking_fee_cents',
  'credit_cents',
  'refund_cents',
  'refund_method',
  'reason',
  'created_by_email',
] as const satisfies readonly (keyof ReturnItem)[];

export const returnDetail = returnItem.extend({
  note: z.string().nullable(),
  decision_reason: z.string().nullable(),
  received_at: z.string().nullable(),
  inspected_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  decided_by_email: z.string().nullable(),
  terminals: z.array(
    z.object({
      terminal_id: z.number().int(),
      elmer_id: z.string(),
      serial_number: z.string(),
      status: z.string(),
      unit_cents: z.number().int(),
    }),
  ),
  /** The hardware invoice now (ledger): what is open and what was paid. */
  invoice: z
    .object({
      id: z.number().int(),
      invoice_number: z.string(),
      issued_on: z.string(),
      total_cents: z.number().int(),
      paid_cents: z.number().int(),
      open_cents: z.number().int(),
      card_refundable: z.boolean(),
    })
    .nullable(),
  /** What the refund step would pay back now (0 once refunded or rejected). */
  refund_preview_cents: z.number().int(),
  /** The refund needs someone other than the requester (above RETURN_FOUR_EYES_CENTS). */
  needs_second_person: z.boolean(),
});
export type ReturnDetail = z.infer<typeof returnDetail>;
