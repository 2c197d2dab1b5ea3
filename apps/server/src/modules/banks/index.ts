export { bankRoutes } from './banks.routes';
