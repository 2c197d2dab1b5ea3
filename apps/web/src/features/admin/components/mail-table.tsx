import { Anchor, Code, Table } from '@mantine/core';
import type { MailSummary } from '@pos/domain';
import { DataTable } from '../../../components/list/data-table';
import { formatDateTime } from '../../../lib/format';
import { MailStatusBadge } from './mail-status-badge';

const COLUMNS = ['To', 'Subject', 'Template', 'Status', 'Created'];

export interface MailTableProps {
  readonly items: readonly MailSummary[];
  readonly selectedId: number | null;
  readonly onSelect: (id: number) => void;
}

/** The Mailbox list: To, Subject (opens the message), Template, Status, Created. */
export function MailTable({ items, selectedId, onSelect }: MailTableProps) {
  return (
    <DataTable
      caption="Messages, newest first. Open one by its subject."
      columns={COLUMNS}
      minWidth={640}
      rowCount={items.length}
      emptyText="No messages match."
      highlightOnHover
      fz={undefined}
    >
      {items.map((m) => {
        const selected = m.id === selectedId;
        return (
          <Table.Tr key={m.id} bg={selected ? 'var(--mantine-color-blue-light)' : undefined}>
            <Table.Td>{m.to}</Table.Td>
            <Table.Td>
              <Anchor
                component="button"
                type="button"
                ta="left"
                onClick={() => onSelect(m.id)}
                aria-current={selected ? 'true' : undefined}
              >
                {m.subject || '(no subject)'}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Code>{m.template}</Code>
            </Table.Td>
            <Table.Td miw={96}>
              <MailStatusBadge status={m.status} />
            </Table.Td>
            <Table.Td miw={120}>{formatDateTime(m.created_at, { seconds: true })}</Table.Td>
          </Table.Tr>
        );
      })}
    </DataTable>
  );
}
