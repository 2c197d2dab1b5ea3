export { invoiceRoutes } from './invoices.routes';
