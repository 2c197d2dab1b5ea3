import { Alert, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface LinkProblemProps {
  /** The page's h1 (every page has exactly one, decision 136). */
  readonly heading: string;
  readonly children: ReactNode;
  /** Announced at once (role="alert") where the page did so before. */
  readonly announce?: boolean;
}

/** A public link page whose link does not work: the page's heading, then why. */
export function LinkProblem({ heading, children, announce }: LinkProblemProps) {
  return (
    <Stack gap="md" maw={640}>
      <Title order={1} size="h2">
        {heading}
      </Title>
      <Alert color="red" title="This link does not work" role={announce ? 'alert' : undefined}>
        {children}
      </Alert>
    </Stack>
  );
}
