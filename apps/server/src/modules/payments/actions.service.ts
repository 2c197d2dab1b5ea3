import type { CurrencyCode, TransactionsSnsRequest } from '@pos/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { invoiceDunning, transactions } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError } from '../../http/errors';
import { mailPaymentUpdateLink, merchantContact } from '../../jobs/merchant-contact';
import { chargeInvoice } from './charge.service';

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
      if (t.status !== 'F') return no(`Transaction ${t.id} is ${t.status}, not failed: nothing to retry.`);
      const outcome = await chargeInvoice(app, {
        invoiceId: t.invoiceId,
        attempt: `job-${jobId}-tx${t.id}`,
        source: 'staff',
        supersedes: { transactionId: t.id, version: t.version },
        actor,
        requestId,
        strict: true,
      });
      return outcome.kind === 'charged'
        ? {
            transaction_id: t.id,
            ok: outcome.status === 'S' || outcome.status === 'P',
            result: `Charged again: ${outcome.status === 'S' ? 'paid' : outcome.status === 'P' ? 'pending' : 'failed again'}`,
            new_transaction_id: outcome.transactionId,
          }
        : no(`Not charged (${outcome.reason}).`);
    }
    case 'void': {
      if (t.status !== 'P') return no(`Transaction ${t.id} is ${t.status}; only a pending charge can be voided.`);
      await app.gateway.voidCharge({
        reference: t.gatewayReference ?? `tx_${t.id}`,
        idempotencyKey: `void:${t.id}:v${t.version}`,
      });
      const done = await app.database.db
        .update(transactions)
        .set({ status: 'V', updatedAt: now, version: sql`${transactions.version} + 1` })
        .where(and(eq(transactions.id, t.id), eq(transactions.version, t.version)))
        .returning({ id: transactions.id });
      if (done.length === 0) return no(`Transaction ${t.id} changed meanwhile; reload and try again.`);
      await audit('transaction', t.id, 'void', { status: 'P' }, { status: 'V', job_id: jobId });
      return { transaction_id: t.id, ok: true, result: 'Voided' };
    }
    case 'refund': {
      if (t.status !== 'S' || t.kind !== 'charge' || !t.gatewayReference)
        return no(`Transaction ${t.id} is not a settled charge; only a settled charge can be refunded.`);
      const key = `refund:${t.id}`;
      const answer = await app.gateway.refund({
        chargeReference: t.gatewayReference,
        amountCents: t.amountCents,
        idempotencyKey: key,
        reason: `Refund of transaction ${t.id}`,
      });
      if (answer.status !== 'succeeded')
        return no(`The gateway refused the refund: ${answer.failureReason ?? 'declined'}.`);
      const created = await app.database.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(transactions)
          .values({
            customerId: t.customerId,
            storeId: t.storeId,
            invoiceId: t.invoiceId,
            paymentInstrumentId: t.paymentInstrumentId,
            kind: 'refund',
            status: 'S',
            amountCents: t.amountCents,
            currency: t.currency as CurrencyCode,
            gatewayReference: answer.reference,
            idempotencyKey: key,
            attemptedAt: now,
            settledAt: now,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning({ id: transactions.id });
        if (row)
          await writeAudit(tx, {
            ...actor,
            at: now,
            action: 'refund',
            entity: 'transaction',
            entityId: row.id,
            after: { refund_of_transaction_id: t.id, amount_cents: t.amountCents, currency: t.currency, job_id: jobId },
            requestId,
            customerId: t.customerId,
          });
        return row;
      });
      return {
        transaction_id: t.id,
        ok: true,
        result: 'Refunded',
        ...(created ? { new_transaction_id: created.id } : {}),
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
