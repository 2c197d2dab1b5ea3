import { JOB_QUEUE } from '@pos/domain';
import { deferredWorker } from './deferred';

/** Transactions (reprocess, void, refund) — the billing issue runs them through the payment gateway. Until then: recorded and completed with {deferred: 'billing'}. */
export const transactionsWorker = deferredWorker(JOB_QUEUE.transactions, 'billing');
