import { Anchor, Code, Table, Text } from '@mantine/core';
import type { MailSummary } from '@pos/domain';
import { formatDateTime } from '../lib/format';
import { MailStatusBadge } from './mail-status-badge';

export interface MailTableProps {
  readonly items: readonly MailSummary[];
  readonly selectedId: number | null;
  readonly onSelect: (id: number) => void;
}

/** The Mailbox list: To, Subject (opens the message), Template, Status, Created. */
export function MailTable({ items, selectedId, onSelect }: MailTableProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="xs" captionSide="top">
        <Table.Caption>Messages, newest first. Open one by its subject.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">To</Table.Th>
            <Table.Th scope="col">Subject</Table.Th>
            <Table.Th scope="col">Template</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}>
                <Text c="dimmed">No messages match.</Text>
              </Table.Td>
            </Table.Tr>
          )}
          {items.map((m) => {
            const selected = m.id === selectedId;
            return (
              <Table.Tr key={m.id} bg={selected ? 'var(--mantine-color-blue-light)' : undefined}>
                <Table.Td>{m.to}</Table.Td>
                <Table.Td>
                  <Anchor component="button" type="button" ta="left" onClick={() => onSelect(m.id)} aria-current={selected ? 'true' : undefined}>
                    {m.subject || '(no subject)'}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Code>{m.template}</Code>
                </Table.Td>
                <Table.Td miw={96}>
                  <MailStatusBadge status={m.status} />
                </Table.Td>
                <Table.Td miw={120}>{formatDateTime(m.created_at)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
