import type { CurrencyCode, TransactionStatus } from '@pos/domain';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { moneyMovements, transactions, type MoneyMovementOperation } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError } from '../../http/errors';
import { GatewayOutcomeUnknown, type AuthorizeResult } from '../../integrations/gateway';
import { assertRefundable, invoiceLimits, lockForMoney, onAccountLimits, assertOnAccount } from '../ledger';
import { afterPosting } from './posting.service';

/*
 * The one money-movement service (issue 28 step 3, decision 144). Every gateway call that moves or holds money —
 * refund, void, capture, authorize (charges: charge.service.ts, the same steps on their own transactions rows) — is:
 *   1. recorded as pending (a money_movements row P, and for a refund its transactions row P) and committed; a refund
 *      re-checks the money limits under lock (lockForMoney, assertRefundable / assertOnAccount) before it is recorded;
 *   2. sent to the gateway with the movement's idempotency key, OUTSIDE any database transaction;
 *   3. answered (S / F) in a transaction of its own, which also does what the answer completes: the refund row settled
 *      or failed and the invoice's figures synced (afterPosting), a voided charge V, and the asking module's own
 *      follow-up (a memo approved, a return refunded, a hold's settlement done: `onMovementAnswered`).
 * An answer that was lost (timeout, crash, gateway down) leaves the movement P: `reconcileMovements` (the payments
 * sweep) sends the same call again with the same key — the gateway answers what it did, never a second refund — and
 * records it through step 3, exactly once (the row is locked and must still be P).
 */

export type MoneyMovement = typeof moneyMovements.$inferSelect;

export interface MovementAnswer {
  status: 'S' | 'F';
  reference: string;
  failureReason: string | null;
  /** An authorization's full answer (decline code and reason). */
  authorization?: AuthorizeResult;
}

/** Who asked, for the audit of every step (a reconciler's answer is filed under the original asker's request). */
export interface MovementAsker {
  actor: AuditActor;
  requestId: string | null;
}

/** A module's follow-up of an answered movement of its purpose, in the answer's transaction. */
export type MovementFollowUp = (tx: Db, app: AppContext, movement: MoneyMovement, now: Date) => Promise<void>;

const followUps = new Map<string, MovementFollowUp>();

/** Register what an answer of `purpose` completes (listeners.ts; payments registers its own). Again: replaced. */
export function onMovementAnswered(purpose: string, followUp: MovementFollowUp): void {
  followUps.set(purpose, followUp);
}

/** The gateway's answer did not arrive (or the gateway could not be reached): the movement stays P. */
export function answerLost(err: unknown): boolean {
  return err instanceof GatewayOutcomeUnknown || (err instanceof AppError && err.code === 'unavailable');
}

interface MovementStart {
  operation: MoneyMovementOperation;
  key: string;
  purpose: string;
  context: Record<string, unknown>;
  customerId: number | null;
  transactionId?: number | null;
  targetReference: string;
  amountCents?: number;
  currency?: string | null;
}

async function insertMovement(tx: Db, start: MovementStart, asker: MovementAsker, now: Date): Promise<MoneyMovement> {
  const [row] = await tx
    .insert(moneyMovements)
    .values({
      operation: start.operation,
      idempotencyKey: start.key,
      customerId: start.customerId,
      transactionId: start.transactionId ?? null,
      targetReference: start.targetReference,
      amountCents: start.amountCents ?? 0,
      currency: start.currency ?? null,
      purpose: start.purpose,
      context: { ...start.context, asked_by: asker.actor, request_id: asker.requestId },
      createdAt: now,
    })
    .returning();
  await writeAudit(tx, {
    ...asker.actor,
    at: now,
    action: `${start.operation}_started`,
    entity: 'money_movement',
    entityId: row!.id,
    after: {
      operation: start.operation,
      status: 'P',
      purpose: start.purpose,
      transaction_id: row!.transactionId,
      amount_cents: row!.amountCents,
      currency: row!.currency,
      idempotency_key: start.key,
    },
    requestId: asker.requestId,
    customerId: start.customerId,
  });
  return row!;
}

