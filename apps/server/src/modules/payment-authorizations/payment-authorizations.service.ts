import { eq } from 'drizzle-orm';
import {
  isCardExpired,
  type CardBrand,
  type CurrencyCode,
  type PaymentAuthorization,
  type PaymentAuthorizationRequest,
} from '@pos/domain';
import type { ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { paymentInstruments } from '../../db/schema';
import { actorOfSession, writeAudit } from '../../http/audit';
import { AppError, fieldError } from '../../http/errors';
import { runIdempotent } from '../../http/idempotency';
import { loadVisibleOrder } from '../orders';

/** The audit action of an authorization (entity 'order', entity id = the order id; decision 081). */
export const AUTHORIZATION_ACTION = 'payment_authorization';

interface OrderRef {
  id: number;
  customerId: number | null;
  currency: string;
}

interface CardRef {
  reference: string;
  brand: CardBrand;
  last4: string;
  instrumentId: number | null;
}

/** The card to authorize on: a gateway token (redeemed) or a saved card of the order's customer. */
async function cardOf(
  tx: Db,
  ctx: ServiceCtx,
  order: OrderRef,
  body: PaymentAuthorizationRequest,
  now: Date,
): Promise<CardRef> {
  if (body.card_token !== undefined) {
    const card = await ctx.app.gateway.redeemCardToken(body.card_token);
    if (isCardExpired(card.expMonth, card.expYear, now)) throw fieldError('card_token', 'The card has expired.');
    return { reference: card.reference, brand: card.brand, last4: card.last4, instrumentId: null };
  }
  const id = body.payment_instrument_id!;
  const [pi] = await tx.select().from(paymentInstruments).where(eq(paymentInstruments.id, id));
  if (!pi || order.customerId === null || pi.customerId !== order.customerId) {
    const message = `Payment instrument ${id} is not a payment method of this order's customer.`;
    throw new AppError('not_found', message, { payment_instrument_id: message });
  }
  if (pi.kind !== 'card' || !pi.processorReference)
    throw fieldError('payment_instrument_id', 'Only a card can be authorized; choose a card or enter one.');
  if (pi.status !== 'active') throw fieldError('payment_instrument_id', 'This payment method is inactive.');
  if (pi.cardExpMonth != null && pi.cardExpYear != null && isCardExpired(pi.cardExpMonth, pi.cardExpYear, now)) {
    throw fieldError('payment_instrument_id', 'The card has expired.');
  }
  return {
    reference: pi.processorReference,
    brand: (pi.cardBrand ?? 'unknown') as CardBrand,
    last4: pi.cardLast4 ?? '',
    instrumentId: pi.id,
  };
}

/**
 * POST /api/paymentauthorizations/{token} (decision 081): authorize — not capture — an amount for an order through
 * the payment gateway. Once per Idempotency-Key (a repeat answers the recorded answer, no second gateway call).
 * A decline is an answer (status 'declined'), recorded like an authorization: an audit entry on the order, filed
 * under the order's customer when it has one. No table of its own (no migration this issue).
 */
export async function authorizePayment(
  ctx: ServiceCtx,
  body: PaymentAuthorizationRequest,
  idempotencyKey: string | undefined,
): Promise<PaymentAuthorization> {
  const db = ctx.app.database.db;
  return runIdempotent(
    ctx,
    { route: 'POST /paymentauthorizations', key: idempotencyKey, request: { params: {}, body } },
    {
      // The checks and the gateway call hold no transaction (convention 13; decision 104): a slow gateway blocks
      // nobody, and a repeat meanwhile gets 409. The gateway's key names this request (requestRef), so a retry
      // after a 5xx or a crash gets the same authorization back, not a second hold.
      outside: async ({ now, requestRef }) => {
        // 404 (field order_id) for a missing order and for one the caller may not see (decision 102).
        const order = await loadVisibleOrder(db, ctx.session, { id: body.order_id }, { field: 'order_id' });
        if (body.currency !== order.currency)
          throw fieldError('currency', `This order is in ${order.currency}; authorize in ${order.currency}.`);
        const card = await cardOf(db, ctx, order, body, now);
        const result = await ctx.app.gateway.authorize({
          customerId: order.customerId,
          amountCents: body.amount_cents,
          currency: body.currency as CurrencyCode,
          paymentReference: card.reference,
          idempotencyKey: `authorize:${order.id}:${requestRef}`,
          description: `Order ${order.id}`,
        });
        return { order, card, result };
      },
      effect: async (tx, now, { order, card, result }) => {
        const answer: PaymentAuthorization = {
          authorization_id: result.reference,
          order_id: order.id,
          status: result.status,
          amount_cents: body.amount_cents,
          currency: body.currency,
          decline_reason: result.declineReason,
          payment_instrument_id: card.instrumentId,
          card: { brand: card.brand, last4: card.last4 },
          authorized_at: now.toISOString(),
        };
        await writeAudit(tx, {
          ...actorOfSession(ctx.session),
          at: now,
          action: AUTHORIZATION_ACTION,
          entity: 'order',
          entityId: order.id,
          after: { ...(order.customerId !== null ? { customer_id: order.customerId } : {}), ...answer },
          requestId: ctx.requestId,
          customerId: order.customerId,
        });
        return answer;
      },
    },
  );
}
