import { orderKeys } from '../../../api/orders';

/** Query keys of the order flow; an order's own under the shared orderKeys.order(id) (api/orders.ts). */
export const orderFlowKeys = {
  document: (orderId: number) => [...orderKeys.order(orderId), 'document'] as const,
  tax: (orderId: number, input: object) => [...orderKeys.order(orderId), 'tax', input] as const,
  customerIdByFedTaxId: (fedTaxId: string) => ['order-flow', 'customer-id', fedTaxId] as const,
  crmLead: (leadId: string) => ['order-flow', 'crm-lead', leadId] as const,
};
