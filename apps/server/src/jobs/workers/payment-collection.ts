import { JOB_QUEUE } from '@pos/domain';
import { collectInvoices } from '../collection';
import type { WorkerDefinition } from '../context';
import { applyOnce, completedOutput } from '../effect';

/**
 * Collect chosen invoices now (issue 15, decision 118): each is charged with chargeInvoice (attempt
 * `collect-<jobId>`, source 'collection', the chosen payment method or the default), outside any transaction; the
 * output lists what became of each invoice. A retried job charges nothing twice (the attempt names the charge).
 * `amount` is not used: an invoice is charged for what is open on it.
 */
export const paymentCollectionWorker: WorkerDefinition<typeof JOB_QUEUE.paymentCollection> = {
  queue: JOB_QUEUE.paymentCollection,
  async run(ctx, request, job) {
    const done = await completedOutput(ctx.database.db, job);
    if (done) return done;
    const input = request.input;
    const invoices = await collectInvoices(
      ctx,
      {
        customerId: input.customer_id,
        invoiceIds: input.invoice_ids,
        ...(input.payment_instrument_id === undefined ? {} : { instrumentId: input.payment_instrument_id }),
        attempt: `collect-${job.id}`,
      },
      request.requestedBy.actorType === 'system'
        ? { actorType: 'system', actorId: `job:${job.id}` }
        : request.requestedBy,
      request.requestId ?? job.id,
    );
    return applyOnce(ctx, job, async () => ({ invoices }), { customerId: input.customer_id });
  },
};
