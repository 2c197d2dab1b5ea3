import { TRANSACTION_STATUS_LABELS, type TransactionStatus } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { invoices, transactions } from '../../db/schema';
import type { AuditActor } from '../../http/audit';
import { AppError } from '../../http/errors';
import { chargeInvoice } from './charge.service';

/**
 * "Retry a failed charge" — one rule for every caller (the transaction's Retry on the customer page, the bulk
 * 'reprocess' job of the failed-payments list; decision 144):
 * - only a failed (F) charge of the customer, at the version the caller saw, is retried;
 * - never on a reversed, paid or written-off invoice, nor while another charge of it is pending (chargeInvoice strict);
 * - charged through the charging engine (P committed, gateway outside any transaction, S / F), on the customer's
 *   default active payment method (else the original one); the original becomes R (reprocessed);
 * - the attempt is named by the transaction and its version (`retry-tx<id>-v<version>`), not by who asks: the page
 *   and the job retrying the same failure charge once.
 */
export async function retryFailedCharge(
  app: AppContext,
  req: { transactionId: number; customerId: number; version: number; actor: AuditActor; requestId: string },
): Promise<{ transactionId: number; status: TransactionStatus }> {
  const db = app.database.db;
  const [t] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, req.transactionId), eq(transactions.customerId, req.customerId)));
  if (!t)
    throw new AppError('not_found', `Transaction ${req.transactionId} of customer ${req.customerId} was not found.`);
  const status = t.status as TransactionStatus;
  if (t.kind !== 'charge' || status !== 'F')
    throw new AppError(
      'conflict',
      t.kind !== 'charge'
        ? `Transaction ${t.id} is a ${t.kind}, not a charge: only a failed (F) charge can be retried.`
        : `Only a failed (F) transaction can be retried; transaction ${t.id} is ${TRANSACTION_STATUS_LABELS[status]} (${status}).`,
    );
  if (t.version !== req.version)
    throw new AppError(
      'conflict',
      `Transaction ${t.id} changed meanwhile (it is no longer the failed charge you saw). Reload and try again.`,
    );
  const [inv] = t.invoiceId === null ? [] : await db.select().from(invoices).where(eq(invoices.id, t.invoiceId));
  if (inv?.status === 'R')
    throw new AppError('conflict', `Invoice ${inv.invoiceNumber} was reversed; its failed charge is not retried.`);
  if (inv?.status === 'P')
    throw new AppError('conflict', `Invoice ${inv.invoiceNumber} is already paid; its failed charge is not retried.`);
  const outcome = await chargeInvoice(app, {
    invoiceId: t.invoiceId,
    attempt: `retry-tx${t.id}-v${t.version}`,
    source: 'staff',
    supersedes: { transactionId: t.id, version: t.version },
    actor: req.actor,
    requestId: req.requestId,
    strict: true,
  });
  if (outcome.kind !== 'charged') throw new Error(`retry of transaction ${t.id} was skipped (${outcome.reason})`);
  return { transactionId: outcome.transactionId, status: outcome.status };
}
