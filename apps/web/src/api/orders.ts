import { orderPaymentHold, type OrderPaymentHold } from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api';

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

/*
 * The order's card hold (issue 29 item 1, decision 151), shown by the order flow's payment step and summary and the
 * order panel:
 *   GET  /api/paymentauthorizations/orders/{orderId}/{token}  → the hold in words (authorized, declined, how money comes)
 *   POST /api/paymentauthorizations/orders/{orderId}/{token}  (Idempotency-Key) → ask the card again
 */
export async function getOrderHold(orderId: number, signal?: AbortSignal): Promise<OrderPaymentHold> {
  return orderPaymentHold.parse(
    await api.get<unknown>('/api/paymentauthorizations/orders/{orderId}/{token}', {
      params: { orderId },
      signal,
    }),
  );
}

export function getOrderHoldQueryOptions(orderId: number) {
  return queryOptions({
    queryKey: [...orderKeys.order(orderId), 'hold'] as const,
    queryFn: ({ signal }) => getOrderHold(orderId, signal),
    staleTime: 0,
  });
}

export async function retryOrderHold(orderId: number, idempotencyKey: string): Promise<OrderPaymentHold> {
  return orderPaymentHold.parse(
    await api.post<unknown>('/api/paymentauthorizations/orders/{orderId}/{token}', undefined, {
      params: { orderId },
      idempotencyKey,
    }),
  );
}
