import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  AUTHORIZATION_TOLERANCE_PERCENT,
  ORDER_STATUS,
  authorizationCeilingCents,
  formatMoney,
  isCardExpired,
  orderUpfrontCents,
  type CardBrand,
  type CurrencyCode,
  type OrderDocument,
  type PaymentAuthorization,
  type PaymentAuthorizationRequest,
} from '@pos/domain';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { auditLog, authorizationSettlements, orders, paymentInstruments } from '../../db/schema';
import { actorOfSession, writeAudit } from '../../http/audit';
import { AppError, fieldError } from '../../http/errors';
import { runIdempotent } from '../../http/idempotency';
import { loadVisibleOrder } from '../orders';
import { AUTHORIZATION_ACTION, authorizeCard, redeemCardToken, settleHoldNow } from '../payments';
import { orderSaleTaxCents, taxDayOf } from '../taxes';

/** The audit action of an authorization (entity 'order', entity id = the order id; decision 081): payments' own. */
export { AUTHORIZATION_ACTION };

interface OrderRef {
  id: number;
  customerId: number | null;
  currency: string;
}

/** An authorization as its audit entry records it (decision 081). */
export interface AuthorizationEntry {
  authorization_id: string;
  status: 'authorized' | 'declined';
  amount_cents: number;
  currency: string;
}

/** Orders in these statuses take no new hold: nothing would capture or release it (decision 142). */
const CLOSED: readonly string[] = [ORDER_STATUS.COMPLETE, ORDER_STATUS.REJECTED, ORDER_STATUS.POS_CANCELED];

/**
 * The order's live holds, newest first: authorized (audit entries of AUTHORIZATION_ACTION) and neither captured nor
 * released nor queued for it (no authorization_settlements row). Decision 142: at most one after every authorization.
 */
export async function liveHoldsOf(db: Db, orderId: number): Promise<AuthorizationEntry[]> {
  const entries = await db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'order'),
        eq(auditLog.entityId, String(orderId)),
        eq(auditLog.action, AUTHORIZATION_ACTION),
      ),
    )
    .orderBy(desc(auditLog.at), desc(auditLog.id));
  const seen = new Set<string>();
  const holds = entries
    .map((e) => e.after as AuthorizationEntry | null)
    .filter((a): a is AuthorizationEntry => a?.status === 'authorized' && typeof a.authorization_id === 'string')
    .filter((a) => !seen.has(a.authorization_id) && seen.add(a.authorization_id));
  if (holds.length === 0) return [];
  const settled = await db
    .select({ reference: authorizationSettlements.authorizationReference })
    .from(authorizationSettlements)
    .where(
      inArray(
        authorizationSettlements.authorizationReference,
        holds.map((h) => h.authorization_id),
      ),
    );
  const done = new Set(settled.map((r) => r.reference));
  return holds.filter((h) => !done.has(h.authorization_id));
}

/**
 * The most an authorization of this order may hold (decision 142): what is paid upfront when it completes — the
 * hardware sale after discounts with its tax by the one rule, today's rate (domain orderUpfrontCents) — plus
 * AUTHORIZATION_TOLERANCE_PERCENT. Above it: 400 naming amount_cents, the ceiling in the message.
 */
async function checkCeiling(
  ctx: ServiceCtx,
  order: typeof orders.$inferSelect,
  amountCents: number,
  now: Date,
): Promise<void> {
  const db = ctx.app.database.db;
  const doc = order.document as OrderDocument;
  const upfront = orderUpfrontCents(doc, await orderSaleTaxCents(db, doc, taxDayOf(ctx.app, now)));
  const ceiling = authorizationCeilingCents(upfront);
  if (amountCents <= ceiling) return;
  const currency = order.currency as CurrencyCode;
  const tolerance = AUTHORIZATION_TOLERANCE_PERCENT > 0 ? ` plus ${AUTHORIZATION_TOLERANCE_PERCENT} %` : '';
  const why =
    upfront === 0
      ? ` Nothing is paid upfront on order ${order.unifiedOrderId} (no hardware sale yet, installments or a non-POS order).`
      : ` That is order ${order.unifiedOrderId}'s upfront total with tax (${formatMoney(upfront, currency)})${tolerance}.`;
  throw fieldError(
    'amount_cents',
    `The amount may be at most ${formatMoney(ceiling, currency)} (${ceiling} cents).${why}`,
  );
}

