import type { TransactionsSnsRequest } from '@pos/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { invoiceDunning, transactions } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError } from '../../http/errors';
import { mailPaymentUpdateLink, merchantContact } from '../../jobs/merchant-contact';
import { refundPayment, voidCharge } from './money.service';
import { retryFailedCharge } from './retry.service';

export interface TransactionActionOutcome {
  transaction_id: number;
  ok: boolean;
  /** What happened, in words ('Charged: S', 'Fee waived', 'Not failed: nothing to retry'). */
  result: string;
  new_transaction_id?: number;
}

/**
 * POST /api/customers/transactions/sns (decision 116): one action on each named transaction of one customer. Each
 * transaction is done on its own (one failing does not stop the others); the gateway is never called inside a
 * transaction. The job's output lists what happened to each.
 */
export async function actOnTransactions(
  app: AppContext,
  input: TransactionsSnsRequest,
  actor: AuditActor,
  requestId: string,
  jobId: string,
): Promise<TransactionActionOutcome[]> {
  const rows = await app.database.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.customerId, input.customer_id), inArray(transactions.id, input.transaction_ids)));
  const out: TransactionActionOutcome[] = [];
  for (const id of input.transaction_ids) {
    const t = rows.find((r) => r.id === id);
    if (!t) {
      out.push({ transaction_id: id, ok: false, result: `Not a transaction of customer ${input.customer_id}` });
      continue;
    }
    try {
      out.push(await actOnOne(app, input.action, t, actor, requestId, jobId));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      out.push({ transaction_id: id, ok: false, result: err.message });
    }
  }
  return out;
}

async function actOnOne(
  app: AppContext,
  action: TransactionsSnsRequest['action'],
  t: typeof transactions.$inferSelect,
  actor: AuditActor,
  requestId: string,
  jobId: string,
): Promise<TransactionActionOutcome> {
  const now = app.clock.now();
  const no = (result: string): TransactionActionOutcome => ({ transaction_id: t.id, ok: false, result });
  const audit = (entity: string, entityId: number, act: string, before: unknown, after: unknown) =>
    app.database.db.transaction((tx) =>
      writeAudit(tx, {
        ...actor,
        at: now,
        action: act,
        entity,
        entityId,
        before,
        after,
        requestId,
        customerId: t.customerId,
      }),
    );
  switch (action) {
    case 'reprocess': {
      // The one retry rule (retry.service.ts), the same as the customer page's Retry.
      const retried = await retryFailedCharge(app, {
        transactionId: t.id,
        customerId: t.customerId,
        version: t.version,
        actor,
        requestId,
      });
      return {
        transaction_id: t.id,
        ok: retried.status === 'S' || retried.status === 'P',
        result: `Charged again: ${retried.status === 'S' ? 'paid' : retried.status === 'P' ? 'pending' : 'failed again'}`,
        new_transaction_id: retried.transactionId,
      };
    }
    case 'void': {
      if (t.status !== 'P') return no(`Transaction ${t.id} is ${t.status}; only a pending charge can be voided.`);
      const voided = await voidCharge(app, {
        charge: t,
        key: `void:${t.id}:v${t.version}`,
        purpose: 'transaction',
        context: { job_id: jobId },
        actor,
        requestId,
      });
      if (voided.status === 'P')
        return no('The payment gateway did not answer; the void is recorded and finished later.');
      return { transaction_id: t.id, ok: true, result: 'Voided' };
    }
    case 'refund': {
      if (t.status !== 'S' || t.kind !== 'charge' || !t.gatewayReference)
        return no(`Transaction ${t.id} is not a settled charge; only a settled charge can be refunded.`);
      const refunded = await refundPayment(app, {
        charge: { ...t, gatewayReference: t.gatewayReference },
        amountCents: t.amountCents,
        key: `refund:${t.id}`,
        purpose: 'transaction',
        context: { job_id: jobId },
        reason: `Refund of transaction ${t.id}`,
        invoiceId: t.invoiceId,
        limit: t.invoiceId !== null ? { invoiceId: t.invoiceId } : null,
        actor,
        requestId,
      });
      if (refunded.status === 'F')
        return no(`The gateway refused the refund: ${refunded.failureReason ?? 'declined'}.`);
      return {
        transaction_id: t.id,
        ok: true,
        result: refunded.status === 'P' ? 'Refund recorded; the gateway did not answer yet' : 'Refunded',
        ...(refunded.transactionId !== null ? { new_transaction_id: refunded.transactionId } : {}),
      };
    }
    case 'waive_fee':
    case 'stop_retries': {
      if (t.invoiceId === null) return no(`Transaction ${t.id} is not the charge of an invoice.`);
      const waive = action === 'waive_fee';
      const done = await app.database.db
        .update(invoiceDunning)
        .set(
          waive
            ? { feeState: 'waived', updatedAt: now, version: sql`${invoiceDunning.version} + 1` }
            : { state: 'stopped', nextRetryOn: null, updatedAt: now, version: sql`${invoiceDunning.version} + 1` },
        )
        .where(
          and(
            eq(invoiceDunning.invoiceId, t.invoiceId),
            waive ? eq(invoiceDunning.feeState, 'pending') : eq(invoiceDunning.state, 'retrying'),
          ),
        )
        .returning({ id: invoiceDunning.invoiceId });
      if (done.length === 0)
        return no(waive ? 'No failed-payment fee is waiting on this invoice.' : 'This invoice is not being retried.');
      await audit('invoice', t.invoiceId, waive ? 'fee_waived' : 'retries_stopped', null, {
        transaction_id: t.id,
        job_id: jobId,
      });
      return { transaction_id: t.id, ok: true, result: waive ? 'Fee waived' : 'Retries stopped' };
    }
    case 'send_update_link': {
      if (t.storeId === null) return no(`Transaction ${t.id} has no store to write to.`);
      const sent = await app.database.db.transaction(async (tx) => {
        const contact = await merchantContact(tx, t.storeId!, ['billing', 'owner', 'general']);
        if (!contact) return null;
        const link = await mailPaymentUpdateLink(tx, app, contact, now, {
          createdByStaffId: actor.actorType === 'staff' && typeof actor.actorId === 'number' ? actor.actorId : null,
        });
        await writeAudit(tx, {
          ...actor,
          at: now,
          action: 'payment_update_link_sent',
          entity: 'store',
          entityId: contact.store.id,
          customerId: t.customerId,
          after: {
            transaction_id: t.id,
            to: contact.email,
            link_token_id: link.linkTokenId,
            mail_id: link.mailId,
            job_id: jobId,
          },
          requestId,
        });
        return contact.email;
      });
      return sent
        ? { transaction_id: t.id, ok: true, result: `Update link sent to ${sent}` }
        : no('The store was not found.');
    }
  }
}
