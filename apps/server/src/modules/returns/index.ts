export { returnRoutes, RETURNS_READ_GUARD, RETURNS_REFUND_GUARD, RETURNS_STATUS_GUARD } from './returns.routes';
export { returnRefundAnswered } from './returns.service';
