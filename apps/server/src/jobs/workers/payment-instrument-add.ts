import { JOB_QUEUE } from '@pos/domain';
import { addInstrumentFromJob } from '../collection';
import type { WorkerDefinition } from '../context';

/**
 * Add a payment method from the gateway's reference (decision 118): stored once (the job's done mark), then the
 * customer's failed invoices get an immediate retry. A bank account from a check image alone is refused (output).
 */
export const paymentInstrumentAddWorker: WorkerDefinition<typeof JOB_QUEUE.paymentInstrumentAdd> = {
  queue: JOB_QUEUE.paymentInstrumentAdd,
  run: (ctx, request, job) =>
    addInstrumentFromJob(
      ctx,
      request.input,
      job,
      request.requestedBy.actorType === 'system'
        ? { actorType: 'system', actorId: `job:${job.id}` }
        : request.requestedBy,
      request.requestId ?? job.id,
    ),
};
