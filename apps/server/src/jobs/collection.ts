/*
 * Collection and the immediate retry after a new payment method (issue 15, decision 118): the effects of the
 * payment-collection, invoices-collect-due and payment-instrument-add jobs, also used by the merchant's pages.
 */
import type { PaymentInstrumentAddRequest } from '@pos/domain';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { billableStoreWhere } from '../db/billable-stores.sql';
import { invoiceBalances, invoiceDunning, invoices, paymentInstruments, stores, transactions } from '../db/schema';
import { writeAudit, type AuditActor } from '../http/audit';
import type { JobRef } from './context';
import { applyOnce } from './effect';
import { billingToday } from '../modules/billing';
import { overdueWhere } from '../modules/ledger';
import { chargeInvoice, enqueueCharge } from '../modules/payments';

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
 * customer are skipped, and so are those of a test or demo store (reason 'not_billable': never charged, decision 149).
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
          .select({ id: invoices.id, number: invoices.invoiceNumber, billable: billableStoreWhere(invoices.storeId) })
          .from(invoices)
          .where(and(eq(invoices.customerId, input.customerId), inArray(invoices.id, [...input.invoiceIds])));
  const numbers = new Map(rows.map((r) => [r.id, r.number]));
  const notBillable = new Set(rows.filter((r) => !r.billable).map((r) => r.id));
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
    if (notBillable.has(invoiceId)) {
      out.push({
        invoice_id: invoiceId,
        invoice_number: number,
        outcome: 'skipped',
        transaction_id: null,
        reason: 'not_billable',
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

/**
 * The past-due invoices of a customer (or one store): open amount > 0 and due before today (billing day); none of a
 * test or demo store (decision 149).
 */
export async function pastDueInvoiceIds(app: AppContext, customerId: number, storeId?: number): Promise<number[]> {
  const rows = await app.database.db
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .where(
      and(
        eq(invoices.customerId, customerId),
        storeId === undefined ? undefined : eq(invoices.storeId, storeId),
        overdueWhere(billingToday(app)),
        billableStoreWhere(invoices.storeId),
      ),
    )
    .orderBy(asc(invoices.dueOn), asc(invoices.id));
  return rows.map((r) => r.id);
}

/**
 * After a new payment method: every open failed invoice of the customer (or the store) — one with a dunning row
 * in retrying or collection — gets an immediate charge job (`instrument-<instrumentId>`, source instrument_added).
 */
export async function retryFailedInvoices(
  app: AppContext,
  customerId: number,
  instrumentId: number,
  actor: AuditActor,
  requestId: string | null,
  storeId?: number,
): Promise<number> {
  const rows = await app.database.db
    .select({ invoiceId: invoiceDunning.invoiceId })
    .from(invoiceDunning)
    .where(
      and(
        eq(invoiceDunning.customerId, customerId),
        storeId === undefined ? undefined : eq(invoiceDunning.storeId, storeId),
        inArray(invoiceDunning.state, ['retrying', 'collection']),
        billableStoreWhere(invoiceDunning.storeId),
      ),
    )
    .orderBy(asc(invoiceDunning.invoiceId));
  let queued = 0;
  for (const r of rows) {
    const id = await enqueueCharge(
      app,
      r.invoiceId,
      `instrument-${instrumentId}`,
      'instrument_added',
      actor,
      requestId,
    );
    if (id) queued += 1;
  }
  return queued;
}

/**
 * The expiry of a card known only by its gateway reference: the reference cannot be redeemed for the card's
 * details, and the schema requires an expiry month (decision 118: shown as 12/2099 until the card is replaced).
 */
export const UNKNOWN_CARD_EXPIRY = { month: 12, year: 2099 } as const;

export interface InstrumentJobOutput {
  added: boolean;
  payment_instrument_id: number | null;
  reason: string | null;
  retries_queued: number;
}

/**
 * The add-instrument job (POST …/paymentinstruments/add): a card from the gateway's reference (brand 'unknown',
 * last4 from a reference ending in _dddd), made the default when asked (default: yes); then every failed invoice
 * of the customer in dunning gets an immediate retry. A bank account needs its account number, which never travels
 * in a job: the job answers why it stored nothing (staff key it in on the payment-method screen).
 */
export async function addInstrumentFromJob(
  app: AppContext,
  input: PaymentInstrumentAddRequest,
  job: JobRef,
  actor: AuditActor,
  requestId: string,
): Promise<InstrumentJobOutput> {
  const reference = input.paymentProcessorReference ?? input.processorSetupIntent ?? '';
  const last4 = /_(\d{4})$/.exec(reference)?.[1];
  const refused = (reason: string) =>
    applyOnce(
      app,
      job,
      async (): Promise<InstrumentJobOutput> => ({
        added: false,
        payment_instrument_id: null,
        reason,
        retries_queued: 0,
      }),
      { customerId: input.customer_id },
    );
  if (input.kind === 'bank')
    return refused(
      'A bank account cannot be added from a check image alone (its account number never travels in a job): add it on the payment-method screen.',
    );
  if (!last4) return refused('The gateway reference does not end in the card’s last four digits (_dddd).');
  const makeDefault = input.makeDefault ?? true;
  const output = await applyOnce(
    app,
    job,
    async (tx, now): Promise<InstrumentJobOutput> => {
      const storeId = input.storeid ?? null;
      if (storeId !== null) {
        const [s] = await tx.select({ customerId: stores.customerId }).from(stores).where(eq(stores.id, storeId));
        if (!s || s.customerId !== input.customer_id)
          return { added: false, payment_instrument_id: null, reason: 'store_not_found', retries_queued: 0 };
      }
      const [row] = await tx
        .insert(paymentInstruments)
        .values({
          customerId: input.customer_id,
          storeId,
          kind: 'card',
          nameOnAccount: input.nameOnAccount ?? null,
          cardBrand: 'unknown',
          cardLast4: last4,
          cardExpMonth: UNKNOWN_CARD_EXPIRY.month,
          cardExpYear: UNKNOWN_CARD_EXPIRY.year,
          processorReference: reference,
          isDefault: makeDefault,
          status: 'active',
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await writeAudit(tx, {
        ...actor,
        at: now,
        action: 'create',
        entity: 'payment_instrument',
        entityId: row!.id,
        customerId: input.customer_id,
        after: {
          payment_instrument_id: row!.id,
          store_id: storeId,
          kind: 'card',
          brand: 'unknown',
          last4,
          is_default: makeDefault,
          job_id: job.id,
        },
        requestId,
      });
      if (makeDefault)
        await tx
          .update(paymentInstruments)
          .set({ isDefault: false, updatedAt: now, version: sql`${paymentInstruments.version} + 1` })
          .where(
            and(
              eq(paymentInstruments.customerId, input.customer_id),
              eq(paymentInstruments.isDefault, true),
              ne(paymentInstruments.id, row!.id),
            ),
          );
      return { added: true, payment_instrument_id: row!.id, reason: null, retries_queued: 0 };
    },
    { customerId: input.customer_id },
  );
  if (!output.added || output.payment_instrument_id === null) return output;
  const queued = await retryFailedInvoices(
    app,
    input.customer_id,
    output.payment_instrument_id,
    actor,
    requestId,
    input.storeid,
  );
  return { ...output, retries_queued: queued };
}
