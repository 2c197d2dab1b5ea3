import { Badge, type MantineColor } from '@mantine/core';
import { assertNever, type MailSummary } from '@pos/domain';

function colorOf(status: MailSummary['status']): MantineColor {
  switch (status) {
    case 'stored':
      return 'blue';
    case 'queued':
      return 'yellow';
    case 'sent':
      return 'green';
    case 'failed':
      return 'red';
    default:
      return assertNever(status);
  }
}

/** A message's status: 'stored' (kept in the Mailbox, no SMTP), 'queued', 'sent' or 'failed'. */
export function MailStatusBadge({ status }: { readonly status: MailSummary['status'] }) {
  return (
    <Badge color={colorOf(status)} variant="light">
      {status}
    </Badge>
  );
}
