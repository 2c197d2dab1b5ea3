export { accountCtx, type AccountCtx } from './account-context';
export { customerAccountRoutes } from './customer-accounts.routes';
export { runIdempotent } from './idempotency';
