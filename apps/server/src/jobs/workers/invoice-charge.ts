import { JOB_QUEUE } from '@pos/domain';
import { chargeInvoice } from '../../modules/payments';
import type { WorkerDefinition } from '../context';

/**
 * One charge of one invoice (decision 116): auto-pay after the billing run, a dunning retry, a collection, or the
 * immediate retry after a new payment method. Running it again (a crash, a retried job) charges once: the attempt
 * is part of the charge's idempotency key.
 */
export const invoiceChargeWorker: WorkerDefinition<typeof JOB_QUEUE.invoiceCharge> = {
  queue: JOB_QUEUE.invoiceCharge,
  async run(ctx, request, job) {
    const { invoice_id, attempt, source } = request.input;
    const outcome = await chargeInvoice(ctx, {
      invoiceId: invoice_id,
      attempt,
      source,
      actor:
        request.requestedBy.actorType === 'system'
          ? { actorType: 'system', actorId: `job:${job.id}` }
          : request.requestedBy,
      requestId: request.requestId ?? job.id,
    });
    return outcome;
  },
};