async function movementByKey(db: Db, key: string): Promise<MoneyMovement | undefined> {
  return (await db.select().from(moneyMovements).where(eq(moneyMovements.idempotencyKey, key)))[0];
}

/** Step 2: the gateway call for a movement (no transaction open). Throws what the gateway throws. */
async function callGateway(app: AppContext, m: MoneyMovement): Promise<MovementAnswer> {
  const context = m.context as Record<string, unknown>;
  switch (m.operation) {
    case 'refund': {
      const r = await app.gateway.refund({
        chargeReference: m.targetReference,
        amountCents: m.amountCents,
        idempotencyKey: m.idempotencyKey,
        reason: typeof context.reason === 'string' ? context.reason : `Refund ${m.id}`,
      });
      return { status: r.status === 'succeeded' ? 'S' : 'F', reference: r.reference, failureReason: r.failureReason };
    }
    case 'void': {
      const r = await app.gateway.voidCharge({ reference: m.targetReference, idempotencyKey: m.idempotencyKey });
      return { status: 'S', reference: r.reference, failureReason: null };
    }
    case 'capture': {
      const r = await app.gateway.capture({
        authorizationReference: m.targetReference,
        amountCents: m.amountCents,
        idempotencyKey: m.idempotencyKey,
      });
      return { status: r.status === 'succeeded' ? 'S' : 'F', reference: r.reference, failureReason: r.failureReason };
    }
    case 'authorize': {
      const r = await app.gateway.authorize({
        customerId: m.customerId,
        amountCents: m.amountCents,
        currency: m.currency as CurrencyCode,
        paymentReference: m.targetReference,
        idempotencyKey: m.idempotencyKey,
        description: typeof context.description === 'string' ? context.description : `Authorization ${m.id}`,
      });
      return {
        status: r.status === 'authorized' ? 'S' : 'F',
        reference: r.reference,
        failureReason: r.declineReason ?? (r.status === 'declined' ? 'Declined' : null),
        authorization: r,
      };
    }
  }
}

/**
 * Step 3: record a movement's answer in one transaction, once (a movement no longer P is left alone and returned as
 * it is). A refund's transaction row becomes S (its invoice synced and settled when it names one) or F; a voided
 * charge still P becomes V; then the purpose's follow-up.
 */
export async function recordMovementAnswer(
  app: AppContext,
  movementId: number,
  answer: MovementAnswer,
): Promise<MoneyMovement> {
  return app.database.db.transaction(async (tx) => {
    const [m] = await tx.select().from(moneyMovements).where(eq(moneyMovements.id, movementId)).for('update');
    if (!m) throw new Error(`money movement ${movementId} is gone`);
    if (m.status !== 'P') return m;
    const now = app.clock.now();
    const context = m.context as { asked_by?: AuditActor; request_id?: string | null };
    const actor: AuditActor = context.asked_by ?? { actorType: 'system', actorId: 'payments' };
    const requestId = context.request_id ?? null;
    const failureReason = answer.status === 'F' ? (answer.failureReason ?? 'Refused by the gateway') : null;
    const [answered] = await tx
      .update(moneyMovements)
      .set({
        status: answer.status,
        resultReference: answer.reference,
        failureReason,
        answeredAt: now,
        attempts: sql`${moneyMovements.attempts} + 1`,
      })
      .where(eq(moneyMovements.id, m.id))
      .returning();
    const audit = (action: string, entity: string, entityId: number, before: object, after: object) =>
      writeAudit(tx, {
        ...actor,
        at: now,
        action,
        entity,
        entityId,
        before,
        after,
        requestId,
        customerId: m.customerId,
      });
    await audit(
      `${m.operation}_${answer.status === 'S' ? 'succeeded' : 'failed'}`,
      'money_movement',
      m.id,
      { status: 'P' },
      { status: answer.status, result_reference: answer.reference, failure_reason: failureReason },
    );
    if (m.transactionId !== null) {
      const [t] = await tx.select().from(transactions).where(eq(transactions.id, m.transactionId)).for('update');
      if (t && m.operation === 'refund' && t.status === 'P') {
        await tx
          .update(transactions)
          .set({
            status: answer.status,
            gatewayReference: answer.reference,
            failureReason,
            settledAt: answer.status === 'S' ? now : null,
            updatedAt: now,
            version: sql`${transactions.version} + 1`,
          })
          .where(eq(transactions.id, t.id));
        const base = {
          transaction_id: t.id,
          invoice_id: t.invoiceId,
          amount_cents: t.amountCents,
          currency: t.currency,
        };
        await audit(
          answer.status === 'S' ? 'refund' : 'refund_failed',
          'transaction',
          t.id,
          { ...base, status: 'P' },
          { ...base, status: answer.status, gateway_reference: answer.reference, failure_reason: failureReason },
        );
        if (answer.status === 'S' && t.invoiceId !== null)
          await afterPosting(tx, app, [t.invoiceId], now, actor, requestId ?? '');
      }
      if (t && m.operation === 'void' && answer.status === 'S' && t.status === 'P') {
        await tx
          .update(transactions)
          .set({ status: 'V', updatedAt: now, version: sql`${transactions.version} + 1` })
          .where(eq(transactions.id, t.id));
        const base = {
          transaction_id: t.id,
          store_id: t.storeId,
          invoice_id: t.invoiceId,
          amount_cents: t.amountCents,
          currency: t.currency,
        };
        await audit('void', 'transaction', t.id, { ...base, status: 'P' }, { ...base, status: 'V' });
      }
    }
    const followUp = followUps.get(m.purpose);
    if (followUp) await followUp(tx, app, answered!, now);
    return answered!;
  });
}

