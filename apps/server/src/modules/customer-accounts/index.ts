export { customerAccountRoutes } from './customer-accounts.routes';
