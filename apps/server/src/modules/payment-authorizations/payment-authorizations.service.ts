import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import {
  AUTHORIZATION_TOLERANCE_PERCENT,
  ORDER_STATUS,
  authorizationCeilingCents,
  CARD_BRANDS,
  PAYMENT_PLAN_KIND,
  formatMoney,
  isCardExpired,
  lastFour,
  orderHoldMessage,
  orderTotals,
  orderUpfrontCents,
  paymentMethodKindOf,
  type CardBrand,
  type OrderHoldState,
  type OrderPaymentHold,
  type CurrencyCode,
  type OrderDocument,
  type PaymentAuthorization,
  type PaymentAuthorizationRequest,
} from '@pos/domain';
import { withTx, type AnyServiceCtx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { auditLog, authorizationSettlements, invoices, orders, paymentInstruments } from '../../db/schema';
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

/** An authorization as its audit entry records it (decision 081; the card's gateway reference since decision 151). */
export interface AuthorizationEntry {
  authorization_id: string;
  status: 'authorized' | 'declined';
  amount_cents: number;
  currency: string;
  card_reference?: string;
  card?: { brand: CardBrand; last4: string } | null;
  decline_reason?: string | null;
  authorized_at?: string;
}

/**
 * Record an authorization's answer (decision 081): an audit entry on the order, filed under its customer. Under the
 * order's row lock, so authorizations of one order commit one at a time. An authorized hold makes the order's other
 * live holds queued for release (the payments sweep voids them outside any transaction) — the newest is the order's
 * one live hold (`keepNewest`); the order flow's hold (decision 151) instead stays only while it is still the hold the
 * order's document asks for, so a slower authorization of an older save never outlives the newer one.
 */
async function recordAuthorization(
  tx: Db,
  ctx: AnyServiceCtx,
  order: OrderRef,
  answer: PaymentAuthorization,
  cardReference: string,
  now: Date,
  rule: { keepNewest: true } | { wanted: (tx: Db, current: typeof orders.$inferSelect) => Promise<WantedHold | null> },
): Promise<void> {
  const [current] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
  await writeAudit(tx, {
    ...ctx.actor,
    at: now,
    action: AUTHORIZATION_ACTION,
    entity: 'order',
    entityId: order.id,
    after: {
      ...(order.customerId !== null ? { customer_id: order.customerId } : {}),
      ...answer,
      card_reference: cardReference,
    },
    requestId: ctx.requestId,
    customerId: order.customerId,
  });
  if (answer.status !== 'authorized') return;
  let keepThis = true;
  if ('wanted' in rule && current) {
    const wanted = await rule.wanted(tx, current);
    keepThis = wanted !== null && wanted.reference === cardReference && wanted.amountCents === answer.amount_cents;
  }
  for (const other of await liveHoldsOf(tx, order.id)) {
    const isThis = other.authorization_id === answer.authorization_id;
    if (isThis === keepThis) continue;
    await queueRelease(tx, order, other, now);
  }
}

/** Queue a hold for release by the payments sweep (outside any transaction; once per hold). */
function queueRelease(tx: Db, order: OrderRef, hold: AuthorizationEntry, now: Date) {
  return tx
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
    .returning();
}

/** Orders in these statuses take no new hold: nothing would capture or release it (decision 142). */
const CLOSED: readonly string[] = [ORDER_STATUS.COMPLETE, ORDER_STATUS.REJECTED, ORDER_STATUS.POS_CANCELED];

/**
 * The order's live holds, newest first: authorized (audit entries of AUTHORIZATION_ACTION) and neither captured nor
 * released nor queued for it (no authorization_settlements row). Decision 142: at most one after every authorization.
 */
export async function liveHoldsOf(db: Db, orderId: number): Promise<AuthorizationEntry[]> {
  const seen = new Set<string>();
  const holds = (await authorizationsOf(db, orderId))
    .filter((a) => a.status === 'authorized' && typeof a.authorization_id === 'string')
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
async function releaseHold(ctx: AnyServiceCtx, order: OrderRef, hold: AuthorizationEntry, now: Date): Promise<void> {
  const queued = await withTx(ctx, (tx) => queueRelease(tx, order, hold, now));
  if (queued[0]) await settleHoldNow(ctx.app, queued[0], ctx.actor, ctx.requestId, 're-authorized');
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
        await recordAuthorization(tx, ctx, order, answer, card.reference, now, { keepNewest: true });
        return answer;
      },
    },
  );
}

