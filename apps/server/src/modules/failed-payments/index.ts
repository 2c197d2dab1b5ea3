export { failedPaymentRoutes, FAILED_PAYMENTS_GUARD } from './failed-payments.routes';
