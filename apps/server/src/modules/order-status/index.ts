export { changeOrderStatus, checkTransition, statusTimestamps } from './order-status.service';
export { orderStatusRoutes } from './order-status.routes';