/** The hold the order's document asks for (decision 151): the hardware card and the upfront total with tax. */
interface WantedHold {
  amountCents: number;
  currency: CurrencyCode;
  reference: string;
  brand: CardBrand;
  last4: string;
}

type OrderRow = typeof orders.$inferSelect;

/** What the order's document says about the hardware's money, today. */
async function hardwareMoneyOf(db: Db, ctx: AnyServiceCtx, order: OrderRow, now: Date) {
  const doc = order.document as OrderDocument;
  const upfront = orderUpfrontCents(doc, await orderSaleTaxCents(db, doc, taxDayOf(ctx.app, now)));
  const entry = (doc.PaymentInstrumentInfo ?? []).find((m) => m?.type === PAYMENT_PLAN_KIND.HARDWARE) ?? null;
  const method = paymentMethodKindOf(entry?.paymentMethodTypeId);
  const reference = typeof entry?.paymentProcessorReference === 'string' ? entry.paymentProcessorReference.trim() : '';
  const wanted: WantedHold | null =
    upfront > 0 && method === 'card' && reference !== ''
      ? {
          amountCents: upfront,
          currency: order.currency as CurrencyCode,
          reference,
          brand: (CARD_BRANDS as readonly string[]).includes(String(entry?.issuer ?? '').toLowerCase())
            ? (String(entry!.issuer).toLowerCase() as CardBrand)
            : 'unknown',
          last4: lastFour(entry?.creditCardNumber),
        }
      : null;
  return { upfront, method, installments: Boolean(orderTotals(doc).installments), wanted };
}

/** The order's latest authorization (authorized or declined, live or not), newest first. */
async function authorizationsOf(db: Db, orderId: number): Promise<AuthorizationEntry[]> {
  const rows = await db
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
  return rows.map((r) => r.after as AuthorizationEntry | null).filter((a): a is AuthorizationEntry => a !== null);
}

const matches = (a: AuthorizationEntry, w: WantedHold) =>
  a.card_reference === w.reference && a.amount_cents === w.amountCents;

/**
 * Place the hold the order's document asks for (issue 29 item 1, decision 151), after a save has committed: the
 * upfront total with tax on the hardware card. Nothing when the order's live hold is that hold already, or when that
 * card refused that amount (the rep changes the card, or asks again: `retry`). A hold no longer asked for (the card,
 * the total or the method changed) is released. The money path: the gateway is called outside any transaction, the
 * authorization recorded P first, under a key of the order's version (a repeat asks the same hold, never a second).
 */
export async function syncOrderHold(
  ctx: AnyServiceCtx,
  orderId: number,
  options: { retry?: boolean } = {},
): Promise<void> {
  const db = ctx.app.database.db;
  const now = ctx.app.clock.now();
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order || CLOSED.includes(order.status)) return;
  const { wanted } = await hardwareMoneyOf(db, ctx, order, now);
  const live = await liveHoldsOf(db, order.id);
  if (wanted === null) {
    for (const hold of live) await releaseHold(ctx, order, hold, now);
    return;
  }
  const latest = (await authorizationsOf(db, order.id)).find((a) => matches(a, wanted));
  if (latest?.status === 'authorized' && live.some((h) => h.authorization_id === latest.authorization_id)) return;
  if (latest?.status === 'declined' && !options.retry) return;
  for (const hold of live) await releaseHold(ctx, order, hold, now);
  const retry = options.retry ? `:retry:${ctx.requestId}` : '';
  const result = await authorizeCard(ctx.app, {
    key: `authorize:${order.id}:v${order.version}:${wanted.amountCents}${retry}`,
    customerId: order.customerId,
    amountCents: wanted.amountCents,
    currency: wanted.currency,
    paymentReference: wanted.reference,
    description: `Order ${order.unifiedOrderId}: hardware paid upfront`,
    context: { order_id: order.id },
    actor: ctx.actor,
    requestId: ctx.requestId,
  });
  const answer: PaymentAuthorization = {
    authorization_id: result.reference,
    order_id: order.id,
    status: result.status,
    amount_cents: wanted.amountCents,
    currency: wanted.currency,
    decline_reason: result.declineReason,
    payment_instrument_id: null,
    card: { brand: wanted.brand, last4: wanted.last4 },
    authorized_at: now.toISOString(),
    released_authorization_ids: live.map((h) => h.authorization_id),
  };
  await withTx(ctx, (tx) =>
    recordAuthorization(tx, ctx, order, answer, wanted.reference, now, {
      wanted: async (tx, current) => (await hardwareMoneyOf(tx, ctx, current, now)).wanted,
    }),
  );
}

