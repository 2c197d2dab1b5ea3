import type { AppContext } from '../../context';
import { executeBillingRun, runScheduledBilling } from '../../modules/billing';
import { sweepPayments } from '../../modules/payments';
import { SCHEDULED_QUEUE } from '../definitions';

/**
 * The billing run's job (decision 113): from the daily schedule (no input) today's run; from "Run now" the run
 * it names. A retry (the process died, a batch failed) executes the same run again and it goes on where it stopped.
 */
export const billingRunWorker = {
  queue: SCHEDULED_QUEUE.billingRun,
  async run(ctx: AppContext, data: Record<string, unknown>): Promise<object> {
    const runId = typeof data.run_id === 'number' ? data.run_id : null;
    const run = runId === null ? await runScheduledBilling(ctx) : await executeBillingRun(ctx, runId);
    // Auto-pay: the new invoices get their charge jobs now rather than at the next sweep (decision 116).
    const payments = await sweepPayments(ctx);
    return {
      run_id: run.run_id,
      invoices_created: run.invoices_created,
      plans_done: run.plans_done,
      autopay_enqueued: payments.autopay_enqueued,
    };
  },
};
