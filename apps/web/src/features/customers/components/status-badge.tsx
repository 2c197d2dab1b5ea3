import { Badge } from '@mantine/core';
import { humanize } from '../../../lib/format';

/** Mantine truncates badge labels to the space left; in a table that hides the word, so the badge keeps its width. */
const NO_TRUNCATION = { root: { overflow: 'visible' }, label: { overflow: 'visible' } } as const;

/** Colours for record statuses (customers, stores, terminals…). */
export function statusColor(status: string | null | undefined): string {
  switch (status) {
    case 'active':
      return 'green';
    case 'pending':
      return 'yellow';
    case 'suspended':
      return 'orange';
    case 'closed':
    case 'retired':
    case 'canceled':
      return 'gray';
    default:
      return 'blue';
  }
}

/** A record status ('active', 'suspended'…) as a coloured word. */
export function StatusBadge({
  status,
  label,
}: {
  readonly status: string | null | undefined;
  readonly label?: string;
}) {
  return (
    <Badge color={statusColor(status)} variant="light" radius="sm" styles={NO_TRUNCATION}>
      {label ?? humanize(status)}
    </Badge>
  );
}
