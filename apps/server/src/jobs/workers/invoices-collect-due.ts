import { JOB_QUEUE } from '@pos/domain';
import { deferredWorker } from './deferred';

/** Collect a customer's due invoices — the billing issue charges them. Until then: recorded and completed with {deferred: 'billing'}. */
export const invoicesCollectDueWorker = deferredWorker(JOB_QUEUE.invoicesCollectDue, 'billing');
