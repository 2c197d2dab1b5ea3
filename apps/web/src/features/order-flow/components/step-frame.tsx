import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import type { OrderType } from '@pos/domain';
import { useMemo, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { usePageCountry, usePageMilestone } from '../../../lib/header-state';
import { isFromNewOrder } from '../lib/draft-store';
import { milestoneProgress, previousStep, stepPath, type StepId } from '../lib/flow';

export interface StepFrameProps {
  readonly orderId: number;
  readonly step: StepId;
  readonly orderType: OrderType;
  readonly country: 'US' | 'CA';
  readonly title: string;
  readonly reference?: string;
  readonly pending: boolean;
  readonly busy: boolean;
  readonly submitLabel?: string;
  readonly onSubmit: () => void;
  readonly children: ReactNode;
}

/** One step of the order flow: the header's milestone bar and flag, the form, Back and "Save and continue". */
export function StepFrame(props: StepFrameProps) {
  const { orderId, step, orderType, country } = props;
  const navigate = useNavigate();
  const progress = useMemo(
    () => milestoneProgress(orderType, isFromNewOrder(orderId), step),
    [orderType, orderId, step],
  );
  usePageMilestone(progress);
  usePageCountry(country);
  const back = previousStep(orderType, step);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <Stack gap="md" maw={960}>
      <Title order={1} size="h2">
        {props.title}
        {props.reference ? ` — order ${props.reference}` : ''}
      </Title>
      {props.pending && (
        <Alert color="yellow" title="Saved on this device" role="status">
          The last changes could not reach the server yet; they are kept on this device and sent again automatically.
        </Alert>
      )}
      <form onSubmit={submit} aria-label={props.title} noValidate>
        <Stack gap="lg">
          {props.children}
          <Group justify="space-between">
            {back ? (
              <Button variant="default" onClick={() => void navigate(stepPath(back, orderId))}>
                Back
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" loading={props.busy}>
              {props.submitLabel ?? 'Save and continue'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
