import { JOB_QUEUE } from '@pos/domain';
import { deferredWorker } from './deferred';

/** Collect a payment for chosen invoices — the billing issue charges and allocates it. Until then: recorded and completed with {deferred: 'billing'}. */
export const paymentCollectionWorker = deferredWorker(JOB_QUEUE.paymentCollection, 'billing');
