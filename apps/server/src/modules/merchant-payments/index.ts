export { merchantPaymentRoutes } from './merchant-payments.routes';
export { retryFailedInvoices } from './merchant-payments.service';
