import { Alert, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { CONFIRMATION_KEY } from '../api/contracts';
import { formatDateTime } from '../../../lib/format';

interface Confirmation {
  reference: string;
  signer: string;
  at: string;
  /** Set after a re-authorization: the method now on the order. */
  method?: string;
}

function readConfirmation(): Confirmation | null {
  try {
    return JSON.parse(sessionStorage.getItem(CONFIRMATION_KEY) ?? 'null') as Confirmation | null;
  } catch {
    return null;
  }
}

/** #/confirmation (public): what the merchant just signed or authorized. */
export default function ConfirmationPage() {
  const [done] = useState(readConfirmation);
  return (
    <Stack maw={640}>
      <Title order={1} size="h2">
        Thank you
      </Title>
      <Alert color="green" title="All done" role="status">
        {done?.method
          ? `The payment method for order ${done.reference} is now ${done.method} (authorized on ${formatDateTime(done.at)}).`
          : done
            ? `Your contract for order ${done.reference} was signed by ${done.signer} on ${formatDateTime(done.at)}. Your sales representative will be in touch about the installation.`
            : 'Your answer was received. Your sales representative will be in touch.'}
      </Alert>
    </Stack>
  );
}
