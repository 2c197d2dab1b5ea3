export { customerAccountRoutes } from './customer-accounts.routes';
export { runIdempotent } from './idempotency';