/**
 * Steps 2 and 3 for a recorded movement: call, record. A lost answer leaves it P (returned as it is, for the
 * reconciler or the asker's retry).
 */
async function callAndRecord(app: AppContext, m: MoneyMovement): Promise<MoneyMovement> {
  let answer: MovementAnswer;
  try {
    answer = await callGateway(app, m);
  } catch (err) {
    if (!answerLost(err)) throw err;
    await app.database.db
      .update(moneyMovements)
      .set({ attempts: sql`${moneyMovements.attempts} + 1` })
      .where(and(eq(moneyMovements.id, m.id), eq(moneyMovements.status, 'P')));
    return m;
  }
  return recordMovementAnswer(app, m.id, answer);
}

/** What a movement's asker gets back: the movement as it stands (P: the answer was lost and is being reconciled). */
export interface MovementOutcome {
  movement: MoneyMovement;
  status: 'P' | 'S' | 'F';
  /** The gateway's reference of the refund / capture / authorization (null while P). */
  reference: string | null;
  failureReason: string | null;
  /** The refund's transactions row (refunds), or the voided charge (voids). */
  transactionId: number | null;
  authorization?: AuthorizeResult;
}

function outcomeOf(m: MoneyMovement, answer?: MovementAnswer): MovementOutcome {
  return {
    movement: m,
    status: m.status,
    reference: m.resultReference,
    failureReason: m.failureReason,
    transactionId: m.transactionId,
    ...(answer?.authorization ? { authorization: answer.authorization } : {}),
  };
}

/** Run a recorded movement, or one recorded before under the same key: P → call and record; answered → as it is. */
async function run(app: AppContext, m: MoneyMovement): Promise<MovementOutcome> {
  if (m.status !== 'P') return outcomeOf(m);
  const done = await callAndRecord(app, m);
  return outcomeOf(done);
}

// ── refund ──────────────────────────────────────────────────────────────────────────────────────────────────

export interface RefundRequest extends MovementAsker {
  /** The settled charge paid back (its gateway reference is what the gateway refunds). */
  charge: {
    id: number;
    customerId: number;
    storeId: number | null;
    paymentInstrumentId: number | null;
    gatewayReference: string;
    currency: string;
  };
  amountCents: number;
  /** Names this refund: the same key never refunds twice (e.g. `refund:memo12`). */
  key: string;
  purpose: string;
  context?: Record<string, unknown>;
  reason: string;
  /**
   * The refund transaction's invoice: the invoice it counts against in the ledger — null when a refund memo is what
   * counts for the invoice (memos, returns).
   */
  invoiceId: number | null;
  /**
   * The limit re-checked under lock when the P is recorded: what is left to refund on this invoice (a memo being
   * decided left out of the pending sums), or the customer's credit on account; null: the caller's own rows bound it.
   */
  limit: { invoiceId: number; exceptMemoId?: number } | { onAccount: true; exceptMemoId?: number } | null;
  /** Rows of the asker's own written in the same transaction as the P (e.g. the return's intent). */
  alsoRecord?: (tx: Db, now: Date) => Promise<void>;
}

