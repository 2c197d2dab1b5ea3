import { JOB_QUEUE } from '@pos/domain';
import { deferredWorker } from './deferred';

/** Add a payment method from a gateway reference or an uploaded check image — the billing issue stores it. Until then: recorded and completed with {deferred: 'billing'}. */
export const paymentInstrumentAddWorker = deferredWorker(JOB_QUEUE.paymentInstrumentAdd, 'billing');
