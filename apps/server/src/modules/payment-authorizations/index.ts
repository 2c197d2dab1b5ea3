export { paymentAuthorizationRoutes } from './payment-authorizations.routes';
export { AUTHORIZATION_ACTION, syncOrderHold } from './payment-authorizations.service';
