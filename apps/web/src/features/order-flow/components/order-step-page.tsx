import { Alert } from '@mantine/core';
import type { OrderDocument, OrderType } from '@pos/domain';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/error-message';
import { useOrderFlow } from '../lib/use-order-flow';

export interface StepContext {
  readonly orderId: number;
  readonly doc: OrderDocument;
  readonly orderType: OrderType;
  readonly flow: ReturnType<typeof useOrderFlow>;
}

/** Loads the order of the route's `:orderId` and renders the step with it (spinner while loading, a message if not found). */
export function OrderStepPage({ children }: { readonly children: (ctx: StepContext) => ReactNode }) {
  const orderId = Number(useParams().orderId);
  const flow = useOrderFlow(Number.isInteger(orderId) ? orderId : 0);
  if (!Number.isInteger(orderId) || orderId <= 0)
    return (
      <Alert color="red" title="Not an order">
        This address does not name an order. Open the order from the order list.
      </Alert>
    );
  if (flow.query.isError) {
    const said = describeError(flow.query.error);
    return (
      <Alert color="red" title={said.title}>
        {said.message}
      </Alert>
    );
  }
  if (!flow.doc) return <Spinner busy />;
  return <>{children({ orderId, doc: flow.doc, orderType: flow.orderType, flow })}</>;
}
