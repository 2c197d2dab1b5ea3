import {
  CREDIT_MEMO_STATUS_LABELS,
  WRITE_OFF_TYPE_LABELS,
  formatMoney,
  needsSecondApprover,
  type CreditMemoStatus,
  type CurrencyCode,
  type DecisionRequest,
  type WriteOffCreateRequest,
  type WriteOffDecisionResult,
  type WriteOffItem,
  type WriteOffList,
  type WriteOffListQuery,
  type WriteOffType,
} from '@pos/domain';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { customers, invoiceDunning, invoices, writeOffs } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, versionConflict } from '../../http/errors';
import { runIdempotent, type IdempotentWork } from '../../http/idempotency';
import { prepareLicenseJobs } from '../billing';
import { assertCreditable, assertFourEyes, balancesOf, invoiceLimits, lockForMoney } from '../ledger';
import { afterPosting } from '../payments';

/*
 * Write-offs 142 Write_Off and 164 Write_Off Unrecoverable (issue 16 point 4, decision 120). Asked for with the
 * invoice's open balance (status P); approved by a holder of ar_approvals (above the credit threshold, someone
 * other than the requester), which writes off exactly that balance (409 if it moved meanwhile), stops the
 * invoice's dunning (state 'stopped', no next retry) — the sweep and auto-pay leave it alone, and with nothing
 * open it is not overdue.
 */

type WriteOffRow = typeof writeOffs.$inferSelect;

export function toWriteOffItem(w: WriteOffRow, customerName: string, invoiceNumber: string): WriteOffItem {
  return {
    id: w.id,
    customer_id: w.customerId,
    customer_name: customerName,
    invoice_id: w.invoiceId,
    invoice_number: invoiceNumber,
    type: w.type,
    type_label: WRITE_OFF_TYPE_LABELS[w.type as WriteOffType] ?? String(w.type),
    status: w.status,
    status_label: CREDIT_MEMO_STATUS_LABELS[w.status as CreditMemoStatus] ?? w.status,
    amount_cents: w.amountCents,
    currency: w.currency as CurrencyCode,
    reason: w.reason,
    note: w.note,
    created_by_email: w.createdByEmail,
    created_at: w.createdAt.toISOString(),
    approved_by_email: w.approvedByEmail,
    decided_at: w.decidedAt ? w.decidedAt.toISOString() : null,
    decision_reason: w.decisionReason,
    needs_second_approver: needsSecondApprover(w.amountCents),
    version: w.version,
  };
}

function writeOffQuery(db: Db, where: SQL | undefined) {
  return db
    .select({ w: writeOffs, customerName: customers.legalName, invoiceNumber: invoices.invoiceNumber })
    .from(writeOffs)
    .innerJoin(customers, eq(customers.id, writeOffs.customerId))
    .innerJoin(invoices, eq(invoices.id, writeOffs.invoiceId))
    .where(where);
}

export async function loadWriteOffItem(db: Db, id: number): Promise<WriteOffItem> {
  const [r] = await writeOffQuery(db, eq(writeOffs.id, id));
  if (!r) throw new AppError('not_found', `Write-off ${id} was not found.`);
  return toWriteOffItem(r.w, r.customerName, r.invoiceNumber);
}

