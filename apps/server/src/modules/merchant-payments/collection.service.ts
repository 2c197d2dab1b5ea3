import { and, asc, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { invoiceBalances, invoices, transactions } from '../../db/schema';
import type { AuditActor } from '../../http/audit';
import { billingToday } from '../billing';
import { chargeInvoice } from '../payments';

/** What became of one invoice of a collection job. */
export interface CollectedInvoice {
  invoice_id: number;
  invoice_number: string | null;
  outcome: 'paid' | 'failed' | 'pending' | 'skipped';
  transaction_id: number | null;
  reason: string | null;
}

/**
 * Charge invoices of a customer now (issue 15: collection, decision 118): each with chargeInvoice (attempt
 * `collect-<jobId>`, source 'collection', the chosen instrument or the default), outside any transaction, one by one.
 * A retried job charges nothing twice (the attempt is part of the charge's idempotency key). Invoices of another
 * customer are skipped.
 */
export async function collectInvoices(
  app: AppContext,
  input: { customerId: number; invoiceIds: readonly number[]; instrumentId?: number; attempt: string },
  actor: AuditActor,
  requestId: string,
): Promise<CollectedInvoice[]> {
  const db = app.database.db;
  const rows =
    input.invoiceIds.length === 0
      ? []
      : await db
          .select({ id: invoices.id, number: invoices.invoiceNumber })
          .from(invoices)
          .where(and(eq(invoices.customerId, input.customerId), inArray(invoices.id, [...input.invoiceIds])));
  const numbers = new Map(rows.map((r) => [r.id, r.number]));
  const out: CollectedInvoice[] = [];
  for (const invoiceId of input.invoiceIds) {
    const number = numbers.get(invoiceId) ?? null;
    if (number === null) {
      out.push({
        invoice_id: invoiceId,
        invoice_number: null,
        outcome: 'skipped',
        transaction_id: null,
        reason: 'not_found',
      });
      continue;
    }
    const o = await chargeInvoice(app, {
      invoiceId,
      attempt: input.attempt,
      source: 'collection',
      ...(input.instrumentId === undefined ? {} : { instrumentId: input.instrumentId }),
      actor,
      requestId,
    });
    if (o.kind === 'skipped') {
      out.push({
        invoice_id: invoiceId,
        invoice_number: number,
        outcome: 'skipped',
        transaction_id: o.transactionId,
        reason: o.reason,
      });
      continue;
    }
    const [t] = await db
      .select({ reason: transactions.failureReason })
      .from(transactions)
      .where(eq(transactions.id, o.transactionId));
    out.push({
      invoice_id: invoiceId,
      invoice_number: number,
      outcome: o.status === 'S' ? 'paid' : o.status === 'F' ? 'failed' : 'pending',
      transaction_id: o.transactionId,
      reason: o.status === 'F' ? (t?.reason ?? null) : null,
    });
  }
  return out;
}

/** The past-due invoices of a customer (or one store): open amount > 0 and due before today (billing day). */
export async function pastDueInvoiceIds(app: AppContext, customerId: number, storeId?: number): Promise<number[]> {
  const rows = await app.database.db
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .where(
      and(
        eq(invoices.customerId, customerId),
        storeId === undefined ? undefined : eq(invoices.storeId, storeId),
        isNull(invoices.reversedAt),
        gt(invoiceBalances.openCents, 0),
        lt(invoices.dueOn, billingToday(app)),
      ),
    )
    .orderBy(asc(invoices.dueOn), asc(invoices.id));
  return rows.map((r) => r.id);
}
