import type { PaymentInstrumentAddRequest } from '@pos/domain';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { paymentInstruments, stores } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import type { JobRef } from '../../jobs/context';
import { applyOnce } from '../../jobs/effect';
import { retryFailedInvoices } from './merchant-payments.service';

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
