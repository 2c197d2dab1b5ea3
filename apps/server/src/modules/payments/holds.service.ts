import { ORDER_STATUS, type CurrencyCode } from '@pos/domain';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { AnyServiceCtx, AppContext } from '../../context';
import type { Db } from '../../db/client';
import {
  auditLog,
  authorizationSettlements,
  invoices,
  moneyMovements,
  orders,
  paymentInstruments,
  receipts,
  transactions,
} from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { billingToday, prepareLicenseJobs } from '../billing';
import { lockForMoney } from '../ledger';
import { paymentApplied, recordFailure } from './charge.service';
import { settleHold, type MoneyMovement } from './money.service';

/** The audit action of an authorization (entity 'order', entity id = the order id; decision 081). */
export const AUTHORIZATION_ACTION = 'payment_authorization';

/** At most this many holds are settled per sweep. */
const HOLDS_BATCH = 500;

interface AuthorizationEntry {
  authorization_id: string;
  status: 'authorized' | 'declined';
  amount_cents: number;
  currency: string;
}

/**
 * An order's status change (in its transaction; decision 116): Complete → capture the latest live hold and release
 * the older ones; Rejected or POS Canceled → release every live hold. Only rows are written here (the gateway is
 * called after the commit — settleOrderHolds — or by the sweep, outside any transaction); a hold already queued is not
 * queued again. Decision 148: on Complete the capture pays the order's sale invoice (made by onboarding earlier in the
 * same transaction) — for the invoice's total, at most the hold — and its answer posts a charge on that invoice; an
 * onboarded order with no sale invoice (installments, nothing upfront) has nothing to capture: its holds are released.
 * A hold of an order never onboarded (no invoice to pay) is captured as before: an unapplied card receipt.
 */
export async function queueHoldSettlements(
  _ctx: AnyServiceCtx,
  tx: Db,
  change: { order: { id: number; customerId: number | null }; to: string; now: Date },
): Promise<void> {
  const complete = change.to === ORDER_STATUS.COMPLETE;
  if (!complete && change.to !== ORDER_STATUS.REJECTED && change.to !== ORDER_STATUS.POS_CANCELED) return;
  const entries = await tx
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'order'),
        eq(auditLog.entityId, String(change.order.id)),
        eq(auditLog.action, AUTHORIZATION_ACTION),
      ),
    )
    .orderBy(desc(auditLog.at), desc(auditLog.id));
  const holds = entries
    .map((e) => e.after as AuthorizationEntry)
    .filter((a) => a && a.status === 'authorized' && typeof a.authorization_id === 'string');
  if (holds.length === 0) return;
  // Onboarding ran before this listener: the order now names its customer, and a sale paid upfront has its invoice.
  const [order] = await tx
    .select({ customerId: orders.customerId, onboardedAt: orders.onboardedAt })
    .from(orders)
    .where(eq(orders.id, change.order.id));
  const customerId = order?.customerId ?? change.order.customerId;
  const [sale] = complete
    ? await tx
        .select({ id: invoices.id, totalCents: invoices.totalCents })
        .from(invoices)
        .where(and(eq(invoices.orderId, change.order.id), eq(invoices.type, 'S')))
    : [];
  const capture = complete && (sale !== undefined || !order?.onboardedAt);
  const seen = new Set<string>();
  for (const [i, hold] of holds.entries()) {
    if (seen.has(hold.authorization_id)) continue;
    seen.add(hold.authorization_id);
    const captured = capture && i === 0;
    await tx
      .insert(authorizationSettlements)
      .values({
        orderId: change.order.id,
        customerId,
        authorizationReference: hold.authorization_id,
        action: captured ? 'capture' : 'release',
        amountCents: captured && sale ? Math.min(hold.amount_cents, sale.totalCents) : hold.amount_cents,
        currency: hold.currency,
        invoiceId: captured && sale ? sale.id : null,
        createdAt: change.now,
      })
      .onConflictDoNothing();
  }
}

/**
 * After the commit of an order's move (decision 148): capture or release its queued holds now, outside any
 * transaction, through the money path — the sweep does the same for any left (a crash, a lost answer). Never throws:
 * the move is committed, and what did not settle now is the sweep's.
 */
