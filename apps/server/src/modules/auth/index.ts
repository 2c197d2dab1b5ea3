export { authRoutes } from './auth.routes';
export { distributorRoutes } from './distributor.routes';
export { localOidcRoutes } from './oidc.routes';
