export { catalogueAdminRoutes } from './catalogue-admin.routes';
