import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
  PROMOTION_STATE_LABELS,
  type PromotionRecord,
  type PromotionState,
} from '@pos/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable } from '../../../components/list/data-table';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import { isVersionConflict } from '../../../lib/api';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate, formatDateTime, orderStatusText } from '../../../lib/format';
import {
  expirePromotion,
  exportPromotions,
  getPromotionListQueryOptions,
  getPromotionOrdersQueryOptions,
  NO_PROMOTION_FILTERS,
  PROMOTION_PAGE_SIZE,
  promotionKeys,
  type PromotionFilters,
  type PromotionListParams,
} from '../api/promotions';
import { PromotionDialog } from '../components/promotion-dialog';

const EDIT_PRIVILEGES = ['promotions_edit'] as const;

const STATE_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'current', label: 'Current' },
  { value: 'scheduled', label: 'Not started' },
  { value: 'expired', label: 'Expired' },
];
const CURRENCY_OPTIONS = [
  { value: '', label: 'Any currency' },
  { value: 'USD', label: 'USD' },
  { value: 'CAD', label: 'CAD' },
];
const CUSTOMER_TYPE_OPTIONS = [
  { value: '', label: 'Any customer type' },
  ...CUSTOMER_TYPES.map((c) => ({ value: c, label: `${c} — ${CUSTOMER_TYPE_LABELS[c]}` })),
];
const STATE_COLORS: Readonly<Record<PromotionState, string>> = {
  current: 'green',
  scheduled: 'blue',
  used_up: 'orange',
  expired: 'gray',
  inactive: 'gray',
};

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

/** '10 %' or '$50.00' / 'C$50.00'. */
export function promotionValue(p: Pick<PromotionRecord, 'method' | 'percent' | 'amount_cents' | 'currency'>): string {
  return p.method === 'P' ? `${p.percent ?? 0} %` : formatCents(p.amount_cents ?? 0, p.currency);
}

