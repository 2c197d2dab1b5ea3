import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { paginationQuerySchema } from './common';
import { sortSchema } from './customers';

/*
 * Breath of life (#/breathoflife, privilege breath_of_life; issue 18 part 4, decision 131): the win-back work list
 * of stores whose license lapsed (stores.license_lapsed_on, set by the billing run past the §9 grace) or whose
 * service plan was canceled more than the grace ago, and the win-back case of each.
 *   GET  /api/breathoflife/{token}?reason&country&status&q&sort&limit&offset[&format=csv]  → winbackListResult
 *   GET  /api/breathoflife/{storeId}/{token}                                  → winbackCase (+ activities, offers)
 *   POST /api/breathoflife/{storeId}/activities/{token}   winbackActivityCreate → winbackCase  (log a call / note)
 *   POST /api/breathoflife/{storeId}/offer/{token}        winbackOfferCreate    → winbackCase  (waive fee / promotion)
 *   POST /api/breathoflife/{storeId}/outcome/{token}      winbackOutcomeCreate  → winbackCase  (won / lost)
 *   POST /api/breathoflife/{storeId}/reactivate/{token}   winbackReactivate     → winbackReactivation
 *        (Idempotency-Key): re-opens the plan through the billing engine, mails the payment link; the case is won.
 * Every edit names the case version it read (0 while the store has no case yet); a stale one → 409.
 */

export const WINBACK_REASONS = ['lapsed', 'canceled'] as const;
export type WinbackReason = (typeof WINBACK_REASONS)[number];
export const WINBACK_REASON_LABELS: Readonly<Record<WinbackReason, string>> = {
  lapsed: 'License lapsed',
  canceled: 'Plan canceled',
};

export const WINBACK_STATUSES = ['new', 'contacted', 'offer_made', 'won', 'lost'] as const;
export type WinbackStatus = (typeof WINBACK_STATUSES)[number];
export const WINBACK_STATUS_LABELS: Readonly<Record<WinbackStatus, string>> = {
  new: 'New',
  contacted: 'Contacted',
  offer_made: 'Offer made',
  won: 'Won',
  lost: 'Lost',
};
/** A won or lost case takes notes only. */
export const WINBACK_CLOSED_STATUSES: readonly WinbackStatus[] = ['won', 'lost'];

export const WINBACK_ACTIVITY_KINDS = ['call', 'note', 'offer', 'outcome', 'reactivated'] as const;
export type WinbackActivityKind = (typeof WINBACK_ACTIVITY_KINDS)[number];
export const WINBACK_ACTIVITY_LABELS: Readonly<Record<WinbackActivityKind, string>> = {
  call: 'Call',
  note: 'Note',
  offer: 'Offer',
  outcome: 'Outcome',
  reactivated: 'Reactivated',
};

export const WINBACK_OFFER_KINDS = ['fee_waived', 'promotion'] as const;
export type WinbackOfferKind = (typeof WINBACK_OFFER_KINDS)[number];

export const WINBACK_SORT_FIELDS = ['days_since', 'customer', 'store', 'country', 'last_activity_at'] as const;
export type WinbackSortField = (typeof WINBACK_SORT_FIELDS)[number];
/** The most recent lapse or cancellation first. */
export const WINBACK_DEFAULT_SORT = 'days_since';
export const WINBACK_TEXT_MIN = 2;
export const WINBACK_TEXT_MAX = 1000;

export const winbackListQuery = paginationQuerySchema.extend({
  reason: z.enum(WINBACK_REASONS, { message: 'Reason is lapsed or canceled.' }).optional(),
  country: z.enum(['US', 'CA'], { message: 'Country is US or CA.' }).optional(),
  status: z.enum(WINBACK_STATUSES, { message: `Status is one of ${WINBACK_STATUSES.join(', ')}.` }).optional(),
  /** Text in the merchant's legal name, e-mail or the store's names. */
  q: z
    .string()
    .trim()
    .min(WINBACK_TEXT_MIN, { message: `Type at least ${WINBACK_TEXT_MIN} characters to search by name.` })
    .max(100, { message: 'Search text is at most 100 characters.' })
    .optional(),
  sort: sortSchema(WINBACK_SORT_FIELDS),
  format: z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json'),
});
export type WinbackListQuery = z.infer<typeof winbackListQuery>;

export const winbackStoreParams = z.object({
  storeId: z.coerce
    .number({ message: 'The store id is a number.' })
    .int({ message: 'The store id is a whole number.' })
    .positive({ message: 'The store id is a positive number.' })
    .max(2_147_483_647, { message: 'The store id is too large.' }),
  token: z.string().min(1),
});

