export { merchantPaymentRoutes } from './merchant-payments.routes';
export { retryFailedInvoices } from './merchant-payments.service';
export { collectInvoices, pastDueInvoiceIds, type CollectedInvoice } from './collection.service';
export { addInstrumentFromJob } from './instrument-job.service';
