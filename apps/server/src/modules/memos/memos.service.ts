import {
  CREDIT_MEMO_STATUS_LABELS,
  CREDIT_MEMO_TYPE_LABELS,
  formatMoney,
  needsSecondApprover,
  type CreditMemoStatus,
  type CreditMemoType,
  type CurrencyCode,
  type DecisionRequest,
  type MemoCreateRequest,
  type MemoDecisionResult,
  type MemoItem,
  type MemoList,
  type MemoListQuery,
  type RefundMethod,
} from '@pos/domain';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AppContext, ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { creditMemos, customers, invoices, stores, transactions } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError, fieldError, versionConflict } from '../../http/errors';
import { runIdempotent, type IdempotentWork } from '../../http/idempotency';
import { prepareLicenseJobs } from '../billing';
import {
  assertCreditable,
  assertFourEyes,
  assertOnAccount,
  assertRefundable,
  balancesOf,
  invoiceLimits,
  lockForMoney,
  onAccountLimits,
} from '../ledger';
import { afterPosting, refundPayment, type MoneyMovement } from '../payments';

/*
 * Credit, refund and adjustment memos (issue 16 point 1, decision 120). A memo is asked for (status P) and counts in
 * the ledger (view invoice_balances) only once approved by a holder of ar_approvals — above the credit threshold by
 * someone other than the requester. Approving a refund by the gateway refunds the invoice's charge OUTSIDE any
 * transaction (key `refund:memo<id>`), then records the refund transaction (invoice_id null: the memo is what
 * counts for the invoice) and the approval in one transaction.
 */

type MemoRow = typeof creditMemos.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toMemoItem(m: MemoRow, customerName: string, invoiceNumber: string | null): MemoItem {
  return {
    id: m.id,
    customer_id: m.customerId,
    customer_name: customerName,
    store_id: m.storeId,
    invoice_id: m.invoiceId,
    invoice_number: invoiceNumber,
    type: m.type,
    type_label: CREDIT_MEMO_TYPE_LABELS[m.type as CreditMemoType] ?? m.type,
    status: m.status,
    status_label: CREDIT_MEMO_STATUS_LABELS[m.status as CreditMemoStatus] ?? m.status,
    amount_cents: m.amountCents,
    currency: m.currency as CurrencyCode,
    reason: m.reason,
    note: m.note,
    refund_method: (m.refundMethod as RefundMethod | null) ?? null,
    transaction_id: m.transactionId,
    return_id: m.returnId,
    created_by_email: m.createdByEmail,
    created_at: m.createdAt.toISOString(),
    approved_by_email: m.approvedByEmail,
    decided_at: iso(m.decidedAt),
    decision_reason: m.decisionReason,
    needs_second_approver: needsSecondApprover(m.amountCents),
    version: m.version,
  };
}

const memoSelect = {
  memo: creditMemos,
  customerName: customers.legalName,
  invoiceNumber: invoices.invoiceNumber,
};

function memoQuery(db: Db, where: SQL | undefined) {
  return db
    .select(memoSelect)
    .from(creditMemos)
    .innerJoin(customers, eq(customers.id, creditMemos.customerId))
    .leftJoin(invoices, eq(invoices.id, creditMemos.invoiceId))
    .where(where);
}

export async function loadMemoItem(db: Db, memoId: number): Promise<MemoItem> {
  const [r] = await memoQuery(db, eq(creditMemos.id, memoId));
  if (!r) throw new AppError('not_found', `Memo ${memoId} was not found.`);
  return toMemoItem(r.memo, r.customerName, r.invoiceNumber);
}

