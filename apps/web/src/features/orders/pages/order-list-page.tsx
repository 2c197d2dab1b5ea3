import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  effectivePrivileges,
  ORDER_FLOWS,
  ORDER_SEARCH_TEXT_MIN,
  ORDER_STATUS_CODES,
  ORDER_STATUS_LABELS,
  startStatusForRole,
  type OrderSearchRecord,
} from '@pos/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable } from '../../../components/list/data-table';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import { describeError } from '../../../lib/error-message';
import { datedFileName, downloadFile } from '../../../lib/download';
import { useSession } from '../../../lib/session';
import {
  exportOrders,
  getOrderListQueryOptions,
  getOrderRowQueryOptions,
  orderKeys,
  ORDER_PAGE_SIZE,
  type OrderFilters,
  type OrderListParams,
} from '../api/orders';
import { OrderDetails } from '../components/order-details';
import { formatCents, formatDate } from '../../../lib/format';

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...ORDER_STATUS_CODES.map((c) => ({ value: c, label: `${ORDER_STATUS_LABELS[c]} (${c})` })),
];
const FLOW_OPTIONS = [{ value: '', label: 'Any flow' }, ...ORDER_FLOWS.map((f) => ({ value: f, label: f }))];

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

/** The order id of `#/order?id=…`: a positive whole number, else null. */
function orderIdOf(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

/** The newer of two copies of one order (by version; the first wins a tie). */
const newer = (a: OrderSearchRecord | undefined, b: OrderSearchRecord | undefined) =>
  a && b ? (b.version > a.version ? b : a) : (a ?? b);

/**
 * /order: the order list, opening on the caller's queue (its role's start status), with an order's details panel.
 * The open order is in the address (`#/order?id=123`), so a link opens that order's panel; an order that does not
 * exist or is not the caller's to see (404, decision 102) says "not found".
 */
export default function OrderListPage() {
  const { session } = useSession();
  const queueStatus = startStatusForRole(session?.role ?? '');
  const mayCreate = session
    ? effectivePrivileges(session.role, session.additional_privileges).includes('create_distributor_orders')
    : false;
  const queueFilters: OrderFilters = { status: queueStatus, flow: '', salesRep: '', dateFrom: '', dateTo: '', q: '' };
  const [draft, setDraft] = useState<OrderFilters>(queueFilters);
  const [applied, setApplied] = useState<OrderFilters>(queueFilters);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<string | null>(null);
  const [textError, setTextError] = useState<string | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const idParam = searchParams.get('id');
  const openId = orderIdOf(idParam);

  const params: OrderListParams = { ...applied, page, sort };
  const list = useQuery(getOrderListQueryOptions(params));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const capped = list.data?.total_capped ?? false;
  const one = useQuery({
    ...getOrderRowQueryOptions(openId ?? 0),
    enabled: openId !== null,
    // Shown on the page itself ("not found"), not as a toast.
    meta: { silentError: true },
  });
  // The newest copy: the list's (fresh after a reload) or the one read by id (the link, or the last change).
  const open =
    openId === null
      ? null
      : (newer(
          one.data,
          items.find((o) => o.id === openId),
        ) ?? null);
  const openOrder = (o: OrderSearchRecord) => {
    queryClient.setQueryData(orderKeys.row(o.id), o);
    setSearchParams({ id: String(o.id) });
  };
  const closeOrder = () => setSearchParams({});
  const linkProblem =
    idParam === null
      ? null
      : openId === null
        ? { title: 'Not an order', message: 'This address does not name an order. Open the order from the list.' }
        : one.isError && !open
          ? describeError(one.error)
          : null;

  const exportCsv = useMutation({
    mutationFn: () => exportOrders(params),
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName('orders', 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
    },
  });

  const set = (key: keyof OrderFilters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const q = draft.q.trim();
    if (q !== '' && q.length < ORDER_SEARCH_TEXT_MIN) {
      setTextError(`Type at least ${ORDER_SEARCH_TEXT_MIN} characters.`);
      return;
    }
    setTextError(null);
    setApplied(draft);
    setPage(1);
  };
  const showQueue = () => {
    setDraft(queueFilters);
    setApplied(queueFilters);
    setPage(1);
  };
  const onSort = (s: string) => {
    setSort(s);
    setPage(1);
  };

  const columns = [
    <SortHeader key="unified_order_id" column="unified_order_id" sort={sort} onSort={onSort}>
      Order
    </SortHeader>,
    <SortHeader key="status" column="status" sort={sort} onSort={onSort}>
      Status
    </SortHeader>,
    'Flow',
    <SortHeader key="legal_name" column="legal_name" sort={sort} onSort={onSort}>
      Legal name
    </SortHeader>,
    <SortHeader key="dba_name" column="dba_name" sort={sort} onSort={onSort}>
      DBA
    </SortHeader>,
    <SortHeader key="sales_rep" column="sales_rep" sort={sort} onSort={onSort}>
      Sales rep
    </SortHeader>,
    'Agent',
    <SortHeader key="total_sale_cents" column="total_sale_cents" sort={sort} onSort={onSort}>
      Total
    </SortHeader>,
    <SortHeader key="order_date" column="order_date" sort={sort} onSort={onSort}>
      Order date
    </SortHeader>,
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Orders
        </Title>
        {mayCreate && (
          <Button component={Link} to="/neworder">
            New order
          </Button>
        )}
      </Group>
      <form onSubmit={apply} aria-label="Filter orders">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect
            label="Status"
            data={STATUS_OPTIONS}
            value={draft.status}
            onChange={(e) => set('status')(e.currentTarget.value)}
            w={240}
          />
          <NativeSelect
            label="Flow"
            data={FLOW_OPTIONS}
            value={draft.flow}
            onChange={(e) => set('flow')(e.currentTarget.value)}
            w={130}
          />
          <TextInput
            label="Sales rep"
            value={draft.salesRep}
            onChange={(e) => set('salesRep')(e.currentTarget.value)}
            w={170}
          />
          <TextInput
            label="Order date from"
            type="date"
            value={draft.dateFrom}
            onChange={(e) => set('dateFrom')(e.currentTarget.value)}
          />
          <TextInput
            label="Order date to"
            type="date"
            value={draft.dateTo}
            onChange={(e) => set('dateTo')(e.currentTarget.value)}
          />
          <TextInput
            label="Search text"
            description="Legal name, DBA, order id or tax id"
            value={draft.q}
            onChange={(e) => set('q')(e.currentTarget.value)}
            error={textError}
            w={240}
          />
          <Button type="submit">Apply</Button>
          <Button variant="subtle" onClick={showQueue}>
            My queue
          </Button>
        </Group>
      </form>
      <Group justify="space-between">
        <Text fw={600}>Your queue: {ORDER_STATUS_LABELS[queueStatus]}</Text>
        <Button
          variant="default"
          onClick={() => exportCsv.mutate()}
          loading={exportCsv.isPending}
          disabled={total === 0}
        >
          Export CSV
        </Button>
      </Group>
      {linkProblem && (
        <Alert color="red" title={linkProblem.title} withCloseButton closeButtonLabel="Dismiss" onClose={closeOrder}>
          {linkProblem.message}
        </Alert>
      )}
      {list.isError && <Alert color="red">{describeError(list.error).message}</Alert>}
      <DataTable
        caption={
          list.isPending
            ? 'Orders (loading…)'
            : `Orders — ${formatTotal(total, capped)} ${total === 1 && !capped ? 'match' : 'matches'}`
        }
        columns={columns}
        minWidth={1000}
        rowCount={items.length}
        emptyText={list.isPending ? 'Loading…' : 'No orders match.'}
        highlightOnHover
      >
        {items.map((o) => (
          <Table.Tr key={o.id}>
            <Table.Td>
              <UnstyledButton
                onClick={() => openOrder(o)}
                c="blue"
                fz="sm"
                aria-label={`Open order ${o.unified_order_id}`}
              >
                {o.unified_order_id}
              </UnstyledButton>
            </Table.Td>
            <Table.Td>{o.status_label}</Table.Td>
            <Table.Td>{o.flow}</Table.Td>
            <Table.Td>{o.legal_name ?? '—'}</Table.Td>
            <Table.Td>{o.dba_name ?? '—'}</Table.Td>
            <Table.Td>{o.sales_rep ?? '—'}</Table.Td>
            <Table.Td>{o.agent ?? '—'}</Table.Td>
            <Table.Td>{formatCents(o.total_sale_cents, o.currency)}</Table.Td>
            <Table.Td>{formatDate(o.order_date)}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Order pages"
        total={total}
        totalCapped={capped}
        pageRows={items.length}
        pageSize={ORDER_PAGE_SIZE}
        page={page}
        onChange={setPage}
        hideSinglePage
      />
      {openId !== null && !open && one.isPending && <Text c="dimmed">Loading order {openId}…</Text>}
      <OrderDetails
        order={open}
        onClose={closeOrder}
        onChanged={(o) => queryClient.setQueryData(orderKeys.row(o.id), o)}
      />
    </Stack>
  );
}
