import { Badge } from '@mantine/core';
import type { StatusLook } from '../status';

/** A status word in its colour (the word carries the meaning; the colour helps scanning). */
export function StatusBadge({ look }: { readonly look: StatusLook }) {
  return (
    <Badge color={look.color} variant="light" radius="sm">
      {look.label}
    </Badge>
  );
}
