import type { AppContext } from '../../context';
import { runScheduledReconciliation } from '../../modules/reconciliation';
import { SCHEDULED_QUEUE } from '../definitions';

/**
 * The daily reconciliation with the gateway's books (decision 146): yesterday, by the app's clock (UTC), every
 * currency; one run each. A day the gateway could not answer is stored as a failed run and the job fails, so
 * pg-boss tries again (a new run; the failed one stays in the history).
 */
export const gatewayReconciliationWorker = {
  queue: SCHEDULED_QUEUE.gatewayReconciliation,
  async run(ctx: AppContext, data: Record<string, unknown>): Promise<object> {
    const day = typeof data.day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(data.day) ? data.day : undefined;
    const result = await runScheduledReconciliation(ctx, day ? { day } : {});
    const failed = result.runs.filter((r) => r.status === 'failed');
    if (failed.length > 0)
      throw new Error(`The gateway did not answer for ${result.day} (${failed.map((r) => r.currency).join(', ')}).`);
    return result;
  },
};
