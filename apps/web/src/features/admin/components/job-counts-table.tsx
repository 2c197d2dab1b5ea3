import { Table, Text } from '@mantine/core';
import { JOB_STATE_VALUES } from '@pos/domain';
import type { JobList } from '../api/jobs';
import { queueLabel } from '../lib/jobs';

/** Per-queue counts by state (every job pg-boss still holds, live or archived). */
export function JobCountsTable({ queues }: { readonly queues: JobList['queues'] }) {
  const rows = [...queues].sort((a, b) => queueLabel(a.queue).localeCompare(queueLabel(b.queue)));
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table withTableBorder withColumnBorders verticalSpacing={4} fz="sm" captionSide="top">
        <Table.Caption>Jobs by queue and state</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Queue</Table.Th>
            {JOB_STATE_VALUES.map((state) => (
              <Table.Th key={state} scope="col" ta="right">
                {state}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={JOB_STATE_VALUES.length + 1}>
                <Text c="dimmed" size="sm">
                  No jobs yet.
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map(({ queue, counts }) => (
            <Table.Tr key={queue}>
              <Table.Th scope="row" fw={500}>
                {queueLabel(queue)}
              </Table.Th>
              {JOB_STATE_VALUES.map((state) => {
                const n = counts[state] ?? 0;
                return (
                  <Table.Td key={state} ta="right" c={n === 0 ? 'dimmed' : state === 'failed' ? 'red' : undefined}>
                    {n}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
