import { Code, Paper, Stack, Table, Text } from '@mantine/core';
import type { AuditEntry } from '@pos/domain';
import { useState } from 'react';
import { ListPagination } from '../../../components/list/list-pagination';
import { AUDIT_PAGE_SIZE, useCustomerAudit } from '../api/customers';
import { describeAuditEntry, diffAudit, fieldLabel } from '../lib/audit-diff';
import { formatDateTime, humanize } from '../../../lib/format';
import type { StoreTabProps } from '../tab-props';

/**
 * Activity (GET /api/customers/{id}/audit): the customer's audit trail, newest first — who, when, what
 * (action on which record) and the fields that changed, before → after.
 */
export function ActivityTab({ customerId }: StoreTabProps) {
  const [page, setPage] = useState(1);
  const audit = useCustomerAudit(customerId, page);
  return (
    <Stack gap="sm">
      <Stack
        component="ol"
        gap="xs"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label="Activity, newest first"
        aria-busy={audit.isFetching}
      >
        {audit.data?.items.map((entry) => (
          <ActivityEntry key={entry.id} entry={entry} />
        ))}
      </Stack>
      {audit.data && audit.data.items.length === 0 && <Text c="dimmed">No recorded activity yet.</Text>}
      {!audit.data && (
        <Text c="dimmed">{audit.isError ? 'The activity could not be loaded.' : 'Loading activity…'}</Text>
      )}
      <ListPagination
        hideSinglePage
        label="Activity pages"
        total={audit.data?.total ?? 0}
        pageSize={AUDIT_PAGE_SIZE}
        page={page}
        onChange={setPage}
      />
    </Stack>
  );
}

function ActivityEntry({ entry }: { readonly entry: AuditEntry }) {
  const changes = diffAudit(entry.before, entry.after);
  const who = entry.actor_email ?? humanize(entry.actor_type);
  const title = describeAuditEntry(entry);
  return (
    <Paper component="li" withBorder p="sm" aria-label={`${title} by ${who}`}>
      <Text fw={600}>{title}</Text>
      <Text size="xs" c="dimmed" mb={changes.length ? 6 : 0}>
        {who} · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </Text>
      {changes.length > 0 && (
        <Table withRowBorders={false} verticalSpacing={2} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Field</Table.Th>
              <Table.Th scope="col">Before</Table.Th>
              <Table.Th scope="col">After</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map((c) => (
              <Table.Tr key={c.field}>
                <Table.Td>{fieldLabel(c.field)}</Table.Td>
                <Table.Td>
                  {c.before === null ? (
                    <Text span c="dimmed">
                      —
                    </Text>
                  ) : (
                    <Code>{c.before}</Code>
                  )}
                </Table.Td>
                <Table.Td>
                  {c.after === null ? (
                    <Text span c="dimmed">
                      —
                    </Text>
                  ) : (
                    <Code>{c.after}</Code>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