/** POST /api/memos/{token}: ask for a memo (status P; nothing counts until approved). */
export async function createMemo(
  ctx: ServiceCtx,
  body: MemoCreateRequest,
  idempotencyKey: string | undefined,
): Promise<MemoItem> {
  return runIdempotent(
    ctx,
    { route: 'POST /memos', key: idempotencyKey, request: { params: {}, body }, status: 201 },
    async (tx, now) => {
      const [customer] = await tx.select().from(customers).where(eq(customers.id, body.customer_id));
      if (!customer) throw new AppError('not_found', `Customer ${body.customer_id} was not found.`);
      // The customer and the invoice are locked: two requests are checked against the limits one after the other.
      await lockForMoney(tx, { customerId: customer.id, invoiceIds: body.invoice_id ? [body.invoice_id] : [] });
      let storeId = body.store_id ?? null;
      let currency = (body.currency ?? customer.currency) as CurrencyCode;
      let invoiceNumber: string | null = null;
      if (body.invoice_id) {
        const [inv] = await tx
          .select()
          .from(invoices)
          .where(and(eq(invoices.id, body.invoice_id), eq(invoices.customerId, body.customer_id)));
        if (!inv)
          throw new AppError('not_found', `Invoice ${body.invoice_id} of customer ${body.customer_id} was not found.`);
        if (body.currency && body.currency !== inv.currency)
          throw fieldError('currency', `Invoice ${inv.invoiceNumber} is in ${inv.currency}; a memo against it is too.`);
        storeId = inv.storeId;
        currency = inv.currency as CurrencyCode;
        invoiceNumber = inv.invoiceNumber;
        // Issue 28: pending requests count — two requests can never together take more than is there.
        const limits = await invoiceLimits(tx, inv.id);
        if (body.type === 'R') assertRefundable(limits, body.amount_cents);
        else assertCreditable(limits, body.amount_cents);
      } else if (body.type === 'R') {
        // A refund that names no invoice pays back credit on account: only money received and not applied.
        assertOnAccount(await onAccountLimits(tx, customer.id, currency), body.amount_cents, currency);
      }
      if (!body.invoice_id && storeId !== null) {
        const [store] = await tx
          .select({ id: stores.id })
          .from(stores)
          .where(and(eq(stores.id, storeId), eq(stores.customerId, body.customer_id)));
        if (!store) throw new AppError('not_found', `Store ${storeId} of customer ${body.customer_id} was not found.`);
      }
      const [m] = await tx
        .insert(creditMemos)
        .values({
          customerId: body.customer_id,
          storeId,
          invoiceId: body.invoice_id ?? null,
          type: body.type,
          status: 'P',
          amountCents: body.amount_cents,
          currency,
          reason: body.reason,
          note: body.note,
          refundMethod: body.refund_method ?? null,
          createdByEmail: ctx.session.email,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const item = toMemoItem(m!, customer.legalName, invoiceNumber);
      await writeAudit(tx, {
        ...ctx.actor,
        at: now,
        action: 'create',
        entity: 'credit_memo',
        entityId: m!.id,
        customerId: body.customer_id,
        after: {
          customer_id: body.customer_id,
          invoice_id: item.invoice_id,
          type: item.type,
          status: 'P',
          amount_cents: item.amount_cents,
          currency,
          reason: item.reason,
          note: item.note,
          refund_method: item.refund_method,
        },
        requestId: ctx.requestId,
      });
      return item;
    },
  );
}

/** GET /api/memos/{token}: memos, newest first, by status, type, customer, invoice. */
export async function listMemos(ctx: ServiceCtx, q: MemoListQuery): Promise<MemoList> {
  const db = ctx.app.database.db;
  const where = and(
    q.status ? eq(creditMemos.status, q.status) : undefined,
    q.type ? eq(creditMemos.type, q.type) : undefined,
    q.customer_id ? eq(creditMemos.customerId, q.customer_id) : undefined,
    q.invoice_id ? eq(creditMemos.invoiceId, q.invoice_id) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    memoQuery(db, where).orderBy(desc(creditMemos.createdAt), desc(creditMemos.id)).limit(q.limit).offset(q.offset),
    db.select({ n: count() }).from(creditMemos).where(where),
  ]);
  return { items: rows.map((r) => toMemoItem(r.memo, r.customerName, r.invoiceNumber)), total: total!.n };
}

/** The checks of a decision, made before the gateway call and again in the transaction. */
async function checkDecidable(
  ctx: ServiceCtx,
  db: Db,
  m: MemoRow,
  body: DecisionRequest,
  shown: () => Promise<unknown>,
) {
  if (m.status !== 'P') {
    const label = CREDIT_MEMO_STATUS_LABELS[m.status as CreditMemoStatus]?.toLowerCase() ?? m.status;
    throw new AppError(
      'conflict',
      `Memo ${m.id} was already ${label}${m.approvedByEmail ? ` by ${m.approvedByEmail}` : ''}; there is nothing left to decide.`,
      undefined,
      { current: await shown() },
    );
  }
  if (m.version !== body.version) throw versionConflict(`Memo ${m.id}`, await shown(), body.version);
  if (body.decision === 'approve')
    // The four-eyes rule over sums (issue 28): the requester's credits, refunds and write-offs add up.
    await assertFourEyes(db, {
      requesterEmail: m.createdByEmail,
      deciderEmail: ctx.session.email,
      customerId: m.customerId,
      invoiceId: m.invoiceId,
      amountCents: m.amountCents,
      now: ctx.app.clock.now(),
      except: { memoId: m.id },
    });
}

/**
 * The limits a memo's approval must still fit, under the caller's locks (issue 28): a refund no more than is left to
 * refund on its invoice (or on the customer's account when it names none), a credit or an adjustment no more than is
 * open less the other credits waiting.
 */
async function assertMemoFits(db: Db, m: MemoRow): Promise<void> {
  if (m.invoiceId !== null) {
    const limits = await invoiceLimits(db, m.invoiceId, { memoId: m.id });
    if (m.type === 'R') assertRefundable(limits, m.amountCents);
    else assertCreditable(limits, m.amountCents);
  } else if (m.type === 'R') {
    assertOnAccount(await onAccountLimits(db, m.customerId, m.currency, { memoId: m.id }), m.amountCents, m.currency);
  }
}

interface PreparedRefund {
  chargeId: number;
  transactionId: number;
}

/** Who decides a memo and how (the request's, or kept on a refund's money movement for its answer). */
interface MemoDecider {
  email: string;
  actor: AuditActor;
  requestId: string | null;
  approve: boolean;
  reason: string | null;
}

/**
 * Record a decision on a pending memo (under the caller's locks): its status, the refund transaction it paid back by,
 * the invoice's figures and settlement (afterPosting) and the audit. The one writer of a decision: the request's
 * effect, and a gateway refund's answer (memoRefundAnswered) — the same whether the answer came at once or later.
 */
async function recordMemoDecision(
  tx: Db,
  app: AppContext,
  m: MemoRow,
  who: MemoDecider,
  refund: PreparedRefund | null,
  now: Date,
): Promise<number | null> {
  const [after] = await tx
    .update(creditMemos)
    .set({
      status: who.approve ? 'A' : 'R',
      approvedByEmail: who.email,
      decidedAt: now,
      decisionReason: who.reason,
      transactionId: refund?.transactionId ?? null,
      updatedAt: now,
      version: sql`${creditMemos.version} + 1`,
    })
    .where(eq(creditMemos.id, m.id))
    .returning();
  let balance: number | null = null;
  if (m.invoiceId !== null) {
    if (who.approve) await afterPosting(tx, app, [m.invoiceId], now, who.actor, who.requestId ?? '');
    balance = (await balancesOf(tx, [m.invoiceId])).get(m.invoiceId)?.open_cents ?? null;
  }
  await writeAudit(tx, {
    ...who.actor,
    at: now,
    action: who.approve ? 'approve' : 'reject',
    entity: 'credit_memo',
    entityId: m.id,
    customerId: m.customerId,
    before: { customer_id: m.customerId, status: 'P', version: m.version },
    after: {
      customer_id: m.customerId,
      invoice_id: m.invoiceId,
      type: m.type,
      status: after!.status,
      amount_cents: m.amountCents,
      currency: m.currency,
      requested_by: m.createdByEmail,
      decided_by: who.email,
      decision_reason: who.reason,
      refund_method: m.refundMethod,
      ...(m.type === 'R' && who.approve && m.refundMethod === 'check' ? { refund: 'check to mail' } : {}),
      transaction_id: refund?.transactionId ?? null,
      refunded_charge_id: refund?.chargeId ?? null,
      invoice_balance_cents: balance,
      version: after!.version,
    },
    requestId: who.requestId,
  });
  return balance;
}

/**
 * A memo's gateway refund was answered (money path, purpose 'memo'; decision 144): settled → the memo is approved as
 * its decider asked, whoever recorded the answer (the request, or the payments sweep after a lost answer); refused →
 * the memo stays pending. Once: only a pending memo is decided.
 */
export async function memoRefundAnswered(tx: Db, app: AppContext, mv: MoneyMovement, now: Date): Promise<void> {
  if (mv.status !== 'S' || mv.transactionId === null) return;
  const c = mv.context as {
    memo_id?: number;
    decider_email?: string;
    decision_reason?: string | null;
    refunded_charge_id?: number;
    asked_by?: AuditActor;
    request_id?: string | null;
  };
  if (typeof c.memo_id !== 'number' || typeof c.decider_email !== 'string') return;
  const [found] = await tx.select().from(creditMemos).where(eq(creditMemos.id, c.memo_id));
  if (!found) return;
  await lockForMoney(tx, { customerId: found.customerId, invoiceIds: found.invoiceId ? [found.invoiceId] : [] });
  const [m] = await tx.select().from(creditMemos).where(eq(creditMemos.id, c.memo_id)).for('update');
  if (!m || m.status !== 'P') return;
  // The refund the gateway made is recorded whatever the limits say now: it was checked under lock when its P was
  // recorded (decision 143).
  await recordMemoDecision(
    tx,
    app,
    m,
    {
      email: c.decider_email,
      actor: c.asked_by ?? { actorType: 'system', actorId: 'payments' },
      requestId: c.request_id ?? null,
      approve: true,
      reason: c.decision_reason ?? null,
    },
    { chargeId: c.refunded_charge_id ?? 0, transactionId: mv.transactionId },
    now,
  );
}

/**
 * The two steps of a memo decision (the single call and the approvals queue's bulk call run the same): `outside`
 * checks and, for a refund by the gateway, refunds the charge through the money path (P recorded under lock with the
 * limit re-checked, committed, the gateway called outside any transaction, the answer approving the memo); `effect`
 * checks again under lock and records any other decision.
 */
export function memoDecisionWork(
  ctx: ServiceCtx,
  memoId: number,
  body: DecisionRequest,
): IdempotentWork<PreparedRefund | null, MemoDecisionResult> {
  return {
    outside: async () => {
      const db = ctx.app.database.db;
      const [m] = await db.select().from(creditMemos).where(eq(creditMemos.id, memoId));
      if (!m) throw new AppError('not_found', `Memo ${memoId} was not found.`);
      await checkDecidable(ctx, db, m, body, () => loadMemoItem(db, memoId));
      if (body.decision === 'approve') await assertMemoFits(db, m);
      await prepareLicenseJobs(ctx.app);
      if (body.decision !== 'approve' || m.type !== 'R' || m.refundMethod !== 'gateway' || m.invoiceId === null)
        return null;
      const money = formatMoney(m.amountCents, m.currency as CurrencyCode);
      const charges = await db
        .select()
        .from(transactions)
        .where(
          and(
            eq(transactions.invoiceId, m.invoiceId),
            eq(transactions.kind, 'charge'),
            eq(transactions.status, 'S'),
            sql`${transactions.gatewayReference} is not null`,
            sql`${transactions.amountCents} >= ${m.amountCents}`,
          ),
        )
        .orderBy(desc(transactions.id))
        .limit(1);
      const charge = charges[0];
      if (!charge)
        throw new AppError(
          'conflict',
          `No card or bank payment of this invoice covers ${money} (it was paid another way or in parts). Reject this memo and ask for a refund by check.`,
        );
      const refund = await refundPayment(ctx.app, {
        charge: { ...charge, gatewayReference: charge.gatewayReference! },
        amountCents: m.amountCents,
        key: `refund:memo${m.id}`,
        purpose: 'memo',
        context: { memo_id: m.id, decider_email: ctx.session.email, decision_reason: body.reason },
        reason: `Refund memo ${m.id}: ${m.reason}`,
        // Null: the memo is what counts for the invoice once approved; its limit is re-checked under lock.
        invoiceId: null,
        limit: { invoiceId: m.invoiceId, exceptMemoId: m.id },
        actor: ctx.actor,
        requestId: ctx.requestId,
      });
      if (refund.status === 'P')
        throw new AppError(
          'unavailable',
          'The payment gateway did not answer. The refund is recorded as pending and the memo is approved once the gateway answers (it is refunded once).',
        );
      if (refund.status === 'F')
        throw new AppError(
          'conflict',
          `The gateway refused the refund: ${refund.failureReason ?? 'declined'} The memo stays pending; reject it and ask for a refund by check.`,
        );
      return { chargeId: charge.id, transactionId: refund.transactionId! };
    },
    effect: async (tx, now, refund) => {
      const [found] = await tx.select().from(creditMemos).where(eq(creditMemos.id, memoId));
      if (!found) throw new AppError('not_found', `Memo ${memoId} was not found.`);
      // The customer and the invoice first, then the memo (the order every money movement locks in).
      await lockForMoney(tx, { customerId: found.customerId, invoiceIds: found.invoiceId ? [found.invoiceId] : [] });
      const [m] = await tx.select().from(creditMemos).where(eq(creditMemos.id, memoId)).for('update');
      if (!m) throw new AppError('not_found', `Memo ${memoId} was not found.`);
      const balanceOf = async () =>
        m.invoiceId === null ? null : ((await balancesOf(tx, [m.invoiceId])).get(m.invoiceId)?.open_cents ?? null);
      // A gateway refund's answer approved the memo already (memoRefundAnswered).
      if (refund && m.status === 'A' && m.transactionId === refund.transactionId)
        return { memo: await loadMemoItem(tx, memoId), invoice_balance_cents: await balanceOf() };
      await checkDecidable(ctx, tx, m, body, () => loadMemoItem(tx, memoId));
      const approve = body.decision === 'approve';
      // When the credit or the refund actually moves, the limits are checked again under the locks (issue 28).
      if (approve) await assertMemoFits(tx, m);
      const balance = await recordMemoDecision(
        tx,
        ctx.app,
        m,
        { email: ctx.session.email, actor: ctx.actor, requestId: ctx.requestId, approve, reason: body.reason },
        null,
        now,
      );
      return { memo: await loadMemoItem(tx, memoId), invoice_balance_cents: balance };
    },
  };
}

/** POST /api/memos/{memoId}/decision/{token}. */
export function decideMemo(
  ctx: ServiceCtx,
  memoId: number,
  body: DecisionRequest,
  idempotencyKey: string | undefined,
): Promise<MemoDecisionResult> {
  return runIdempotent(
    ctx,
    { route: 'POST /memos/:memoId/decision', key: idempotencyKey, request: { params: { memoId }, body } },
    memoDecisionWork(ctx, memoId, body),
  );
}

/** Run a decision's two steps without an Idempotency-Key of its own (one item of a bulk decision). */
export async function runDecision<P, T>(ctx: ServiceCtx, work: IdempotentWork<P, T>): Promise<T> {
  const now = ctx.app.clock.now();
  const prepared = await work.outside({ now, requestRef: ctx.requestId });
  return ctx.app.database.db.transaction((tx) => work.effect(tx, now, prepared));
}