export async function settleOrderHolds(
  app: AppContext,
  orderId: number,
  actor: AuditActor,
  requestId: string | null,
): Promise<void> {
  const pending = await app.database.db
    .select()
    .from(authorizationSettlements)
    .where(and(eq(authorizationSettlements.orderId, orderId), eq(authorizationSettlements.status, 'pending')))
    .orderBy(asc(authorizationSettlements.id));
  if (pending.length === 0) return;
  // A capture's answer posts through afterPosting (decision 144): its queue is defined before any transaction.
  await prepareLicenseJobs(app);
  for (const s of pending) {
    try {
      await settleOne(app, s, actor, requestId);
    } catch {
      // Still pending (or its movement P): the payments sweep settles it with the same key — never twice.
    }
  }
}

/**
 * The sweep's part: capture or release each pending hold through the money-movement service (keys `capture:<ref>` /
 * `release:<ref>`: recorded P, the gateway called outside any transaction, the answer recorded — a repeat does nothing
 * twice). The answer's follow-up (`holdAnswered`, purpose 'hold') marks the settlement done or failed; a captured
 * hold is money received for the order's hardware: a card receipt of the customer (unapplied until AR applies it).
 */
export async function settleHolds(app: AppContext, actor: AuditActor, requestId: string): Promise<number> {
  const pending = await app.database.db
    .select()
    .from(authorizationSettlements)
    .where(eq(authorizationSettlements.status, 'pending'))
    .orderBy(asc(authorizationSettlements.createdAt), asc(authorizationSettlements.id))
    .limit(HOLDS_BATCH);
  if (pending.length > 0) await prepareLicenseJobs(app);
  for (const s of pending) await settleOne(app, s, actor, requestId);
  return pending.length;
}

type SettlementRow = typeof authorizationSettlements.$inferSelect;

/** One pending settlement through the service (its answer recorded by holdAnswered). */
export async function settleOne(
  app: AppContext,
  s: SettlementRow,
  actor: AuditActor,
  requestId: string | null,
  reason?: string,
): Promise<void> {
  await settleHold(app, {
    action: s.action as 'capture' | 'release',
    authorizationReference: s.authorizationReference,
    amountCents: s.amountCents,
    currency: s.currency,
    customerId: s.customerId,
    context: { settlement_id: s.id, ...(reason ? { reason } : {}) },
    actor,
    requestId,
  });
}

/**
 * Record a hold's answered capture or release on its settlement (in the answer's transaction; once: the settlement
 * must still be pending).
 */
export async function holdAnswered(tx: Db, app: AppContext, m: MoneyMovement, now: Date): Promise<void> {
  const context = m.context as { settlement_id?: number; reason?: string; asked_by?: AuditActor; request_id?: string };
  if (typeof context.settlement_id !== 'number') return;
  const [s] = await tx
    .select()
    .from(authorizationSettlements)
    .where(and(eq(authorizationSettlements.id, context.settlement_id), eq(authorizationSettlements.status, 'pending')))
    .for('update');
  if (!s) return;
  const ok = m.status === 'S';
  const reference = m.resultReference ?? s.authorizationReference;
  const failure = ok ? null : m.failureReason;
  const actor = context.asked_by ?? { actorType: 'system' as const, actorId: 'payments-sweep' };
  let receiptId: number | null = null;
  let transactionId: number | null = null;
  if (s.action === 'capture' && s.invoiceId !== null && s.customerId !== null) {
    transactionId = await postCapture(tx, app, { ...s, invoiceId: s.invoiceId, customerId: s.customerId }, m, now, {
      actor,
      requestId: context.request_id ?? '',
    });
  } else if (ok && s.action === 'capture' && s.customerId !== null) {
    const [receipt] = await tx
      .insert(receipts)
      .values({
        customerId: s.customerId,
        amountCents: s.amountCents,
        unappliedCents: s.amountCents,
        currency: s.currency as CurrencyCode,
        method: 'card',
        reference,
        receivedOn: billingToday(app),
        createdByEmail: 'system',
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: receipts.id });
    receiptId = receipt!.id;
  }
  await tx
    .update(authorizationSettlements)
    .set({
      status: ok ? 'done' : 'failed',
      resultReference: reference,
      failureReason: failure,
      receiptId,
      settledAt: now,
    })
    .where(eq(authorizationSettlements.id, s.id));
  await writeAudit(tx, {
    ...actor,
    at: now,
    action: ok
      ? s.action === 'capture'
        ? 'authorization_captured'
        : 'authorization_released'
      : 'authorization_capture_failed',
    entity: 'order',
    entityId: s.orderId,
    after: {
      authorization_id: s.authorizationReference,
      amount_cents: s.amountCents,
      currency: s.currency,
      reference,
      ...(receiptId !== null ? { receipt_id: receiptId } : {}),
      ...(s.invoiceId !== null ? { invoice_id: s.invoiceId, transaction_id: transactionId } : {}),
      ...(failure ? { failure_reason: failure } : {}),
      ...(context.reason ? { reason: context.reason } : {}),
    },
    requestId: context.request_id ?? null,
    customerId: s.customerId,
  });
}