/**
 * Release a live hold before a new one is placed (decision 142) through the money path (decision 144): the release
 * is queued (authorization_settlements, key `release:<ref>` — the payments sweep's, so the gateway voids it once
 * whoever asks) and committed, then voided at the gateway outside any transaction and recorded released by its
 * answer. A release whose answer is lost stays queued for the sweep; it is not live any more either way.
 */
async function releaseHold(ctx: ServiceCtx, order: OrderRef, hold: AuthorizationEntry, now: Date): Promise<void> {
  const queued = await withTx(ctx, (tx) =>
    tx
      .insert(authorizationSettlements)
      .values({
        orderId: order.id,
        customerId: order.customerId,
        authorizationReference: hold.authorization_id,
        action: 'release',
        amountCents: hold.amount_cents,
        currency: hold.currency,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning(),
  );
  if (queued[0]) await settleHoldNow(ctx.app, queued[0], actorOfSession(ctx.session), ctx.requestId, 're-authorized');
}

interface CardRef {
  reference: string;
  brand: CardBrand;
  last4: string;
  instrumentId: number | null;
}

/** A payment instrument of the order's own customer, or 404 naming payment_instrument_id (like a missing one). */
async function instrumentOfOrder(tx: Db, order: OrderRef, id: number) {
  const [pi] = await tx.select().from(paymentInstruments).where(eq(paymentInstruments.id, id));
  if (!pi || order.customerId === null || pi.customerId !== order.customerId) {
    const message = `Payment instrument ${id} is not a payment method of this order's customer.`;
    throw new AppError('not_found', message, { payment_instrument_id: message });
  }
  return pi;
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
    const card = await redeemCardToken(ctx.app, body.card_token);
    if (isCardExpired(card.expMonth, card.expYear, now)) throw fieldError('card_token', 'The card has expired.');
    return { reference: card.reference, brand: card.brand, last4: card.last4, instrumentId: null };
  }
  const pi = await instrumentOfOrder(tx, order, body.payment_instrument_id!);
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
 * Decision 142: bounded by the order — an open order only (409 otherwise), at most its upfront total with tax (400
 * amount_cents), a card token or a card of the order's own customer (404 payment_instrument_id otherwise), and one live
 * hold: the order's live hold is voided at the gateway before the new one is placed (re-authorize).
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
        if (CLOSED.includes(order.status))
          throw new AppError(
            'conflict',
            `Order ${order.unifiedOrderId} is ${order.status === ORDER_STATUS.COMPLETE ? 'complete' : 'closed'}: it takes no new authorization.`,
          );
        if (body.currency !== order.currency)
          throw fieldError('currency', `This order is in ${order.currency}; authorize in ${order.currency}.`);
        // The ids a body names are checked before anything else is said (decision 140).
        if (body.payment_instrument_id !== undefined) await instrumentOfOrder(db, order, body.payment_instrument_id);
        await checkCeiling(ctx, order, body.amount_cents, now);
        const card = await cardOf(db, ctx, order, body, now);
        // One live hold per order (decision 142): re-authorizing voids the order's live hold, then places the new one.
        const released: string[] = [];
        for (const hold of await liveHoldsOf(db, order.id)) {
          await releaseHold(ctx, order, hold, now);
          released.push(hold.authorization_id);
        }
        // The money path (decision 144): the authorization recorded P and committed, asked outside any transaction,
        // its answer recorded; a lost answer is 503 and the same request again gets the same hold.
        const result = await authorizeCard(ctx.app, {
          key: `authorize:${order.id}:${requestRef}`,
          customerId: order.customerId,
          amountCents: body.amount_cents,
          currency: body.currency,
          paymentReference: card.reference,
          description: `Order ${order.id}`,
          context: { order_id: order.id },
          actor: actorOfSession(ctx.session),
          requestId: ctx.requestId,
        });
        return { order, card, result, released };
      },
      effect: async (tx, now, { order, card, result, released }) => {
        // Authorizations of one order commit one at a time (the order's row lock).
        await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, order.id)).for('update');
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
          released_authorization_ids: released,
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
        if (result.status === 'authorized') {
          // A hold another request placed meanwhile (it voided the same old hold) is queued for the payments sweep
          // to release, outside any transaction: the newest hold is the order's one live hold.
          for (const other of await liveHoldsOf(tx, order.id)) {
            if (other.authorization_id === result.reference) continue;
            await tx
              .insert(authorizationSettlements)
              .values({
                orderId: order.id,
                customerId: order.customerId,
                authorizationReference: other.authorization_id,
                action: 'release',
                amountCents: other.amount_cents,
                currency: other.currency,
                createdAt: now,
              })
              .onConflictDoNothing();
          }
        }
        return answer;
      },
    },
  );
}
