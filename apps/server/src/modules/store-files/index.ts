export { storeFileRoutes } from './store-files.routes';
export { giveOrderFilesToStore } from './store-files.service';
