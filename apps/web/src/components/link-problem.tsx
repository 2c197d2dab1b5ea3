import { Alert, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { isApiError } from '../lib/api';
import { describeError } from '../lib/error-message';

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

/**
 * Why a link page could not be read, for the merchant: the server's words (expired, used, not found) — but a link the
 * server could not read at all (400, a token cut short when copied) is named as such, never "Correct the marked
 * fields" on a page without fields (issue 30).
 */
export function linkProblemText(error: unknown): string {
  if (isApiError(error) && error.status === 400)
    return 'This link is not complete. Open it again from the e-mail, or ask us for a new one.';
  return describeError(error).message;
}
