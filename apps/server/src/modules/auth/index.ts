export { authRoutes } from './auth.routes';
export { distributorRoutes } from './distributor.routes';
export { localOidcRoutes } from './oidc.routes';
export { mailPasswordResetLink, sendDistributorPasswordLink, PASSWORD_RESET_TTL_MINUTES } from './distributor.service';
