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
import type { ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { creditMemos, customers, invoices, stores, transactions } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, fieldError, versionConflict } from '../../http/errors';
import { runIdempotent, type IdempotentWork } from '../../http/idempotency';
import { GatewayOutcomeUnknown } from '../../integrations/gateway';
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
  syncInvoice,
} from '../ledger';
import { invoicesSettled } from '../payments';

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
  reference: string;
  key: string;
}

/**
 * The two steps of a memo decision (the single call and the approvals queue's bulk call run the same): `outside`
 * checks and, for a refund by the gateway, refunds the charge (no transaction open); `effect` checks again under
 * lock and records the decision, the refund transaction and the invoice's new balance.
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
      const key = `refund:memo${m.id}`;
      let answer;
      try {
        answer = await ctx.app.gateway.refund({
          chargeReference: charge.gatewayReference!,
          amountCents: m.amountCents,
          idempotencyKey: key,
          reason: `Refund memo ${m.id}: ${m.reason}`,
        });
      } catch (err) {
        if (err instanceof GatewayOutcomeUnknown)
          throw new AppError(
            'unavailable',
            'The payment gateway did not answer. The memo stays pending; approve it again in a moment (it is refunded once).',
          );
        throw err;
      }
      if (answer.status !== 'succeeded')
        throw new AppError(
          'conflict',
          `The gateway refused the refund: ${answer.failureReason ?? 'declined'} The memo stays pending; reject it and ask for a refund by check.`,
        );
      return { chargeId: charge.id, reference: answer.reference, key };
    },
    effect: async (tx, now, refund) => {
      const [found] = await tx.select().from(creditMemos).where(eq(creditMemos.id, memoId));
      if (!found) throw new AppError('not_found', `Memo ${memoId} was not found.`);
      // The customer and the invoice first, then the memo (the order every money movement locks in).
      await lockForMoney(tx, { customerId: found.customerId, invoiceIds: found.invoiceId ? [found.invoiceId] : [] });
      const [m] = await tx.select().from(creditMemos).where(eq(creditMemos.id, memoId)).for('update');
      if (!m) throw new AppError('not_found', `Memo ${memoId} was not found.`);
      await checkDecidable(ctx, tx, m, body, () => loadMemoItem(tx, memoId));
      const approve = body.decision === 'approve';
      // When the credit or the refund actually moves, the limits are checked again under the locks (issue 28). A
      // refund the gateway has already made is recorded whatever: it counted as pending when it was checked.
      if (approve && !refund) await assertMemoFits(tx, m);
      let transactionId: number | null = null;
      if (approve && refund) {
        const [created] = await tx
          .insert(transactions)
          .values({
            customerId: m.customerId,
            storeId: m.storeId,
            invoiceId: null,
            kind: 'refund',
            status: 'S',
            amountCents: m.amountCents,
            currency: m.currency,
            gatewayReference: refund.reference,
            idempotencyKey: refund.key,
            attemptedAt: now,
            settledAt: now,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning({ id: transactions.id });
        transactionId =
          created?.id ??
          (
            await tx
              .select({ id: transactions.id })
              .from(transactions)
              .where(eq(transactions.idempotencyKey, refund.key))
          )[0]!.id;
      }
      const [after] = await tx
        .update(creditMemos)
        .set({
          status: approve ? 'A' : 'R',
          approvedByEmail: ctx.session.email,
          decidedAt: now,
          decisionReason: body.reason,
          transactionId,
          updatedAt: now,
          version: sql`${creditMemos.version} + 1`,
        })
        .where(eq(creditMemos.id, memoId))
        .returning();
      let balance: number | null = null;
      if (m.invoiceId !== null) {
        if (approve) {
          await syncInvoice(tx, m.invoiceId, now);
          await invoicesSettled(tx, ctx.app, [m.invoiceId], now, ctx.actor, ctx.requestId);
        }
        balance = (await balancesOf(tx, [m.invoiceId])).get(m.invoiceId)?.open_cents ?? null;
      }
      await writeAudit(tx, {
        ...ctx.actor,
        at: now,
        action: approve ? 'approve' : 'reject',
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
          decided_by: ctx.session.email,
          decision_reason: body.reason,
          refund_method: m.refundMethod,
          ...(m.type === 'R' && approve && m.refundMethod === 'check' ? { refund: 'check to mail' } : {}),
          transaction_id: transactionId,
          refunded_charge_id: refund?.chargeId ?? null,
          invoice_balance_cents: balance,
          version: after!.version,
        },
        requestId: ctx.requestId,
      });
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
