export { notificationRoutes } from './notifications.routes';
