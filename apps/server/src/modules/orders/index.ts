export {
  applyStatusEffects,
  onOrderDocumentSave,
  onOrderStatusChange,
  type DocumentSave,
  type StatusChange,
} from './order-hooks';
export { isAgentScoped, loadVisible } from './orders.service';
export { orderRoutes } from './orders.routes';
