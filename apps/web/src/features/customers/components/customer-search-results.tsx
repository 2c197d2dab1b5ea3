import { Anchor, Table, Text } from '@mantine/core';
import type { CustomerSearchRecord } from '@pos/domain';
import { Link } from 'react-router';
import { customerPagePath, type SortState } from '../lib/url-state';
import { SortableTh } from './sortable-th';
import { StatusBadge } from './status-badge';

export interface CustomerSearchResultsProps {
  readonly items: readonly CustomerSearchRecord[];
  readonly sort: SortState | null;
  readonly onSort: (next: SortState) => void;
  /** The search text, carried into the customer page for "Back to results". */
  readonly q: string;
  /** Where a customer (or one of its stores) opens; default the customer page. */
  readonly linkTo?: CustomerLink;
}

/** Where a search result opens: the customer page, or another screen that works on the chosen customer. */
export type CustomerLink = (target: { readonly customerId: number; readonly storeId?: number }) => string;

const COLUMNS: readonly { readonly column: string; readonly label: string }[] = [
  { column: 'customer_id', label: 'Customer' },
  { column: 'legal_name', label: 'Legal name' },
  { column: 'store_id', label: 'Store' },
  { column: 'store_name', label: 'Store name' },
  { column: 'doing_business_as', label: 'DBA' },
  { column: 'bracct', label: 'Bracct' },
  { column: 'sales_rep', label: 'Sales rep' },
  { column: 'state', label: 'Location' },
  { column: 'store_status', label: 'Status' },
  { column: 'account_manager', label: 'Account manager' },
];

/**
 * One row per store (a customer without stores: one row). The legal name opens the customer, the store
 * name opens the customer at that store. Headers sort on the server.
 */
export function CustomerSearchResults({ items, sort, onSort, q, linkTo }: CustomerSearchResultsProps) {
  const open: CustomerLink = linkTo ?? ((target) => customerPagePath({ ...target, q }));
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table striped highlightOnHover verticalSpacing="xs" captionSide="top">
        <Table.Caption>Matching stores. Open a customer by its legal name, or a store by its name.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <SortableTh key={c.column} column={c.column} sort={sort} onSort={onSort}>
                {c.label}
              </SortableTh>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length}>
                <Text c="dimmed">No customers match. Check the spelling, or search by id.</Text>
              </Table.Td>
            </Table.Tr>
          )}
          {items.map((r) => (
            <Table.Tr key={`${r.customer_id}-${r.store_id ?? 'none'}`}>
              <Table.Td>{r.customer_id}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={open({ customerId: r.customer_id })}>
                  {r.legal_name}
                </Anchor>
              </Table.Td>
              <Table.Td>{r.store_id ?? '—'}</Table.Td>
              <Table.Td>
                {r.store_id !== null ? (
                  <Anchor component={Link} to={open({ customerId: r.customer_id, storeId: r.store_id })}>
                    {r.store_name ?? `Store ${r.store_id}`}
                  </Anchor>
                ) : (
                  <Text c="dimmed" size="sm">
                    No stores
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{r.doing_business_as ?? '—'}</Table.Td>
              <Table.Td>{r.bracct ?? '—'}</Table.Td>
              <Table.Td>{r.sales_rep ?? '—'}</Table.Td>
              <Table.Td>{[r.city, r.state, r.country].filter(Boolean).join(', ')}</Table.Td>
              <Table.Td>
                <StatusBadge status={r.store_status ?? r.customer_status} />
              </Table.Td>
              <Table.Td>{r.account_manager ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