/**
 * A capture's answer against the sale invoice it pays (decision 148), in the answer's transaction under the money
 * locks: the capture is the invoice's card charge — a transactions row (kind charge, key `capture:<ref>`, the
 * capture's gateway reference) S and applied through afterPosting (the invoice paid, no unapplied receipt), or F and
 * the invoice in the same dunning as any failed charge (recordFailure: retries by the schedule, the failed-payments
 * list, the merchant's e-mail). Answers the transaction's id.
 */
async function postCapture(
  tx: Db,
  app: AppContext,
  s: SettlementRow & { invoiceId: number; customerId: number },
  m: MoneyMovement,
  now: Date,
  asker: { actor: AuditActor; requestId: string },
): Promise<number> {
  await lockForMoney(tx, { customerId: s.customerId, invoiceIds: [s.invoiceId] });
  const [inv] = await tx.select().from(invoices).where(eq(invoices.id, s.invoiceId));
  const ok = m.status === 'S';
  const failure = ok ? null : (m.failureReason ?? 'The hold could not be captured.');
  // The card the hold was placed on, when the customer has it on file (onboarding saved it by its reference).
  const [authorization] = await tx
    .select({ paymentReference: moneyMovements.targetReference })
    .from(moneyMovements)
    .where(and(eq(moneyMovements.operation, 'authorize'), eq(moneyMovements.resultReference, s.authorizationReference)))
    .limit(1);
  const [card] = authorization
    ? await tx
        .select({ id: paymentInstruments.id })
        .from(paymentInstruments)
        .where(
          and(
            eq(paymentInstruments.customerId, s.customerId),
            eq(paymentInstruments.processorReference, authorization.paymentReference),
          ),
        )
        .limit(1)
    : [];
  const [row] = await tx
    .insert(transactions)
    .values({
      customerId: s.customerId,
      storeId: inv?.storeId ?? null,
      invoiceId: s.invoiceId,
      paymentInstrumentId: card?.id ?? null,
      kind: 'charge',
      status: ok ? 'S' : 'F',
      amountCents: s.amountCents,
      currency: s.currency,
      gatewayReference: m.resultReference,
      failureReason: failure,
      idempotencyKey: m.idempotencyKey,
      attemptedAt: s.createdAt,
      settledAt: ok ? now : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const t = row!;
  const base = {
    transaction_id: t.id,
    invoice_id: s.invoiceId,
    invoice_number: inv?.invoiceNumber ?? null,
    store_id: t.storeId,
    amount_cents: t.amountCents,
    currency: t.currency,
    gateway_reference: t.gatewayReference,
    source: 'hold_capture',
    authorization_id: s.authorizationReference,
  };
  await writeAudit(tx, {
    ...asker.actor,
    at: now,
    action: ok ? 'charge_succeeded' : 'charge_failed',
    entity: 'transaction',
    entityId: t.id,
    after: ok ? { ...base, status: 'S' } : { ...base, status: 'F', failure_reason: failure },
    requestId: asker.requestId,
    customerId: s.customerId,
  });
  if (ok) await paymentApplied(tx, app, t, now, asker.actor, asker.requestId);
  else await recordFailure(tx, app, t, null, failure!, now, asker.actor, asker.requestId);
  return t.id;
}
