import { Badge, Stack, Table, Text } from '@mantine/core';
import { useStoreEmails } from '../api/customers';
import { formatDateTime, humanize } from '../lib/format';
import type { StoreTabProps } from '../tab-props';

/** E-mails (GET /api/customers/stores/{storeId}/emails): the store's addresses, the customer's, and what was sent to them. */
export function EmailsTab({ storeId }: StoreTabProps) {
  if (storeId === null) return <Text c="dimmed">This customer has no store.</Text>;
  return <StoreEmails storeId={storeId} />;
}

function StoreEmails({ storeId }: { readonly storeId: number }) {
  const emails = useStoreEmails(storeId);
  if (!emails.data) return <Text c="dimmed">{emails.isError ? 'The e-mails could not be loaded.' : 'Loading e-mails…'}</Text>;
  const { emails: addresses, sent } = emails.data;
  return (
    <Stack gap="lg">
      <Table.ScrollContainer minWidth={480}>
        <Table captionSide="top" striped>
          <Table.Caption>E-mail addresses of store {storeId}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">E-mail</Table.Th>
              <Table.Th scope="col">Kind</Table.Th>
              <Table.Th scope="col">From</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {addresses.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={3}>
                  <Text c="dimmed">No e-mail addresses.</Text>
                </Table.Td>
              </Table.Tr>
            )}
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
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Table.ScrollContainer minWidth={640}>
        <Table captionSide="top" striped>
          <Table.Caption>Messages sent to these addresses, newest first</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">To</Table.Th>
              <Table.Th scope="col">Subject</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Created</Table.Th>
              <Table.Th scope="col">Sent</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sent.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text c="dimmed">Nothing was sent yet.</Text>
                </Table.Td>
              </Table.Tr>
            )}
            {sent.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>{m.to}</Table.Td>
                <Table.Td>{m.subject}</Table.Td>
                <Table.Td>{humanize(m.status)}</Table.Td>
                <Table.Td>{formatDateTime(m.created_at)}</Table.Td>
                <Table.Td>{formatDateTime(m.sent_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
