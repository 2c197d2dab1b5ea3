export { merchantPaymentRoutes } from './merchant-payments.routes';
