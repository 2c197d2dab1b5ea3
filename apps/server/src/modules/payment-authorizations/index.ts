export { paymentAuthorizationRoutes } from './payment-authorizations.routes';
