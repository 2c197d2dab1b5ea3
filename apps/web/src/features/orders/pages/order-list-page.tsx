import { Alert, Anchor, Button, Checkbox, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import {
  effectivePrivileges,
  ORDER_FLOWS,
  ORDER_SEARCH_TEXT_MIN,
  ORDER_STATUS_CODES,
  ORDER_STATUS_LABELS,
  startStatusForRole,
  type OrderSearchRecord,
  type OrderStatusCode,
} from '@pos/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import {
  bindFilter,
  DataTable,
  DetailPane,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FilterBar,
  FilterDateRange,
  FilterMultiSelect,
  FilterSelect,
  FilterText,
  ListError,
  listCaption,
  ListPagination,
  NoWrapCell,
  SortHeader,
  useListState,
} from '../../../components/list';
import { describeError } from '../../../lib/error-message';
import { datedFileName } from '../../../lib/download';
import { getCurrentOrderStatus, setCurrentOrderStatus, useSession } from '../../../lib/session';
import {
  exportOrders,
  getOrderListQueryOptions,
  getOrderRowQueryOptions,
  orderKeys,
  ORDER_PAGE_SIZE,
  type OrderFilters,
  type OrderListParams,
} from '../api/orders';
import { MoveOrdersDialog } from '../components/move-orders-dialog';
import { OrderDetails } from '../components/order-details';
import { formatCents, formatDate } from '../../../lib/format';

/** The statuses to filter on (several at once, §2's dropdown: `status=121,125`); none chosen is every status. */
const STATUS_OPTIONS = ORDER_STATUS_CODES.map((c) => ({ value: c, label: `${ORDER_STATUS_LABELS[c]} (${c})` }));
const FLOW_OPTIONS = [{ value: '', label: 'Any flow' }, ...ORDER_FLOWS.map((f) => ({ value: f, label: f }))];

/** The address keys of the filters: `#/order?status=&flow=RAM&sales_rep=whit&date_from=2026-03-01&q=zep&id=700001`. */
const FILTER_KEYS = { salesRep: 'sales_rep', dateFrom: 'date_from', dateTo: 'date_to' } as const;

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
/**
 * /order: the order list, opening on the caller's queue (its role's start status), with an order's details panel
 * beside it. Filters, sort, page and the open order are in the address (`#/order?status=&q=zep&id=123`, issue 30):
 * the role's queue is what the address shows when it names no status, Back, reload and a copied link show the same
 * view, and a link to `#/order?id=123` opens that order's panel; an order that does not exist or is not the caller's
 * to see (404, decision 102) says "not found".
 */
export default function OrderListPage() {
  const { session } = useSession();
  const queueStatus = startStatusForRole(session?.role ?? '');
  const privileges = session ? effectivePrivileges(session.role, session.additional_privileges) : [];
  const mayCreate = privileges.includes('create_distributor_orders');
  // Moving orders to another agent needs what the agentswitch call needs (search_orders_edit).
  const mayMove = privileges.includes('search_orders_edit');
  // §3: the current order status is kept in session storage — arriving at the list with no status in the address
  // (the Orders link) opens it on the status this tab last showed, not back on the queue. Only on arrival: within
  // the list, My queue (no status) is the role's queue.
  const [params] = useSearchParams();
  const [arrival] = useState(() => {
    const kept = getCurrentOrderStatus();
    return !params.has('status') && kept !== null && kept !== queueStatus ? kept : null;
  });
  const [redirected, setRedirected] = useState(false);
  if (arrival !== null && !redirected && !params.has('status')) {
    const next = new URLSearchParams(params);
    next.set('status', arrival);
    return <Navigate replace to={`/order?${next.toString()}`} />;
  }
  if (arrival !== null && !redirected) setRedirected(true);
  // The queue is the list's default: another role (another sign-in) starts a new list.
  return <OrderList key={queueStatus} queueStatus={queueStatus} mayCreate={mayCreate} mayMove={mayMove} />;
}