/**
 * Refund (part of) a settled charge: P recorded under the money locks with the limit re-checked, committed; the
 * gateway called outside any transaction; S / F recorded (afterPosting when the refund counts for an invoice).
 * The same key again: the recorded refund (a P one is sent again with its key, so the gateway refunds once).
 */
export async function refundPayment(app: AppContext, req: RefundRequest): Promise<MovementOutcome> {
  const now = app.clock.now();
  const m = await app.database.db.transaction(async (tx) => {
    const invoiceIds = [
      ...(req.invoiceId !== null ? [req.invoiceId] : []),
      ...(req.limit && 'invoiceId' in req.limit ? [req.limit.invoiceId] : []),
    ];
    await lockForMoney(tx, { customerId: req.charge.customerId, invoiceIds });
    const same = await movementByKey(tx, req.key);
    if (same) return same;
    if (req.limit && 'invoiceId' in req.limit) {
      const limits = await invoiceLimits(
        tx,
        req.limit.invoiceId,
        req.limit.exceptMemoId !== undefined ? { memoId: req.limit.exceptMemoId } : {},
      );
      assertRefundable(limits, req.amountCents);
    } else if (req.limit) {
      const limits = await onAccountLimits(
        tx,
        req.charge.customerId,
        req.charge.currency,
        req.limit.exceptMemoId !== undefined ? { memoId: req.limit.exceptMemoId } : {},
      );
      assertOnAccount(limits, req.amountCents, req.charge.currency);
    }
    const [refundRow] = await tx
      .insert(transactions)
      .values({
        customerId: req.charge.customerId,
        storeId: req.charge.storeId,
        invoiceId: req.invoiceId,
        paymentInstrumentId: req.charge.paymentInstrumentId,
        kind: 'refund',
        status: 'P',
        amountCents: req.amountCents,
        currency: req.charge.currency,
        idempotencyKey: req.key,
        attemptedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: transactions.id });
    await req.alsoRecord?.(tx, now);
    return insertMovement(
      tx,
      {
        operation: 'refund',
        key: req.key,
        purpose: req.purpose,
        context: { ...req.context, reason: req.reason, refunded_charge_id: req.charge.id },
        customerId: req.charge.customerId,
        transactionId: refundRow!.id,
        targetReference: req.charge.gatewayReference,
        amountCents: req.amountCents,
        currency: req.charge.currency,
      },
      req,
      now,
    );
  });
  return run(app, m);
}

// ── void ────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Void a pending (P) charge at the gateway: the void recorded P (committed), the gateway called, the charge V once
 * the gateway answered. `key` names the charge and the version acted on (`void:<id>:v<version>`): a repeat voids once.
 */
export async function voidCharge(
  app: AppContext,
  req: MovementAsker & {
    charge: { id: number; customerId: number; gatewayReference: string | null; amountCents: number; currency: string };
    key: string;
    purpose: string;
    context?: Record<string, unknown>;
  },
): Promise<MovementOutcome> {
  const now = app.clock.now();
  const m = await app.database.db.transaction(
    async (tx) =>
      (await movementByKey(tx, req.key)) ??
      insertMovement(
        tx,
        {
          operation: 'void',
          key: req.key,
          purpose: req.purpose,
          context: req.context ?? {},
          customerId: req.charge.customerId,
          transactionId: req.charge.id,
          targetReference: req.charge.gatewayReference ?? `tx_${req.charge.id}`,
          amountCents: req.charge.amountCents,
          currency: req.charge.currency,
        },
        req,
        now,
      ),
  );
  return run(app, m);
}

// ── holds: capture, release, authorize ─────────────────────────────────────────────────────────────────────

