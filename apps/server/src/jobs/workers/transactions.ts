import { JOB_QUEUE } from '@pos/domain';
import { actOnTransactions } from '../../modules/payments';
import type { WorkerDefinition } from '../context';

/**
 * POST /api/customers/transactions/sns (decision 116): reprocess, void, refund, waive the fee, send the update link
 * or stop retries for each named transaction. A retried job does not charge twice: each charge's idempotency key
 * names the job and the transaction.
 */
export const transactionsWorker: WorkerDefinition<typeof JOB_QUEUE.transactions> = {
  queue: JOB_QUEUE.transactions,
  async run(ctx, request, job) {
    const results = await actOnTransactions(
      ctx,
      request.input,
      request.requestedBy,
      request.requestId ?? job.id,
      job.id,
    );
    return { action: request.input.action, results };
  },
};