const NO_ORDERS: ReadonlyMap<number, OrderSearchRecord> = new Map();

function OrderList({
  queueStatus,
  mayCreate,
  mayMove,
}: {
  readonly queueStatus: OrderStatusCode;
  readonly mayCreate: boolean;
  readonly mayMove: boolean;
}) {
  const listOptions = useMemo(
    () => ({
      defaults: { status: queueStatus, flow: '', salesRep: '', dateFrom: '', dateTo: '', q: '' } as OrderFilters,
      keys: FILTER_KEYS,
    }),
    [queueStatus],
  );
  const list = useListState<OrderFilters>(listOptions);
  const { draft, applied, page, sort } = list;
  useEffect(() => setCurrentOrderStatus(applied.status), [applied.status]);
  const [textError, setTextError] = useState<string | null>(null);
  const field = bindFilter(list, { q: textError });
  const queryClient = useQueryClient();
  const idParam = list.selected;
  const openId = orderIdOf(idParam);

  const params: OrderListParams = { ...applied, page, sort };
  const orders = useQuery(getOrderListQueryOptions(params));
  const items = orders.data?.items ?? [];
  const total = orders.data?.total ?? 0;
  // The orders chosen to move belong to the filtered list: other filters (Apply, My queue, Back) start afresh.
  const appliedKey = JSON.stringify(applied);
  const [picked, setPicked] = useState({ key: appliedKey, orders: NO_ORDERS });
  const selected = picked.key === appliedKey ? picked.orders : NO_ORDERS;
  const setSelected = (update: (prev: ReadonlyMap<number, OrderSearchRecord>) => Map<number, OrderSearchRecord>) =>
    setPicked((p) => ({ key: appliedKey, orders: update(p.key === appliedKey ? p.orders : NO_ORDERS) }));
  const toggle = (o: OrderSearchRecord, on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(o.id, o);
      else next.delete(o.id);
      return next;
    });
  const allOnPage = items.length > 0 && items.every((o) => selected.has(o.id));
  const someOnPage = items.some((o) => selected.has(o.id));
  const togglePage = (on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const o of items) {
        if (on) next.set(o.id, o);
        else next.delete(o.id);
      }
      return next;
    });
  const [moving, setMoving] = useState<readonly OrderSearchRecord[] | null>(null);
  const dropMoved = (ids: readonly number[]) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const id of ids) next.delete(id);
      return next;
    });
  const capped = orders.data?.total_capped ?? false;
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
  // The row the link opens is known already: its panel shows at once (the row query reads it again in a new tab).
  const remember = (o: OrderSearchRecord) => queryClient.setQueryData(orderKeys.row(o.id), o);
  const closeOrder = () => list.select(null);
  const linkProblem =
    idParam === null
      ? null
      : openId === null
        ? { title: 'Not an order', message: 'This address does not name an order. Open the order from the list.' }
        : one.isError && !open
          ? describeError(one.error)
          : null;

  const apply = () => {
    const q = draft.q.trim();
    if (q !== '' && q.length < ORDER_SEARCH_TEXT_MIN) {
      setTextError(`Type at least ${ORDER_SEARCH_TEXT_MIN} characters.`);
      return;
    }
    setTextError(null);
    list.apply();
  };
  const showQueue = () => {
    setTextError(null);
    list.clear();
  };
  const onSort = list.setSort;

  const selectHeader = (
    <Table.Th key="select" scope="col" w={40}>
      <Checkbox
        aria-label="Select all orders on this page"
        checked={allOnPage}
        indeterminate={!allOnPage && someOnPage}
        disabled={items.length === 0}
        onChange={(e) => togglePage(e.currentTarget.checked)}
      />
    </Table.Th>
  );
  const columns = [
    ...(mayMove ? [selectHeader] : []),
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
    <SortHeader key="total_sale_cents" column="total_sale_cents" sort={sort} onSort={onSort} numeric>
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
      <FilterBar label="Filter orders" onApply={apply} onClear={showQueue} clearLabel="My queue">
        <FilterMultiSelect
          label="Status"
          options={STATUS_OPTIONS}
          placeholder="Any status"
          w={260}
          {...field('status')}
        />
        <FilterSelect label="Flow" data={FLOW_OPTIONS} w={130} {...field('flow')} />
        <FilterText label="Sales rep" w={170} {...field('salesRep')} />
        <FilterDateRange label="Order date" from={field('dateFrom')} to={field('dateTo')} />
        <FilterText label="Search text" description="Legal name, DBA, order id or tax id" w={240} {...field('q')} />
      </FilterBar>
      <Group justify="space-between">
        <Text fw={600}>Your queue: {ORDER_STATUS_LABELS[queueStatus]}</Text>
        <ExportCsvButton
          run={({ signal, onProgress }) => exportOrders(params, datedFileName('orders', 'csv'), signal, onProgress)}
          disabled={total === 0}
        />
      </Group>
      {linkProblem && (
        <Alert color="red" title={linkProblem.title} withCloseButton closeButtonLabel="Dismiss" onClose={closeOrder}>
          {linkProblem.message}
        </Alert>
      )}
      <ListError error={orders.error} />
      {mayMove && selected.size > 0 && (
        <Paper withBorder p="xs" role="region" aria-label="Selected orders">
          <Group gap="sm">
            <Text fw={600}>{`${selected.size} selected`}</Text>
            <Button size="xs" onClick={() => setMoving([...selected.values()])}>
              Move to agent…
            </Button>
            <Button size="xs" variant="subtle" onClick={() => setSelected(() => new Map())}>
              Clear selection
            </Button>
          </Group>
        </Paper>
      )}
      {moving && <MoveOrdersDialog orders={moving} onClose={() => setMoving(null)} onDone={dropMoved} />}
      <DataTable
        caption={listCaption('Orders', { isPending: orders.isPending, total, capped })}
        columns={columns}
        minWidth={1100}
        rowCount={items.length}
        emptyText={emptyListText(orders.isPending, 'No orders match.')}
        highlightOnHover
      >
        {items.map((o) => (
          <Table.Tr key={o.id} aria-selected={o.id === openId || undefined}>
            {mayMove && (
              <Table.Td>
                <Checkbox
                  aria-label={`Select order ${o.unified_order_id}`}
                  checked={selected.has(o.id)}
                  onChange={(e) => toggle(o, e.currentTarget.checked)}
                />
              </Table.Td>
            )}
            <NoWrapCell>
              <Anchor
                component={Link}
                to={list.hrefFor(o.id)}
                onClick={() => remember(o)}
                fz="sm"
                aria-label={`Open order ${o.unified_order_id}`}
              >
                {o.unified_order_id}
              </Anchor>
            </NoWrapCell>
            <NoWrapCell>{o.status_label}</NoWrapCell>
            <Table.Td>{o.flow}</Table.Td>
            <Table.Td>{o.legal_name ?? '—'}</Table.Td>
            <Table.Td>{o.dba_name ?? '—'}</Table.Td>
            <Table.Td>{o.sales_rep ?? '—'}</Table.Td>
            <Table.Td>{o.agent ?? '—'}</Table.Td>
            <FigureCell>{formatCents(o.total_sale_cents, o.currency)}</FigureCell>
            <NoWrapCell>{formatDate(o.order_date)}</NoWrapCell>
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
        onChange={list.setPage}
        hideSinglePage
      />
      {openId !== null && (open || one.isPending) && (
        <DetailPane label="Order details" onClose={closeOrder}>
          {open ? (
            <OrderDetails order={open} onClose={closeOrder} onChanged={remember} />
          ) : (
            <Text c="dimmed">Loading order {openId}…</Text>
          )}
        </DetailPane>
      )}
    </Stack>
  );
}
