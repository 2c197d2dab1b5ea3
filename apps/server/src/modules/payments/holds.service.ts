import { ORDER_STATUS, type CurrencyCode } from '@pos/domain';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { AnyServiceCtx, AppContext } from '../../context';
import type { Db } from '../../db/client';
import { auditLog, authorizationSettlements, receipts } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { billingToday } from '../billing';
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
 * called by the sweep, outside any transaction); a hold already queued is not queued again.
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
  const seen = new Set<string>();
  for (const [i, hold] of holds.entries()) {
    if (seen.has(hold.authorization_id)) continue;
    seen.add(hold.authorization_id);
    await tx
      .insert(authorizationSettlements)
      .values({
        orderId: change.order.id,
        customerId: change.order.customerId,
        authorizationReference: hold.authorization_id,
        action: complete && i === 0 ? 'capture' : 'release',
        amountCents: hold.amount_cents,
        currency: hold.currency,
        createdAt: change.now,
      })
      .onConflictDoNothing();
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
  let receiptId: number | null = null;
  if (ok && s.action === 'capture' && s.customerId !== null) {
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
    ...(context.asked_by ?? { actorType: 'system', actorId: 'payments-sweep' }),
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
      ...(failure ? { failure_reason: failure } : {}),
      ...(context.reason ? { reason: context.reason } : {}),
    },
    requestId: context.request_id ?? null,
    customerId: s.customerId,
  });
}
