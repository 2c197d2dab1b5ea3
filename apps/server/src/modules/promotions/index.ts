export { promotionStatusEffects } from './promotion-orders';
export { promotionRoutes } from './promotions.routes';
export { usageCountSql } from './promotions.service';
