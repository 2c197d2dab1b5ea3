export { billingRoutes } from './billing.routes';
export { executeBillingRun, runScheduledBilling, billingToday, BILLING_BATCH_SIZE } from './billing.service';
export { applyPaidInvoices, prepareLicenseJobs, reactivateStore } from './license.service';
export { createSaleInvoice, createSingleLineInvoice, type SaleInvoice, type SingleLineInvoice } from './single-invoice';
export { insertCreditInvoice, type CreditInvoiceInput } from './credit-invoice';
export { cancellationFeeEffects, type OrderMove } from './cancellation-fee';
