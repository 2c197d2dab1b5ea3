import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getOrderHoldQueryOptions, orderKeys, retryOrderHold } from './orders';

/*
 * Asking the card of an order's hold again (issue 29 item 1, decision 151) — "Try the card again" of the hold alert
 * (components/order-hold-alert.tsx), on the order flow's payment step and summary and the order panel:
 *   POST /api/paymentauthorizations/orders/{orderId}/{token}  (Idempotency-Key) → the hold in words
 */

/**
 * Ask the card again: the answer is the order's hold, and everything cached for the order is asked again (its status
 * may have moved). The alert shows a refusal itself.
 */
export function useRetryOrderHold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, idempotencyKey }: { orderId: number; idempotencyKey: string }) =>
      retryOrderHold(orderId, idempotencyKey),
    meta: { silentError: true },
    onSuccess: async (hold, { orderId }) => {
      queryClient.setQueryData(getOrderHoldQueryOptions(orderId).queryKey, hold);
      await queryClient.invalidateQueries({ queryKey: orderKeys.order(orderId) });
    },
  });
}
