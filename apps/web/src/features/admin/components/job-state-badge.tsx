import { Badge, Group, type MantineColor } from '@mantine/core';
import { assertNever, type JobStateValue } from '@pos/domain';

function colorOf(state: JobStateValue): MantineColor {
  switch (state) {
    case 'created':
      return 'gray';
    case 'retry':
      return 'orange';
    case 'active':
      return 'blue';
    case 'completed':
      return 'green';
    case 'cancelled':
      return 'dark';
    case 'failed':
      return 'red';
    default:
      return assertNever(state);
  }
}

/** A job's pg-boss state, plus 'dead letter' when it ran out of retries and was copied to its dead-letter queue. */
export function JobStateBadge({
  state,
  deadLettered,
}: {
  readonly state: JobStateValue;
  readonly deadLettered: boolean;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={colorOf(state)} variant="light">
        {state}
      </Badge>
      {deadLettered && (
        <Badge color="red" variant="outline">
          dead letter
        </Badge>
      )}
    </Group>
  );
}
