import { z } from 'zod';
import { CARD_BRANDS } from '../codes/payment-methods';
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
