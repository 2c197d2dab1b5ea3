export { catalogueRoutes } from './catalogue.routes';
