import { Table, Text } from '@mantine/core';
import { useState } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { ListPagination } from '../../../components/list/list-pagination';
import { useBundles } from '../api/accounts-billing';
import { StatusBadge } from '../components/status-badge';
import { formatCents, formatDate } from '../../../lib/format';
import type { StoreTabProps } from '../tab-props';
import { NoStore, TabFrame } from './ui/tab-frame';

const PAGE_SIZE = 25;

const COLUMNS = ['Bundle', 'NRS Pay', 'Items', 'Monthly price', 'Status', 'Starts'];

/** Bundles of the selected store (read-only): name, NRS Pay, items, monthly price, status, start. */
export function BundlesTab({ customerId, storeId }: StoreTabProps) {
  if (storeId === null) return <NoStore title="Bundles" />;
  return <BundlesOfStore key={storeId} customerId={customerId} storeId={storeId} />;
}

function BundlesOfStore({ customerId, storeId }: { customerId: number; storeId: number }) {
  const [page, setPage] = useState(1);
  const list = useBundles(customerId, { storeId, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const items = list.data?.items ?? [];
  return (
    <TabFrame title="Bundles" isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()}>
      <DataTable
        caption={`Bundles of store ${storeId}`}
        columns={COLUMNS}
        minWidth={820}
        rowCount={items.length}
        emptyText="This store has no bundles."
      >
        {items.map((b) => (
          <Table.Tr key={b.id}>
            <Table.Th scope="row" fw={600}>
              {b.name}
              {b.description && (
                <Text size="xs" c="dimmed" fw={400}>
                  {b.description}
                </Text>
              )}
            </Table.Th>
            <Table.Td>{b.nrs_pay ? 'Yes' : 'No'}</Table.Td>
            <Table.Td>{b.items.map((i) => i.name).join(', ') || '—'}</Table.Td>
            <Table.Td>{formatCents(b.monthly_price_cents, b.currency)}</Table.Td>
            <Table.Td>
              <StatusBadge
                status={b.status === 'A' ? 'active' : b.status === 'C' ? 'canceled' : 'pending'}
                label={b.status_label}
              />
            </Table.Td>
            <Table.Td>{formatDate(b.starts_on)}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        hideSinglePage
        label="Bundle pages"
        total={list.data?.total ?? 0}
        pageSize={PAGE_SIZE}
        page={page}
        onChange={setPage}
      />
    </TabFrame>
  );
}