/** POST /api/writeoffs/{token}: ask to write off what is open on an invoice. */
export function createWriteOff(
  ctx: ServiceCtx,
  body: WriteOffCreateRequest,
  idempotencyKey: string | undefined,
): Promise<WriteOffItem> {
  return runIdempotent(
    ctx,
    { route: 'POST /writeoffs', key: idempotencyKey, request: { params: {}, body }, status: 201 },
    async (tx, now) => {
      const [found] = await tx.select().from(invoices).where(eq(invoices.id, body.invoice_id));
      if (!found) throw new AppError('not_found', `Invoice ${body.invoice_id} was not found.`);
      await lockForMoney(tx, { customerId: found.customerId, invoiceIds: [found.id] });
      const [inv] = await tx.select().from(invoices).where(eq(invoices.id, body.invoice_id));
      if (!inv) throw new AppError('not_found', `Invoice ${body.invoice_id} was not found.`);
      if (inv.reversedAt !== null)
        throw new AppError('conflict', `Invoice ${inv.invoiceNumber} is reversed: there is nothing to write off.`);
      const open = (await balancesOf(tx, [inv.id])).get(inv.id)!.open_cents;
      if (open <= 0)
        throw new AppError('conflict', `Invoice ${inv.invoiceNumber} has nothing open: there is nothing to write off.`);
      const [waiting] = await tx
        .select({ id: writeOffs.id })
        .from(writeOffs)
        .where(and(eq(writeOffs.invoiceId, inv.id), eq(writeOffs.status, 'P')));
      if (waiting)
        throw new AppError(
          'conflict',
          `Write-off ${waiting.id} of invoice ${inv.invoiceNumber} is already waiting for approval; decide that one first.`,
        );
      // What is open less the credits waiting for approval (issue 28): never written off twice.
      const limits = await invoiceLimits(tx, inv.id);
      if (limits.creditableCents <= 0) assertCreditable(limits, open);
      const [w] = await tx
        .insert(writeOffs)
        .values({
          customerId: inv.customerId,
          invoiceId: inv.id,
          type: body.type,
          amountCents: limits.creditableCents,
          currency: inv.currency,
          reason: body.reason,
          note: body.note,
          status: 'P',
          createdByEmail: ctx.session.email,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const [customer] = await tx
        .select({ name: customers.legalName })
        .from(customers)
        .where(eq(customers.id, inv.customerId));
      const item = toWriteOffItem(w!, customer!.name, inv.invoiceNumber);
      await writeAudit(tx, {
        ...ctx.actor,
        at: now,
        action: 'create',
        entity: 'write_off',
        entityId: w!.id,
        customerId: inv.customerId,
        after: {
          customer_id: inv.customerId,
          invoice_id: inv.id,
          type: body.type,
          status: 'P',
          amount_cents: limits.creditableCents,
          currency: inv.currency,
          reason: body.reason,
          note: body.note,
        },
        requestId: ctx.requestId,
      });
      return item;
    },
  );
}

/** GET /api/writeoffs/{token}. */
export async function listWriteOffs(ctx: ServiceCtx, q: WriteOffListQuery): Promise<WriteOffList> {
  const db = ctx.app.database.db;
  const where = and(
    q.status ? eq(writeOffs.status, q.status) : undefined,
    q.customer_id ? eq(writeOffs.customerId, q.customer_id) : undefined,
    q.invoice_id ? eq(writeOffs.invoiceId, q.invoice_id) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    writeOffQuery(db, where).orderBy(desc(writeOffs.createdAt), desc(writeOffs.id)).limit(q.limit).offset(q.offset),
    db.select({ n: count() }).from(writeOffs).where(where),
  ]);
  return { items: rows.map((r) => toWriteOffItem(r.w, r.customerName, r.invoiceNumber)), total: total!.n };
}

/** A write-off decision (the single call and the approvals queue's bulk call): all in one transaction. */
export function writeOffDecisionWork(
  ctx: ServiceCtx,
  writeOffId: number,
  body: DecisionRequest,
): IdempotentWork<void, WriteOffDecisionResult> {
  return {
    outside: async () => {
      await prepareLicenseJobs(ctx.app);
    },
    effect: async (tx, now) => {
      const [found] = await tx.select().from(writeOffs).where(eq(writeOffs.id, writeOffId));
      if (!found) throw new AppError('not_found', `Write-off ${writeOffId} was not found.`);
      await lockForMoney(tx, { customerId: found.customerId, invoiceIds: [found.invoiceId] });
      const [w] = await tx.select().from(writeOffs).where(eq(writeOffs.id, writeOffId)).for('update');
      if (!w) throw new AppError('not_found', `Write-off ${writeOffId} was not found.`);
      if (w.status !== 'P') {
        const label = CREDIT_MEMO_STATUS_LABELS[w.status as CreditMemoStatus]?.toLowerCase() ?? w.status;
        throw new AppError(
          'conflict',
          `Write-off ${w.id} was already ${label}${w.approvedByEmail ? ` by ${w.approvedByEmail}` : ''}; there is nothing left to decide.`,
          undefined,
          { current: await loadWriteOffItem(tx, w.id) },
        );
      }
      if (w.version !== body.version)
        throw versionConflict(`Write-off ${w.id}`, await loadWriteOffItem(tx, w.id), body.version);
      const approve = body.decision === 'approve';
      if (approve) {
        // The four-eyes rule over sums, and the credits waiting beside this write-off (issue 28).
        await assertFourEyes(tx, {
          requesterEmail: w.createdByEmail,
          deciderEmail: ctx.session.email,
          customerId: w.customerId,
          invoiceId: w.invoiceId,
          amountCents: w.amountCents,
          now,
          except: { writeOffId: w.id },
        });
      }
      const [inv] = await tx.select().from(invoices).where(eq(invoices.id, w.invoiceId));
      const open = (await balancesOf(tx, [w.invoiceId])).get(w.invoiceId)!.open_cents;
      if (approve && (open < w.amountCents || inv!.reversedAt !== null))
        throw new AppError(
          'conflict',
          `The balance of invoice ${inv!.invoiceNumber} changed since the write-off was asked for (${formatMoney(w.amountCents, w.currency as CurrencyCode)} then, ${formatMoney(open, w.currency as CurrencyCode)} now). Reject this one and ask again for what is open now.`,
        );
      // The credits waiting beside this write-off must still fit what is open (issue 28).
      if (approve) assertCreditable(await invoiceLimits(tx, w.invoiceId, { writeOffId: w.id }), w.amountCents);
      const [after] = await tx
        .update(writeOffs)
        .set({
          status: approve ? 'A' : 'R',
          approvedByEmail: ctx.session.email,
          decidedAt: now,
          decisionReason: body.reason,
          updatedAt: now,
          version: sql`${writeOffs.version} + 1`,
        })
        .where(eq(writeOffs.id, w.id))
        .returning();
      let balance = open;
      if (approve) {
        await afterPosting(tx, ctx.app, [w.invoiceId], now, ctx.actor, ctx.requestId);
        // Written off, not recovered: no retry, no auto-pay, out of collection.
        await tx
          .update(invoiceDunning)
          .set({ state: 'stopped', nextRetryOn: null, updatedAt: now, version: sql`${invoiceDunning.version} + 1` })
          .where(eq(invoiceDunning.invoiceId, w.invoiceId));
        balance = (await balancesOf(tx, [w.invoiceId])).get(w.invoiceId)!.open_cents;
      }
      await writeAudit(tx, {
        ...ctx.actor,
        at: now,
        action: approve ? 'approve' : 'reject',
        entity: 'write_off',
        entityId: w.id,
        customerId: w.customerId,
        before: { customer_id: w.customerId, status: 'P', version: w.version },
        after: {
          customer_id: w.customerId,
          invoice_id: w.invoiceId,
          type: w.type,
          status: after!.status,
          amount_cents: w.amountCents,
          currency: w.currency,
          requested_by: w.createdByEmail,
          decided_by: ctx.session.email,
          decision_reason: body.reason,
          invoice_balance_cents: balance,
          version: after!.version,
        },
        requestId: ctx.requestId,
      });
      return { write_off: await loadWriteOffItem(tx, w.id), invoice_balance_cents: balance };
    },
  };
}

/** POST /api/writeoffs/{writeOffId}/decision/{token}. */
export function decideWriteOff(
  ctx: ServiceCtx,
  writeOffId: number,
  body: DecisionRequest,
  idempotencyKey: string | undefined,
): Promise<WriteOffDecisionResult> {
  return runIdempotent(
    ctx,
    { route: 'POST /writeoffs/:writeOffId/decision', key: idempotencyKey, request: { params: { writeOffId }, body } },
    writeOffDecisionWork(ctx, writeOffId, body),
  );
}
