/*
 * The orders module's public surface for other modules (decision 102): they import `../orders`, never a file inside
 * it. What another module may need about orders' visibility is the one order-access rule.
 */
export {
  isOrderVisible,
  loadVisibleOrder,
  orderNotFound,
  orderScopeOfRequester,
  visibleOrdersSqlText,
  visibleOrdersWhere,
  type LoadOrderOptions,
  type OrderKey,
  type OrderViewer,
} from '../../access';
export {
  applyStatusEffects,
  onOrderDocumentSave,
  onOrderSaved,
  onOrderStatusChange,
  type DocumentSave,
  type StatusChange,
} from './order-hooks';
export { orderRoutes } from './orders.routes';
export { customerByFederalTaxId, customerMatchVerdict } from './customer-match.service';
