/*
 * Query keys of orders, shared by the order list and panel (features/orders) and the order flow
 * (features/order-flow): everything cached for one order sits under orderKeys.order(id), and everything of orders
 * under orderKeys.all, so a status change in the panel also refreshes the order flow's copy of the document.
 */
export const orderKeys = {
  all: ['orders'] as const,
  /** The prefix of everything cached for one order: its document, status history, notes, contracts. */
  order: (id: number) => [...orderKeys.all, 'order', id] as const,
};
