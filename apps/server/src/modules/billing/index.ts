export { billingRoutes } from './billing.routes';
export { executeBillingRun, runScheduledBilling, billingToday, BILLING_BATCH_SIZE } from './billing.service';
export { applyPaidInvoices, prepareLicenseJobs } from './license.service';
export { createSingleLineInvoice, type SingleLineInvoice } from './single-invoice';
