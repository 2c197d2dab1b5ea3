import { Alert, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { OrderHoldState, OrderPaymentHold } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useRetryOrderHold } from '../api/order-hold';
import { getOrderHoldQueryOptions } from '../api/orders';
import { useIdempotencyKeys } from '../lib/idempotency';
import { describeError } from '../lib/error-message';

const LOOK: Readonly<Record<OrderHoldState, { color: string; title: string }>> = {
  authorized: { color: 'green', title: 'Card authorized' },
  declined: { color: 'red', title: 'Card declined' },
  pending: { color: 'yellow', title: 'Authorization not answered' },
  needs_card: { color: 'blue', title: 'Card needed' },
  not_needed: { color: 'gray', title: 'No card hold' },
  closed: { color: 'gray', title: 'Hold settled' },
};

/**
 * The order's card hold in words (issue 29 item 1, decision 151): what the payment step's save held on the card, a
 * decline with its reason, or how the money comes without a hold. "Try again" asks the card again (once per press,
 * by its Idempotency-Key) where the hold was declined or not answered and `canRetry`.
 */
export function OrderHoldAlert({ orderId, canRetry = false }: { orderId: number; canRetry?: boolean }) {
  const hold = useQuery(getOrderHoldQueryOptions(orderId));
  const h = hold.data;
  // Orders with no hardware money (non-POS) and closed ones that never had a hold have nothing to say here.
  if (!h || (h.state === 'closed' && !h.settlement)) return null;
  if (h.state === 'not_needed' && h.upfront_cents <= 0 && !h.installments) return null;
  return <OrderHoldView hold={h} canRetry={canRetry} />;
}

export function OrderHoldView({ hold, canRetry }: { hold: OrderPaymentHold; canRetry: boolean }) {
  const keys = useIdempotencyKeys();
  const action = `hold:${hold.order_id}`;
  const retry = useRetryOrderHold();
  const tryAgain = () =>
    retry.mutate(
      { orderId: hold.order_id, idempotencyKey: keys.keyFor(action) },
      {
        onSuccess: () => keys.settle(action),
        onError: (error) => {
          keys.settle(action, error);
          const said = describeError(error);
          notifications.show({ color: 'red', title: said.title, message: said.message });
        },
      },
    );
  const look =
    hold.state === 'closed' && hold.settlement
      ? hold.settlement.action === 'capture'
        ? hold.settlement.status === 'failed'
          ? { color: 'red', title: 'Capture failed' }
          : { color: 'gray', title: 'Card captured' }
        : { color: 'gray', title: 'Hold released' }
      : LOOK[hold.state];
  return (
    <Alert color={look.color} title={look.title} role="status">
      <Group justify="space-between" wrap="nowrap" gap="md">
        <Text size="sm">{hold.message}</Text>
        {canRetry && (hold.state === 'declined' || hold.state === 'pending') && (
          <Button size="xs" variant="light" loading={retry.isPending} onClick={tryAgain}>
            Try the card again
          </Button>
        )}
      </Group>
    </Alert>
  );
}