/** The order's hold as the order flow shows it (decision 151): GET /api/paymentauthorizations/orders/{orderId}. */
export async function getOrderHold(
  ctx: ServiceCtx,
  orderId: number,
  db: Db = ctx.app.database.db,
): Promise<OrderPaymentHold> {
  const order = await loadVisibleOrder(db, ctx.session, { id: orderId });
  const now = ctx.app.clock.now();
  const money = await hardwareMoneyOf(db, ctx, order, now);
  const all = await authorizationsOf(db, order.id);
  const live = await liveHoldsOf(db, order.id);
  const wanted = money.wanted;
  const latest = wanted ? all.find((a) => matches(a, wanted)) : all[0];
  const isLive = latest !== undefined && live.some((h) => h.authorization_id === latest.authorization_id);
  const state: OrderHoldState = CLOSED.includes(order.status)
    ? 'closed'
    : money.upfront <= 0 || money.method !== 'card'
      ? 'not_needed'
      : wanted === null
        ? 'needs_card'
        : latest?.status === 'declined'
          ? 'declined'
          : latest?.status === 'authorized' && isLive
            ? 'authorized'
            : 'pending';
  const shown = state === 'authorized' || state === 'declined' || state === 'closed' ? latest : undefined;
  // A closed order: how its last hold was settled (captured for the sale invoice, or released).
  const [settled] =
    state === 'closed'
      ? await db
          .select({ s: authorizationSettlements, invoiceNumber: invoices.invoiceNumber })
          .from(authorizationSettlements)
          .leftJoin(invoices, eq(invoices.id, authorizationSettlements.invoiceId))
          .where(eq(authorizationSettlements.orderId, order.id))
          .orderBy(asc(authorizationSettlements.action), desc(authorizationSettlements.id))
          .limit(1)
      : [];
  const settledHold = settled ? all.find((a) => a.authorization_id === settled.s.authorizationReference) : undefined;
  const view = {
    order_id: order.id,
    state,
    method: money.method,
    installments: money.installments,
    upfront_cents: money.upfront,
    currency: order.currency as CurrencyCode,
    authorization_id: shown?.authorization_id ?? null,
    amount_cents: shown?.amount_cents ?? (state === 'pending' ? (wanted?.amountCents ?? null) : null),
    card: shown?.card ?? (wanted ? { brand: wanted.brand, last4: wanted.last4 } : null),
    decline_reason: shown?.status === 'declined' ? (shown.decline_reason ?? null) : null,
    at: shown?.authorized_at ?? null,
    settlement: settled
      ? {
          action: settled.s.action as 'capture' | 'release',
          status: settled.s.status as 'pending' | 'done' | 'failed',
          amount_cents: settled.s.amountCents,
          invoice_number: settled.invoiceNumber,
          failure_reason: settled.s.failureReason,
        }
      : null,
  };
  if (settledHold?.card) view.card = settledHold.card;
  return { ...view, message: orderHoldMessage(view) };
}

/**
 * Ask for the order's hold again (decision 151): POST /api/paymentauthorizations/orders/{orderId} with an
 * Idempotency-Key — "Try again" after a decline or a lost answer. Answers the hold as it now is.
 */
export async function retryOrderHold(
  ctx: ServiceCtx,
  orderId: number,
  idempotencyKey: string | undefined,
): Promise<OrderPaymentHold> {
  const db = ctx.app.database.db;
  return runIdempotent(
    ctx,
    { route: 'POST /paymentauthorizations/orders', key: idempotencyKey, request: { params: { orderId }, body: {} } },
    {
      outside: async () => {
        const order = await loadVisibleOrder(db, ctx.session, { id: orderId });
        if (CLOSED.includes(order.status))
          throw new AppError('conflict', `Order ${order.unifiedOrderId} is closed: it takes no new authorization.`);
        await syncOrderHold(ctx, order.id, { retry: true });
      },
      effect: async (tx) => getOrderHold(ctx, orderId, tx),
    },
  );
}
