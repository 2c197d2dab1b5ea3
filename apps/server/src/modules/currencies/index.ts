export { currencyRoutes } from './currencies.routes';