export const winbackItem = z.object({
  store_id: z.number().int(),
  customer_id: z.number().int(),
  legal_name: z.string(),
  doing_business_as: z.string(),
  contact_name: z.string(),
  phone: z.string().nullable(),
  email: z.string(),
  country: z.string(),
  currency: z.enum(CURRENCY_CODES),
  last_invoice_id: z.number().int().nullable(),
  last_invoice_number: z.string().nullable(),
  last_invoice_on: z.string().nullable(),
  last_invoice_cents: z.number().int().nullable(),
  /** The ledger's status of the last invoice (invoice_balances). */
  last_invoice_status: z.string().nullable(),
  reason: z.enum(WINBACK_REASONS),
  /** The day the license lapsed or the plan was canceled. */
  reason_on: z.string(),
  days_since: z.number().int(),
  status: z.enum(WINBACK_STATUSES),
  /** The case's version (0: no case yet). */
  version: z.number().int(),
  last_activity_at: z.string().nullable(),
  last_activity: z.string().nullable(),
});
export type WinbackItem = z.infer<typeof winbackItem>;
export const winbackListResult = z.object({ items: z.array(winbackItem), total: z.number().int().min(0) });
export type WinbackListResult = z.infer<typeof winbackListResult>;

export const WINBACK_CSV_COLUMNS = [
  'store_id',
  'customer_id',
  'legal_name',
  'doing_business_as',
  'contact_name',
  'phone',
  'email',
  'country',
  'currency',
  'last_invoice_number',
  'last_invoice_on',
  'last_invoice_cents',
  'last_invoice_status',
  'reason',
  'reason_on',
  'days_since',
  'status',
  'last_activity_at',
  'last_activity',
] as const satisfies readonly (keyof WinbackItem)[];

export const winbackActivity = z.object({
  id: z.number().int(),
  kind: z.enum(WINBACK_ACTIVITY_KINDS),
  text: z.string(),
  by: z.string(),
  at: z.string(),
});
export type WinbackActivity = z.infer<typeof winbackActivity>;

export const winbackPromotion = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  currency: z.enum(CURRENCY_CODES),
});
export type WinbackPromotion = z.infer<typeof winbackPromotion>;

/** A store's case: the list's row, the offer made, the outcome, the history and the promotions one may offer. */
export const winbackCase = winbackItem.extend({
  offer_kind: z.enum(WINBACK_OFFER_KINDS).nullable(),
  offer_promotion_id: z.number().int().nullable(),
  offer_promotion_code: z.string().nullable(),
  outcome_reason: z.string().nullable(),
  /** The §9 reactivation fee a reactivation charges (US stores; null: none — Canada, or waived by the offer). */
  reactivation_fee_cents: z.number().int().nullable(),
  activities: z.array(winbackActivity),
  promotions: z.array(winbackPromotion),
});
export type WinbackCase = z.infer<typeof winbackCase>;

const version = z
  .number({ message: 'The version of the case you read is required.' })
  .int({ message: 'The version is a whole number.' })
  .min(0, { message: 'The version is not negative.' });
const text = (what: string) =>
  z
    .string({ message: `Enter the ${what}.` })
    .trim()
    .min(1, { message: `Enter the ${what}.` })
    .max(WINBACK_TEXT_MAX, { message: `The ${what} is at most ${WINBACK_TEXT_MAX} characters.` });

export const winbackActivityCreate = z.object({
  kind: z.enum(['call', 'note'], { message: 'Log a call or a note.' }),
  text: text('note'),
  version,
});
export type WinbackActivityCreate = z.infer<typeof winbackActivityCreate>;

export const winbackOfferCreate = z
  .object({
    offer: z.enum(WINBACK_OFFER_KINDS, { message: 'The offer is fee_waived or promotion.' }),
    promotion_id: z.number().int().positive().optional(),
    note: text('note').optional(),
    version,
  })
  .superRefine((o, ctx) => {
    if (o.offer === 'promotion' && o.promotion_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['promotion_id'], message: 'Choose the promotion to offer.' });
    if (o.offer === 'fee_waived' && o.promotion_id !== undefined)
      ctx.addIssue({ code: 'custom', path: ['promotion_id'], message: 'A waived fee names no promotion.' });
  });
export type WinbackOfferCreate = z.infer<typeof winbackOfferCreate>;

export const winbackOutcomeCreate = z
  .object({
    outcome: z.enum(['won', 'lost'], { message: 'The outcome is won or lost.' }),
    reason: z
      .string()
      .trim()
      .max(WINBACK_TEXT_MAX, { message: `The reason is at most ${WINBACK_TEXT_MAX} characters.` })
      .optional(),
    version,
  })
  .superRefine((o, ctx) => {
    if (o.outcome === 'lost' && !o.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Say why the store was lost.' });
  });
export type WinbackOutcomeCreate = z.infer<typeof winbackOutcomeCreate>;

export const winbackReactivate = z.object({
  note: text('note').optional(),
  version,
});
export type WinbackReactivate = z.infer<typeof winbackReactivate>;

export const winbackReactivation = z.object({
  case: winbackCase,
  /** The reactivation fee invoice (null when waived or not charged: Canada). */
  fee_invoice_number: z.string().nullable(),
  /** Where the payment link went. */
  payment_link_sent_to: z.string(),
});
export type WinbackReactivation = z.infer<typeof winbackReactivation>;
