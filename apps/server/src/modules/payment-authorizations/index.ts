export { paymentAuthorizationRoutes } from './payment-authorizations.routes';
export { AUTHORIZATION_ACTION } from './payment-authorizations.service';
