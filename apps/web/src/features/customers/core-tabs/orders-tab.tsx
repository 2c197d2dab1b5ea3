import { Badge, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { isOrderType, ORDER_STATUS, ORDER_TYPE_LABELS } from '@pos/domain';
import { useState } from 'react';
import { ListPagination } from '../../../components/list/list-pagination';
import { ORDERS_PAGE_SIZE, useCustomerOrders } from '../api/customers';
import { SortableTh } from '../components/sortable-th';
import { formatCents, formatDate, orderStatusText } from '../../../lib/format';
import { formatSort, type SortState } from '../lib/url-state';
import type { StoreTabProps } from '../tab-props';

const DEFAULT_SORT: SortState = { column: 'order_date', direction: 'desc' };

/** Orders (GET …/customerorders): the store's orders (or all the customer's), status words from the §4 codes. */
export function OrdersTab({ customerId, storeId }: StoreTabProps) {
  const [allStores, setAllStores] = useState(false);
  const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
  const [paging, setPaging] = useState({ key: '', page: 1 });
  const key = `${storeId}:${allStores}:${formatSort(sort)}`;
  const page = paging.key === key ? paging.page : 1;
  const orders = useCustomerOrders(customerId, { storeId: allStores ? null : storeId, page, sort: formatSort(sort) });

  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <Checkbox
          label="Show orders of every store"
          checked={allStores}
          onChange={(e) => setAllStores(e.currentTarget.checked)}
        />
      </Group>
      <Table.ScrollContainer minWidth={760}>
        <Table striped captionSide="top" aria-busy={orders.isFetching}>
          <Table.Caption>{allStores ? 'Orders of the customer' : `Orders of store ${storeId ?? '—'}`}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <SortableTh column="order_id" sort={sort} onSort={setSort}>
                Order
              </SortableTh>
              <SortableTh column="order_date" sort={sort} onSort={setSort}>
                Date
              </SortableTh>
              <SortableTh column="status" sort={sort} onSort={setSort}>
                Status
              </SortableTh>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col">Store</Table.Th>
              <Table.Th scope="col">Sales rep</Table.Th>
              <SortableTh column="total_sale_cents" sort={sort} onSort={setSort}>
                Total
              </SortableTh>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.data?.items.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Text c="dimmed">No orders.</Text>
                </Table.Td>
              </Table.Tr>
            )}
            {orders.data?.items.map((o) => (
              <Table.Tr key={o.order_id}>
                <Table.Td>
                  {o.order_id}
                  <Text size="xs" c="dimmed">
                    {o.unified_order_id}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDate(o.order_date)}</Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    radius="sm"
                    color={
                      o.status === ORDER_STATUS.COMPLETE
                        ? 'green'
                        : o.status === ORDER_STATUS.REJECTED || o.status === ORDER_STATUS.POS_CANCELED
                          ? 'gray'
                          : 'blue'
                    }
                  >
                    {orderStatusText(o.status)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {isOrderType(o.order_type) ? ORDER_TYPE_LABELS[o.order_type] : o.order_type} · {o.flow}
                </Table.Td>
                <Table.Td>{o.store_name ?? (o.store_id ? `Store ${o.store_id}` : '—')}</Table.Td>
                <Table.Td>{o.sales_rep ?? '—'}</Table.Td>
                <Table.Td ta="right">{formatCents(o.total_sale_cents, o.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!orders.data && <Text c="dimmed">{orders.isError ? 'The orders could not be loaded.' : 'Loading orders…'}</Text>}
      <ListPagination
        hideSinglePage
        label="Order pages"
        total={orders.data?.total ?? 0}
        pageSize={ORDERS_PAGE_SIZE}
        page={page}
        onChange={(p) => setPaging({ key, page: p })}
      />
    </Stack>
  );
}
