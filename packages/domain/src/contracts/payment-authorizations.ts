import { z } from 'zod';
import { CARD_BRANDS, PAYMENT_METHOD_KINDS } from '../codes/payment-methods';
import { CURRENCY_CODES } from '../codes/currencies';

/*
 * POST /api/paymentauthorizations/{token} (spec §7 Other; decision 081): authorize — not capture — an amount for an
 * order on a card token or on one of the order's customer's saved payment instruments. Idempotency-Key header.
 * Decision 142: at most the order's upfront total with tax (the server's ceiling, `authorizationCeilingCents`), one
 * live hold per order — a new authorization voids the order's live hold first (`released_authorization_ids`).
 */

/** What the request's schema takes at all ($999,999.99); the order's own ceiling is checked by the server. */
export const MAX_AUTHORIZATION_CENTS = 99_999_999;

export const paymentAuthorizationRequest = z
  .object({
    order_id: z.number().int().min(1).max(2_147_483_647),
    amount_cents: z
      .number({ message: 'Enter the amount in cents.' })
      .int({ message: 'The amount is a whole number of cents.' })
      .min(1, { message: 'The amount must be at least 1 cent.' })
      .max(MAX_AUTHORIZATION_CENTS, { message: 'The amount may be at most 99999999 cents.' }),
    currency: z.enum(CURRENCY_CODES, { message: 'The currency is USD or CAD.' }),
    card_token: z.string().trim().min(1).max(2000).optional(),
    payment_instrument_id: z.number().int().min(1).max(2_147_483_647).optional(),
  })
  .superRefine((b, ctx) => {
    const given = Number(b.card_token !== undefined) + Number(b.payment_instrument_id !== undefined);
    if (given !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['card_token'],
        message: 'Give either card_token or payment_instrument_id (exactly one).',
      });
    }
  });
export type PaymentAuthorizationRequest = z.infer<typeof paymentAuthorizationRequest>;

export const PAYMENT_AUTHORIZATION_STATUSES = ['authorized', 'declined'] as const;

/** The answer; a decline is an answer too (200, status 'declined' with the gateway's reason). */
export const paymentAuthorization = z.object({
  authorization_id: z.string(),
  order_id: z.number().int(),
  status: z.enum(PAYMENT_AUTHORIZATION_STATUSES),
  amount_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  decline_reason: z.string().nullable(),
  payment_instrument_id: z.number().int().nullable(),
  card: z.object({ brand: z.enum(CARD_BRANDS), last4: z.string() }).nullable(),
  authorized_at: z.string(),
  /** The order's earlier live holds this authorization replaced (voided at the gateway before it was placed). */
  released_authorization_ids: z.array(z.string()),
});
export type PaymentAuthorization = z.infer<typeof paymentAuthorization>;

/*
 * The order's card hold as the order flow shows it (issue 29 item 1, decision 151): GET/POST
 * /api/orderinfo/{orderInfoId}/paymenthold. Saving the payment step (or any step that changes the upfront total)
 * places the hold on the hardware card — the upfront total with tax — and re-places it when the total or the card
 * changes; bank, cash and check orders and installments take none.
 */
export const ORDER_HOLD_STATES = [
  /** The upfront total with tax is held on the card. */
  'authorized',
  /** The card refused the hold (decline_reason); another card or a new try. */
  'declined',
  /** The hold was asked for and the gateway's answer is not known yet (a timeout): try again. */
  'pending',
  /** Paid by card upfront, but no card entered yet. */
  'needs_card',
  /** No hold is taken: bank account, cash or check, installments, a non-POS order or nothing upfront. */
  'not_needed',
  /** The order is complete, rejected or canceled: its hold was captured or released. */
  'closed',
] as const;
export type OrderHoldState = (typeof ORDER_HOLD_STATES)[number];

export const orderPaymentHold = z.object({
  order_id: z.number().int(),
  state: z.enum(ORDER_HOLD_STATES),
  /** How the hardware is paid: card, bank, cash (cash or check); null before a method is chosen. */
  method: z.enum(PAYMENT_METHOD_KINDS).nullable(),
  installments: z.boolean(),
  /** What the hold must cover: the hardware sale's upfront total with tax (0 for installments or non-POS). */
  upfront_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  authorization_id: z.string().nullable(),
  amount_cents: z.number().int().nullable(),
  card: z.object({ brand: z.enum(CARD_BRANDS), last4: z.string() }).nullable(),
  decline_reason: z.string().nullable(),
  at: z.string().nullable(),
  /**
   * A closed order's hold as it was settled: captured (for the sale invoice) or released, done / pending / failed
   * (decision 151); null before or without one.
   */
  settlement: z
    .object({
      action: z.enum(['capture', 'release']),
      status: z.enum(['pending', 'done', 'failed']),
      amount_cents: z.number().int(),
      invoice_number: z.string().nullable(),
      failure_reason: z.string().nullable(),
    })
    .nullable(),
  /** What the rep reads ('Authorized $2,067.63 on Visa ending 4242', the decline in words, how the money comes). */
  message: z.string(),
});
export type OrderPaymentHold = z.infer<typeof orderPaymentHold>;
