export { storeFileRoutes } from './store-files.routes';
