import { Table } from '@mantine/core';
import { useState } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { ListPagination } from '../../../components/list/list-pagination';
import { usePromotions } from '../api/accounts-billing';
import { formatCents, formatDateTime } from '../../../lib/format';
import type { StoreTabProps } from '../tab-props';
import { NoStore, TabFrame } from './ui/tab-frame';

const PAGE_SIZE = 25;

const COLUMNS = ['Promotion', 'Code', 'Type', 'Method', 'Amount', 'Order', 'Applied'];
const PROMOTION_TYPES: Readonly<Record<string, string>> = { H: 'Hardware', S: 'Service', R: 'Referral' };
const PROMOTION_METHODS: Readonly<Record<string, string>> = { A: 'Amount', P: 'Percent' };

/** Promotions applied to the selected store's orders (read-only). */
export function PromotionsTab({ customerId, storeId }: StoreTabProps) {
  if (storeId === null) return <NoStore title="Promotions" />;
  return <PromotionsOfStore key={storeId} customerId={customerId} storeId={storeId} />;
}

function PromotionsOfStore({ customerId, storeId }: { customerId: number; storeId: number }) {
  const [page, setPage] = useState(1);
  const list = usePromotions(customerId, { storeId, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const items = list.data?.items ?? [];
  return (
    <TabFrame title="Promotions" isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()}>
      <DataTable
        caption={`Promotions of store ${storeId}`}
        columns={COLUMNS}
        minWidth={820}
        rowCount={items.length}
        emptyText="No promotions were applied to this store."
      >
        {items.map((p) => (
          <Table.Tr key={p.id}>
            <Table.Th scope="row" fw={600}>
              {p.name}
            </Table.Th>
            <Table.Td ff="monospace">{p.code}</Table.Td>
            <Table.Td>{PROMOTION_TYPES[p.type] ?? p.type}</Table.Td>
            <Table.Td>{PROMOTION_METHODS[p.method] ?? p.method}</Table.Td>
            <Table.Td>{formatCents(p.amount_cents, p.currency)}</Table.Td>
            <Table.Td>{p.order_id ?? '—'}</Table.Td>
            <Table.Td>{formatDateTime(p.applied_at)}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        hideSinglePage
        label="Promotion pages"
        total={list.data?.total ?? 0}
        pageSize={PAGE_SIZE}
        page={page}
        onChange={setPage}
      />
    </TabFrame>
  );
}
