export { merchantFeatureRoutes } from './merchant-features.routes';
