import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { describeError } from '../../../../lib/error-message';

export interface TabFrameProps {
  /** Names the region, e.g. 'Terminals'. */
  readonly title: string;
  /** Buttons next to the title (Add…), shown only when there is data. */
  readonly actions?: ReactNode;
  readonly isPending: boolean;
  readonly error: unknown;
  readonly onRetry?: () => void;
  readonly children?: ReactNode;
}

/** A tab's frame: a named region with a heading, its actions, and what shows while loading or after a failure. */
export function TabFrame({ title, actions, isPending, error, onRetry, children }: TabFrameProps) {
  let body: ReactNode = children;
  if (error) {
    const { title: problem, message } = describeError(error);
    body = (
      <Alert color="red" title={problem} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{message}</Text>
          {onRetry && (
            <Button size="compact-sm" variant="light" color="red" onClick={onRetry}>
              Try again
            </Button>
          )}
        </Stack>
      </Alert>
    );
  } else if (isPending) {
    body = (
      <Text c="dimmed" role="status">
        Loading {title.toLowerCase()}…
      </Text>
    );
  }
  return (
    <Stack component="section" aria-label={title} gap="sm">
      <Group justify="space-between" align="center">
        <Title order={3} size="h4">
          {title}
        </Title>
        {!error && !isPending && actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {body}
    </Stack>
  );
}

/** What a store tab shows when the customer has no store selected. */
export function NoStore({ title }: { readonly title: string }) {
  return (
    <Stack component="section" aria-label={title} gap="sm">
      <Title order={3} size="h4">
        {title}
      </Title>
      <Text c="dimmed">Choose a store to see its {title.toLowerCase()}.</Text>
    </Stack>
  );
}