/** The orders that used one promotion (GET …/orders). */
function PromotionOrders({ promotion, onClose }: { promotion: PromotionRecord; onClose: () => void }) {
  const orders = useQuery({ ...getPromotionOrdersQueryOptions(promotion.promo_id), meta: { silentError: true } });
  const items = orders.data?.items ?? [];
  return (
    <Paper withBorder p="md" aria-label={`Orders using ${promotion.code}`} component="section">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Orders using {promotion.code} ({promotion.currency})
        </Title>
        <CloseButton aria-label="Close the orders" onClick={onClose} />
      </Group>
      {orders.isError && (
        <Alert color="red" title={describeError(orders.error).title}>
          {describeError(orders.error).message} Close the panel and open it again.
        </Alert>
      )}
      <DataTable
        caption={`${items.length} ${items.length === 1 ? 'order' : 'orders'} used ${promotion.code}`}
        columns={['Order', 'Status', 'Merchant', 'Store (DBA)', 'Discount', 'Applied']}
        minWidth={800}
        rowCount={items.length}
        emptyText={orders.isPending ? 'Loading…' : 'No order has used this promotion yet.'}
      >
        {items.map((o) => (
          <Table.Tr key={o.order_id}>
            <Table.Td>
              <a href={`#/order?id=${o.order_id}`}>{o.unified_order_id ?? `Order ${o.order_id}`}</a>
            </Table.Td>
            <Table.Td>
              {orderStatusText(o.status)}
              {!o.counts && (
                <Text component="span" size="xs" c="dimmed" display="block">
                  Does not count against the limit
                </Text>
              )}
            </Table.Td>
            <Table.Td>{o.legal_name ?? '—'}</Table.Td>
            <Table.Td>{o.doing_business_as ?? '—'}</Table.Td>
            <Table.Td>{formatCents(o.amount_cents, o.currency)}</Table.Td>
            <Table.Td>{formatDateTime(o.applied_at)}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </Paper>
  );
}

/**
 * #/promotions (promotions_view or promotions_edit; decision 125): every promotion with its value, customer type,
 * billing items, validity and usage, filtered, sorted and paged on the server, CSV of all rows. Users with
 * promotions_edit create, edit and expire; a row's Orders shows the orders that used it.
 */
export default function PromotionsPage() {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<PromotionFilters>(NO_PROMOTION_FILTERS);
  const [applied, setApplied] = useState<PromotionFilters>(NO_PROMOTION_FILTERS);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ promotion: PromotionRecord | null; key: number } | null>(null);
  const [expiring, setExpiring] = useState<PromotionRecord | null>(null);
  const [showing, setShowing] = useState<PromotionRecord | null>(null);

  const mayEdit = useQuery({
    ...getPermissionsQueryOptions(EDIT_PRIVILEGES),
    select: (flags) => flags.promotions_edit === true,
  }).data;
  const params: PromotionListParams = { ...applied, page, sort };
  const list = useQuery(getPromotionListQueryOptions(params));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const capped = list.data?.total_capped ?? false;

  const exportCsv = useMutation({
    mutationFn: () => exportPromotions(params),
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName('promotions', 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message: `${message} Try the export again.`, autoClose: 8000 });
    },
  });

  const expire = useMutation({
    mutationFn: (p: PromotionRecord) => expirePromotion(p.promo_id, p.version),
    meta: { silentError: true },
    onSuccess: (p) =>
      notifications.show({
        color: 'green',
        title: 'Promotion expired',
        message: `${p.code} (${p.currency}) ended on ${formatDate(p.expires_on)}; new orders can no longer use it.`,
      }),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({
        color: 'red',
        title,
        message: isVersionConflict(error)
          ? `${message} The list now shows it as it is; expire it again if you still want to.`
          : `${message} Refresh the list and try again.`,
        autoClose: 10_000,
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: promotionKeys.all }),
  });

  const set =
    <K extends keyof PromotionFilters>(key: K) =>
    (value: PromotionFilters[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  function apply(e: FormEvent) {
    e.preventDefault();
    setApplied(draft);
    setPage(1);
  }
  function clear() {
    setDraft(NO_PROMOTION_FILTERS);
    setApplied(NO_PROMOTION_FILTERS);
    setPage(1);
  }
  const onSort = (s: string) => {
    setSort(s);
    setPage(1);
  };

  const columns = [
    <SortHeader key="code" column="code" sort={sort ?? 'code'} onSort={onSort}>
      Code
    </SortHeader>,
    <SortHeader key="name" column="name" sort={sort} onSort={onSort}>
      Name
    </SortHeader>,
    'Value',
    'Customer type',
    'Billing items',
    <SortHeader key="starts_on" column="starts_on" sort={sort} onSort={onSort}>
      Starts
    </SortHeader>,
    <SortHeader key="expires_on" column="expires_on" sort={sort} onSort={onSort}>
      Expires
    </SortHeader>,
    <SortHeader key="usage_count" column="usage_count" sort={sort} onSort={onSort}>
      Used
    </SortHeader>,
    'State',
    'Actions',
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Promotions
        </Title>
        {mayEdit && <Button onClick={() => setEditing({ promotion: null, key: Date.now() })}>New promotion</Button>}
      </Group>
      <form onSubmit={apply} aria-label="Filter promotions">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput label="Code or name" value={draft.q} onChange={(e) => set('q')(e.currentTarget.value)} w={220} />
          <NativeSelect
            label="State"
            data={STATE_OPTIONS}
            value={draft.state}
            onChange={(e) => set('state')(e.currentTarget.value)}
            w={150}
          />
          <NativeSelect
            label="Currency"
            data={CURRENCY_OPTIONS}
            value={draft.currency}
            onChange={(e) => set('currency')(e.currentTarget.value)}
            w={150}
          />
          <NativeSelect
            label="Customer type"
            data={CUSTOMER_TYPE_OPTIONS}
            value={draft.customerType}
            onChange={(e) => set('customerType')(e.currentTarget.value)}
            w={200}
          />
          <Button type="submit">Apply</Button>
          <Button variant="subtle" onClick={clear}>
            Clear filters
          </Button>
          <Button
            variant="default"
            onClick={() => exportCsv.mutate()}
            loading={exportCsv.isPending}
            disabled={total === 0}
            ml="auto"
          >
            Export CSV
          </Button>
        </Group>
      </form>
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
      <DataTable
        caption={
          list.isPending
            ? 'Promotions (loading…)'
            : `Promotions — ${formatTotal(total, capped)} ${total === 1 && !capped ? 'match' : 'matches'}`
        }
        columns={columns}
        minWidth={1200}
        rowCount={items.length}
        emptyText={list.isPending ? 'Loading…' : 'No promotion matches. Change or clear the filters.'}
        highlightOnHover
      >
        {items.map((p) => (
          <Table.Tr key={p.promo_id}>
            <Table.Td>
              {p.code}
              <Text component="span" size="xs" c="dimmed" display="block">
                {p.currency} · type {p.type}
              </Text>
            </Table.Td>
            <Table.Td>{p.name}</Table.Td>
            <Table.Td>{promotionValue(p)}</Table.Td>
            <Table.Td>
              {CUSTOMER_TYPE_LABELS[p.customer_type as keyof typeof CUSTOMER_TYPE_LABELS] ?? p.customer_type}
            </Table.Td>
            <Table.Td>{p.billing_items.length === 0 ? '—' : p.billing_items.map((b) => b.name).join(', ')}</Table.Td>
            <Table.Td>{p.starts_on ? formatDate(p.starts_on) : '—'}</Table.Td>
            <Table.Td>{p.expires_on ? formatDate(p.expires_on) : 'Never'}</Table.Td>
            <Table.Td>
              {p.usage_count}
              {p.usage_limit !== null ? ` of ${p.usage_limit}` : ''}
            </Table.Td>
            <Table.Td>
              <Badge color={STATE_COLORS[p.state]} variant="light">
                {PROMOTION_STATE_LABELS[p.state]}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <Button
                  size="compact-xs"
                  variant="subtle"
                  aria-label={`Orders using ${p.code} (${p.currency})`}
                  onClick={() => setShowing(p)}
                >
                  Orders
                </Button>
                {mayEdit && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    aria-label={`Edit ${p.code} (${p.currency})`}
                    onClick={() => setEditing({ promotion: p, key: Date.now() })}
                  >
                    Edit
                  </Button>
                )}
                {mayEdit && p.state !== 'expired' && p.state !== 'inactive' && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    aria-label={`Expire ${p.code} (${p.currency})`}
                    disabled={expire.isPending}
                    onClick={() => setExpiring(p)}
                  >
                    Expire
                  </Button>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Promotion pages"
        total={total}
        totalCapped={capped}
        pageRows={items.length}
        pageSize={PROMOTION_PAGE_SIZE}
        page={page}
        onChange={setPage}
        hideSinglePage
      />
      {showing && <PromotionOrders promotion={showing} onClose={() => setShowing(null)} />}
      {editing && (
        <PromotionDialog key={editing.key} opened promotion={editing.promotion} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        opened={expiring !== null}
        title={expiring ? `Expire ${expiring.code} (${expiring.currency})` : ''}
        message={
          expiring
            ? `${expiring.code} stops today: new orders can no longer use it. Orders already submitted keep their discount.`
            : ''
        }
        confirmLabel="Expire"
        busy={expire.isPending}
        color="red"
        onClose={() => setExpiring(null)}
        onConfirm={() => {
          if (expiring) expire.mutate(expiring);
          setExpiring(null);
        }}
      />
    </Stack>
  );
}
