import { JOB_QUEUE } from '@pos/domain';
import { collectInvoices, pastDueInvoiceIds } from '../collection';
import type { WorkerDefinition } from '../context';
import { applyOnce, completedOutput } from '../effect';

/**
 * Collect a customer's past-due invoices now (issue 15, decision 118): the named ones, else every invoice of the
 * customer (or the store) with an open amount that was due before today — each charged with chargeInvoice
 * (attempt `collect-<jobId>`, source 'collection', the default payment method). The output lists each outcome.
 */
export const invoicesCollectDueWorker: WorkerDefinition<typeof JOB_QUEUE.invoicesCollectDue> = {
  queue: JOB_QUEUE.invoicesCollectDue,
  async run(ctx, request, job) {
    const done = await completedOutput(ctx.database.db, job);
    if (done) return done;
    const input = request.input;
    const ids = input.invoice_ids ?? (await pastDueInvoiceIds(ctx, input.customer_id, input.storeid));
    const invoices = await collectInvoices(
      ctx,
      { customerId: input.customer_id, invoiceIds: ids, attempt: `collect-${job.id}` },
      request.requestedBy.actorType === 'system'
        ? { actorType: 'system', actorId: `job:${job.id}` }
        : request.requestedBy,
      request.requestId ?? job.id,
    );
    return applyOnce(ctx, job, async () => ({ invoices }), { customerId: input.customer_id });
  },
};
