import { Badge, Stack, Table, Text } from '@mantine/core';
import { DataTable } from '../../../components/list/data-table';
import { useStoreEmails } from '../api/customers';
import { formatDateTime, humanize } from '../../../lib/format';
import type { StoreTabProps } from '../tab-props';

/** These tables keep the default row height and print size. */
const PLAIN = { verticalSpacing: undefined, fz: undefined } as const;

/** E-mails (GET /api/customers/stores/{storeId}/emails): the store's addresses, the customer's, and what was sent to them. */
export function EmailsTab({ storeId }: StoreTabProps) {
  if (storeId === null) return <Text c="dimmed">This customer has no store.</Text>;
  return <StoreEmails storeId={storeId} />;
}

function StoreEmails({ storeId }: { readonly storeId: number }) {
  const emails = useStoreEmails(storeId);
  if (!emails.data)
    return <Text c="dimmed">{emails.isError ? 'The e-mails could not be loaded.' : 'Loading e-mails…'}</Text>;
  const { emails: addresses, sent } = emails.data;
  return (
    <Stack gap="lg">
      <DataTable
        caption={`E-mail addresses of store ${storeId}`}
        columns={['E-mail', 'Kind', 'From']}
        minWidth={480}
        rowCount={addresses.length}
        emptyText="No e-mail addresses."
        {...PLAIN}
      >
        {addresses.map((e) => (
          <Table.Tr key={`${e.source}-${e.id ?? 'customer'}-${e.email}`}>
            <Table.Td>
              {e.email}{' '}
              {e.is_primary && (
                <Badge size="xs" variant="light">
                  Primary
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{humanize(e.kind)}</Table.Td>
            <Table.Td>{e.source === 'customer' ? 'Customer record' : 'Store'}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <DataTable
        caption="Messages sent to these addresses, newest first"
        columns={['To', 'Subject', 'Status', 'Created', 'Sent']}
        minWidth={640}
        rowCount={sent.length}
        emptyText="Nothing was sent yet."
        {...PLAIN}
      >
        {sent.map((m) => (
          <Table.Tr key={m.id}>
            <Table.Td>{m.to}</Table.Td>
            <Table.Td>{m.subject}</Table.Td>
            <Table.Td>{humanize(m.status)}</Table.Td>
            <Table.Td>{formatDateTime(m.created_at)}</Table.Td>
            <Table.Td>{formatDateTime(m.sent_at)}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </Stack>
  );
}
