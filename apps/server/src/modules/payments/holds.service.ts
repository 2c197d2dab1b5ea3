import { ORDER_STATUS, type CurrencyCode } from '@pos/domain';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { AnyServiceCtx, AppContext } from '../../context';
import type { Db } from '../../db/client';
import { auditLog, authorizationSettlements, receipts } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { billingToday } from '../billing';
import { AUTHORIZATION_ACTION } from '../payment-authorizations';

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
 * The sweep's part: capture or release each pending hold at the gateway (keys `capture:<ref>` / `release:<ref>`,
 * so a repeat does nothing twice), then record it. A captured hold is money received for the order's hardware: a
 * card receipt of the customer (unapplied until AR applies it to the hardware invoice).
 */
export async function settleHolds(app: AppContext, actor: AuditActor, requestId: string): Promise<number> {
  const pending = await app.database.db
    .select()
    .from(authorizationSettlements)
    .where(eq(authorizationSettlements.status, 'pending'))
    .orderBy(asc(authorizationSettlements.createdAt), asc(authorizationSettlements.id))
    .limit(HOLDS_BATCH);
  for (const s of pending) {
    let ok: boolean;
    let reference: string;
    let failure: string | null = null;
    if (s.action === 'capture') {
      const r = await app.gateway.capture({
        authorizationReference: s.authorizationReference,
        amountCents: s.amountCents,
        idempotencyKey: `capture:${s.authorizationReference}`,
      });
      ok = r.status === 'succeeded';
      reference = r.reference;
      failure = r.failureReason;
    } else {
      const r = await app.gateway.voidCharge({
        reference: s.authorizationReference,
        idempotencyKey: `release:${s.authorizationReference}`,
      });
      ok = true;
      reference = r.reference;
    }
    const now = app.clock.now();
    await app.database.db
      .transaction(async (tx) => {
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
        const done = await tx
          .update(authorizationSettlements)
          .set({
            status: ok ? 'done' : 'failed',
            resultReference: reference,
            failureReason: failure,
            receiptId,
            settledAt: now,
          })
          .where(and(eq(authorizationSettlements.id, s.id), eq(authorizationSettlements.status, 'pending')))
          .returning({ id: authorizationSettlements.id });
        if (done.length === 0) throw new Error('settled meanwhile');
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
            ...(failure ? { failure_reason: failure } : {}),
          },
          requestId,
          customerId: s.customerId,
        });
      })
      .catch((err: unknown) => {
        if (!(err instanceof Error && err.message === 'settled meanwhile')) throw err;
      });
  }
  return pending.length;
}