/** Capture (part of) a card hold, or release (void) it: recorded P, called, answered (purpose 'hold'). */
export async function settleHold(
  app: AppContext,
  req: MovementAsker & {
    action: 'capture' | 'release';
    authorizationReference: string;
    amountCents: number;
    currency: string;
    customerId: number | null;
    context: Record<string, unknown>;
  },
): Promise<MovementOutcome> {
  const now = app.clock.now();
  const key = `${req.action}:${req.authorizationReference}`;
  const m = await app.database.db.transaction(
    async (tx) =>
      (await movementByKey(tx, key)) ??
      insertMovement(
        tx,
        {
          operation: req.action === 'capture' ? 'capture' : 'void',
          key,
          purpose: 'hold',
          context: req.context,
          customerId: req.customerId,
          targetReference: req.authorizationReference,
          amountCents: req.action === 'capture' ? req.amountCents : 0,
          currency: req.currency,
        },
        req,
        now,
      ),
  );
  return run(app, m);
}

/**
 * Authorize (hold) an amount on a card: recorded P, committed, the gateway asked, the answer recorded (S: authorized,
 * F: declined). A lost answer → 503 (the movement stays P; the same request again — same key — gets the gateway's
 * answer, never a second hold).
 */
export async function authorizeCard(
  app: AppContext,
  req: MovementAsker & {
    key: string;
    customerId: number | null;
    amountCents: number;
    currency: string;
    paymentReference: string;
    description: string;
    context: Record<string, unknown>;
  },
): Promise<AuthorizeResult> {
  const now = app.clock.now();
  const m = await app.database.db.transaction(
    async (tx) =>
      (await movementByKey(tx, req.key)) ??
      insertMovement(
        tx,
        {
          operation: 'authorize',
          key: req.key,
          purpose: 'authorize',
          context: { ...req.context, description: req.description },
          customerId: req.customerId,
          targetReference: req.paymentReference,
          amountCents: req.amountCents,
          currency: req.currency,
        },
        req,
        now,
      ),
  );
  // An authorization's answer carries its decline code: ask the gateway (by the same key: the same hold) even when
  // the movement was answered before.
  let answer: MovementAnswer;
  try {
    answer = await callGateway(app, m);
  } catch (err) {
    if (answerLost(err))
      throw new AppError(
        'unavailable',
        'The payment gateway did not answer. Nothing is recorded yet; send the same request again in a moment (it holds the card once).',
      );
    throw err;
  }
  if (m.status === 'P') await recordMovementAnswer(app, m.id, answer);
  return answer.authorization!;
}

// ── the reconciler ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Movements still P whose answer was lost (older than `cutoff`): the same call again with the same key — the gateway
 * answers what it did the first time — and the answer recorded once. Answers how many were answered now.
 */
export async function reconcileMovements(app: AppContext, cutoff: Date, limit = 5000): Promise<number> {
  const pending = await app.database.db
    .select()
    .from(moneyMovements)
    .where(and(eq(moneyMovements.status, 'P'), lte(moneyMovements.createdAt, cutoff)))
    .orderBy(asc(moneyMovements.createdAt), asc(moneyMovements.id))
    .limit(limit);
  let answered = 0;
  for (const m of pending) {
    const done = await callAndRecord(app, m);
    if (done.status !== 'P') answered++;
  }
  return answered;
}

/** Is a void of this charge recorded (P or answered)? The charge reconciler leaves such a charge to the void. */
export async function voidRecordedFor(db: Db, transactionId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: moneyMovements.id })
    .from(moneyMovements)
    .where(
      and(
        eq(moneyMovements.transactionId, transactionId),
        eq(moneyMovements.operation, 'void'),
        sql`${moneyMovements.status} <> 'F'`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The status a refund or void left its transaction in (for answers that show it). */
export async function transactionStatusOf(db: Db, transactionId: number): Promise<TransactionStatus | null> {
  const [row] = await db
    .select({ status: transactions.status })
    .from(transactions)
    .where(eq(transactions.id, transactionId));
  return (row?.status as TransactionStatus | undefined) ?? null;
}
