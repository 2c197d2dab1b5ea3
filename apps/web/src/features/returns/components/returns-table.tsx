import { Button, Table, Text, UnstyledButton } from '@mantine/core';
import { RETURN_STATUS_LABELS, type ReturnItem } from '@pos/domain';
import type { ReactNode } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { formatTotal } from '../../../components/list/list-pagination';
import { formatCents, formatDateTime } from '../../../lib/format';

function SortHeader(props: { column: string; sort: string | null; onSort: (s: string) => void; children: ReactNode }) {
  const { column, sort, onSort, children } = props;
  const direction = sort === column ? 'asc' : sort === `-${column}` ? 'desc' : null;
  return (
    <Table.Th scope="col" aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}>
      <UnstyledButton onClick={() => onSort(direction === 'asc' ? `-${column}` : column)} fw={700} fz="sm">
        {children}
        <span aria-hidden="true">
          {'\u00a0'}
          {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
        </span>
      </UnstyledButton>
    </Table.Th>
  );
}

/** Returns as a table (the list of #/viewreturns and the waiting refunds of #/refund); a row opens its return. */
export function ReturnsTable(props: {
  caption: string;
  items: readonly ReturnItem[];
  total: number;
  capped: boolean;
  pending: boolean;
  sort: string | null;
  onSort: (s: string) => void;
  onOpen: (id: number) => void;
  openLabel: string;
  emptyText: string;
}) {
  const { items, sort, onSort } = props;
  const columns = [
    <SortHeader key="created_at" column="created_at" sort={sort ?? '-created_at'} onSort={onSort}>
      Requested
    </SortHeader>,
    <SortHeader key="customer" column="customer" sort={sort} onSort={onSort}>
      Merchant
    </SortHeader>,
    'Store (DBA)',
    <SortHeader key="status" column="status" sort={sort} onSort={onSort}>
      Status
    </SortHeader>,
    'Terminals',
    'Value − fee = credit',
    <SortHeader key="refund_cents" column="refund_cents" sort={sort} onSort={onSort}>
      Refunded
    </SortHeader>,
    'Return',
  ];
  return (
    <DataTable
      caption={
        props.pending
          ? `${props.caption} (loading…)`
          : `${props.caption} — ${formatTotal(props.total, props.capped)} ${props.total === 1 && !props.capped ? 'match' : 'matches'}`
      }
      columns={columns}
      minWidth={1100}
      rowCount={items.length}
      emptyText={props.pending ? 'Loading…' : props.emptyText}
      highlightOnHover
    >
      {items.map((r) => (
        <Table.Tr key={r.id}>
          <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
          <Table.Td>
            {r.legal_name}
            <Text component="span" size="xs" c="dimmed" display="block">
              Customer {r.customer_id}
            </Text>
          </Table.Td>
          <Table.Td>
            {r.doing_business_as ?? '—'}
            {r.invoice_number && (
              <Text component="span" size="xs" c="dimmed" display="block">
                {r.invoice_number}
              </Text>
            )}
          </Table.Td>
          <Table.Td>{RETURN_STATUS_LABELS[r.status]}</Table.Td>
          <Table.Td>{r.terminal_count}</Table.Td>
          <Table.Td>
            {formatCents(r.value_cents, r.currency)} − {formatCents(r.restocking_fee_cents, r.currency)} ={' '}
            {formatCents(r.credit_cents, r.currency)}
          </Table.Td>
          <Table.Td>
            {r.status === 'refunded'
              ? `${formatCents(r.refund_cents, r.currency)}${r.refund_method === 'check' ? ' by check' : r.refund_method === 'gateway' ? ' to card' : ''}`
              : '—'}
          </Table.Td>
          <Table.Td>
            <Button size="compact-xs" variant="light" onClick={() => props.onOpen(r.id)}>
              {props.openLabel} #{r.id}
            </Button>
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
