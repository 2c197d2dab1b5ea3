import type { AppContext } from '../../context';
import { sweepPayments } from '../../modules/payments';
import { SCHEDULED_QUEUE } from '../definitions';

/** Every 10 minutes: reconcile pending charges, bank returns, dunning retries and auto-pay (decision 116). */
export const paymentsSweepWorker = {
  queue: SCHEDULED_QUEUE.paymentsSweep,
  async run(ctx: AppContext): Promise<object> {
    return sweepPayments(ctx);
  },
};
