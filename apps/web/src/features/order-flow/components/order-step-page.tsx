import { Alert, Stack, Title } from '@mantine/core';
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
      <StepProblem heading="Order" title="Not an order">
        This address does not name an order. Open the order from the order list.
      </StepProblem>
    );
  if (flow.query.isError) {
    const said = describeError(flow.query.error);
    return (
      <StepProblem heading={`Order ${orderId}`} title={said.title}>
        {said.message}
      </StepProblem>
    );
  }
  if (!flow.doc) return <Spinner busy />;
  return <>{children({ orderId, doc: flow.doc, orderType: flow.orderType, flow })}</>;
}

/** An order step that cannot be shown: the page keeps its one h1 (decision 136), then why. */
function StepProblem({ heading, title, children }: { heading: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="md" maw={960}>
      <Title order={1} size="h2">
        {heading}
      </Title>
      <Alert color="red" title={title}>
        {children}
      </Alert>
    </Stack>
  );
}
