import { Anchor, Table, Text } from '@mantine/core';
import { RETURN_STATUS_LABELS, type ReturnItem } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import {
  DataTable,
  emptyListText,
  FigureCell,
  FigureHeader,
  listCaption,
  NoWrapCell,
  SortHeader,
} from '../../../components/list';
import { formatCents, formatDateTime } from '../../../lib/format';

const INVOICE_PRIVILEGES = ['invoices'] as const;

/**
 * Returns as a table (the list of #/viewreturns and the waiting refunds of #/refund): a row's link opens its return
 * beside the list (`hrefFor`, the list's address with the return's id); the merchant links to the customer, the
 * invoice to the invoice (for whom may open invoices).
 */
export function ReturnsTable(props: {
  caption: string;
  items: readonly ReturnItem[];
  total: number;
  capped: boolean;
  pending: boolean;
  sort: string | null;
  onSort: (s: string) => void;
  /** The address that opens a return (the list's own, with its id). */
  hrefFor: (id: number) => string;
  /** The open return, marked in the list. */
  openId: number | null;
  openLabel: string;
  emptyText: string;
}) {
  const { items, sort, onSort } = props;
  const mayOpenInvoices = useQuery({
    ...getPermissionsQueryOptions(INVOICE_PRIVILEGES),
    select: (flags) => flags.invoices === true,
  }).data;
  const columns = [
    <SortHeader key="created_at" column="created_at" sort={sort} onSort={onSort}>
      Requested
    </SortHeader>,
    <SortHeader key="customer" column="customer" sort={sort} onSort={onSort}>
      Merchant
    </SortHeader>,
    'Store (DBA)',
    <SortHeader key="status" column="status" sort={sort} onSort={onSort}>
      Status
    </SortHeader>,
    <FigureHeader key="terminals">Terminals</FigureHeader>,
    <FigureHeader key="credit">Value − fee = credit</FigureHeader>,
    <SortHeader key="refund_cents" column="refund_cents" sort={sort} onSort={onSort} numeric>
      Refunded
    </SortHeader>,
    'Return',
  ];
  return (
    <DataTable
      caption={listCaption(props.caption, { isPending: props.pending, total: props.total, capped: props.capped })}
      columns={columns}
      minWidth={1100}
      rowCount={items.length}
      emptyText={emptyListText(props.pending, props.emptyText)}
      highlightOnHover
    >
      {items.map((r) => (
        <Table.Tr key={r.id} aria-selected={r.id === props.openId || undefined}>
          <NoWrapCell>{formatDateTime(r.created_at)}</NoWrapCell>
          <Table.Td>
            {r.legal_name}
            <Anchor component={Link} to={`/customer?id=${r.customer_id}`} size="xs" display="block">
              Customer {r.customer_id}
            </Anchor>
          </Table.Td>
          <Table.Td>
            {r.doing_business_as ?? '—'}
            {r.invoice_number &&
              (mayOpenInvoices && r.invoice_id !== null ? (
                <Anchor component={Link} to={`/view-invoices?id=${r.invoice_id}`} size="xs" display="block">
                  {r.invoice_number}
                </Anchor>
              ) : (
                <Text component="span" size="xs" c="dimmed" display="block">
                  {r.invoice_number}
                </Text>
              ))}
          </Table.Td>
          <NoWrapCell>{RETURN_STATUS_LABELS[r.status]}</NoWrapCell>
          <FigureCell>{r.terminal_count}</FigureCell>
          <FigureCell>
            {formatCents(r.value_cents, r.currency)} − {formatCents(r.restocking_fee_cents, r.currency)} ={' '}
            {formatCents(r.credit_cents, r.currency)}
          </FigureCell>
          <FigureCell>
            {r.status === 'refunded'
              ? `${formatCents(r.refund_cents, r.currency)}${r.refund_method === 'check' ? ' by check' : r.refund_method === 'gateway' ? ' to card' : ''}`
              : '—'}
          </FigureCell>
          <NoWrapCell>
            <Anchor component={Link} to={props.hrefFor(r.id)} fz="sm">
              {props.openLabel} #{r.id}
            </Anchor>
          </NoWrapCell>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
