import { Alert, Badge, Button, CloseButton, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
  PROMOTION_STATE_LABELS,
  type PromotionRecord,
  type PromotionState,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import {
  bindFilter,
  DataTable,
  DetailPane,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FigureHeader,
  FilterBar,
  FilterCurrency,
  FilterSelect,
  FilterText,
  ListError,
  listCaption,
  ListPagination,
  NoWrapCell,
  SortHeader,
  useListState,
} from '../../../components/list';
import { isVersionConflict } from '../../../lib/api';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate, formatDateTime, orderStatusText } from '../../../lib/format';
import {
  exportPromotions,
  getPromotionListQueryOptions,
  getPromotionOrdersQueryOptions,
  NO_PROMOTION_FILTERS,
  PROMOTION_PAGE_SIZE,
  useExpirePromotion,
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

/** By code unless the address sorts otherwise; the promotion whose orders are shown is `?id=`. */
const LIST_OPTIONS = {
  defaults: NO_PROMOTION_FILTERS,
  keys: { customerType: 'customer_type' },
  defaultSort: 'code',
} as const;

/** The promotion id of `?id=…`: a positive whole number, else null. */
function promotionIdOf(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

/** '10 %' or '$50.00' / 'C$50.00'. */
export function promotionValue(p: Pick<PromotionRecord, 'method' | 'percent' | 'amount_cents' | 'currency'>): string {
  return p.method === 'P' ? `${p.percent ?? 0} %` : formatCents(p.amount_cents ?? 0, p.currency);
}

/** The orders that used one promotion (GET …/orders). */
function PromotionOrders(props: { promoId: number; promotion: PromotionRecord | undefined; onClose: () => void }) {
  const { promoId, promotion, onClose } = props;
  const orders = useQuery({ ...getPromotionOrdersQueryOptions(promoId), meta: { silentError: true } });
  const items = orders.data?.items ?? [];
  // The promotion is on the list's page; a link to one that is not names it by its id.
  const code = promotion?.code ?? `promotion ${promoId}`;
  return (
    <Paper withBorder p="md" aria-label={`Orders using ${code}`} component="section">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Orders using {code}
          {promotion ? ` (${promotion.currency})` : ''}
        </Title>
        <CloseButton aria-label="Close the orders" onClick={onClose} />
      </Group>
      {orders.isError && (
        <Alert color="red" title={describeError(orders.error).title}>
          {describeError(orders.error).message} Close the panel and open it again.
        </Alert>
      )}
      <DataTable
        caption={`${items.length} ${items.length === 1 ? 'order' : 'orders'} used ${code}`}
        columns={[
          'Order',
          'Status',
          'Merchant',
          'Store (DBA)',
          <FigureHeader key="discount">Discount</FigureHeader>,
          'Applied',
        ]}
        minWidth={800}
        rowCount={items.length}
        emptyText={emptyListText(orders.isPending, 'No order has used this promotion yet.')}
      >
        {items.map((o) => (
          <Table.Tr key={o.order_id}>
            <NoWrapCell>
              <a href={`#/order?id=${o.order_id}`}>{o.unified_order_id ?? `Order ${o.order_id}`}</a>
            </NoWrapCell>
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
            <FigureCell>{formatCents(o.amount_cents, o.currency)}</FigureCell>
            <NoWrapCell>{formatDateTime(o.applied_at)}</NoWrapCell>
          </Table.Tr>
        ))}
      </DataTable>
    </Paper>
  );
}

/**
 * #/promotions (promotions_view or promotions_edit; decision 125): every promotion with its value, customer type,
 * billing items, validity and usage, filtered, sorted and paged on the server, CSV of all rows. Users with
 * promotions_edit create, edit and expire; a row's Orders shows the orders that used it beside the list. Filters,
 * sort, page and the promotion whose orders are open are in the address (issue 30: `#/promotions?state=current&id=7`).
 */
export default function PromotionsPage() {
  const list = useListState<PromotionFilters>(LIST_OPTIONS);
  const { applied, page, sort } = list;
  const field = bindFilter(list);
  const openId = promotionIdOf(list.selected);
  const [editing, setEditing] = useState<{ promotion: PromotionRecord | null; key: number } | null>(null);
  const [expiring, setExpiring] = useState<PromotionRecord | null>(null);

  const mayEdit = useQuery({
    ...getPermissionsQueryOptions(EDIT_PRIVILEGES),
    select: (flags) => flags.promotions_edit === true,
  }).data;
  const params: PromotionListParams = { ...applied, page, sort: sort === LIST_OPTIONS.defaultSort ? null : sort };
  const promotions = useQuery(getPromotionListQueryOptions(params));
  const items = promotions.data?.items ?? [];
  const total = promotions.data?.total ?? 0;
  const capped = promotions.data?.total_capped ?? false;

  const expire = useExpirePromotion();
  const expirePromotion = (promotion: PromotionRecord) =>
    expire.mutate(promotion, {
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
    });

  const onSort = list.setSort;
  const closeOrders = () => list.select(null);

  const columns = [
    <SortHeader key="code" column="code" sort={sort} onSort={onSort}>
      Code
    </SortHeader>,
    <SortHeader key="name" column="name" sort={sort} onSort={onSort}>
      Name
    </SortHeader>,
    <FigureHeader key="value">Value</FigureHeader>,
    'Customer type',
    'Billing items',
    <SortHeader key="starts_on" column="starts_on" sort={sort} onSort={onSort}>
      Starts
    </SortHeader>,
    <SortHeader key="expires_on" column="expires_on" sort={sort} onSort={onSort}>
      Expires
    </SortHeader>,
    <SortHeader key="usage_count" column="usage_count" sort={sort} onSort={onSort} numeric>
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
      <FilterBar label="Filter promotions" onApply={() => list.apply()} onClear={list.clear}>
        <FilterText label="Code or name" {...field('q')} />
        <FilterSelect label="State" data={STATE_OPTIONS} w={150} {...field('state')} />
        <FilterCurrency {...field('currency')} />
        <FilterSelect label="Customer type" data={CUSTOMER_TYPE_OPTIONS} {...field('customerType')} />
      </FilterBar>
      <ExportCsvButton
        run={async () => downloadFile(datedFileName('promotions', 'csv'), await exportPromotions(params))}
        disabled={total === 0}
      />
      {list.selected !== null && openId === null && (
        <Alert color="red" title="Not a promotion" withCloseButton closeButtonLabel="Dismiss" onClose={closeOrders}>
          This address does not name a promotion. Open its orders from the list.
        </Alert>
      )}
      <ListError error={promotions.error} />
      <DataTable
        caption={listCaption('Promotions', { isPending: promotions.isPending, total, capped })}
        columns={columns}
        minWidth={1200}
        rowCount={items.length}
        emptyText={emptyListText(promotions.isPending, 'No promotion matches. Change or clear the filters.')}
        highlightOnHover
      >
        {items.map((p) => (
          <Table.Tr key={p.promo_id} aria-selected={p.promo_id === openId || undefined}>
            <NoWrapCell>
              {p.code}
              <Text component="span" size="xs" c="dimmed" display="block">
                {p.currency} · type {p.type}
              </Text>
            </NoWrapCell>
            <Table.Td>{p.name}</Table.Td>
            <FigureCell>{promotionValue(p)}</FigureCell>
            <Table.Td>
              {CUSTOMER_TYPE_LABELS[p.customer_type as keyof typeof CUSTOMER_TYPE_LABELS] ?? p.customer_type}
            </Table.Td>
            <Table.Td>{p.billing_items.length === 0 ? '—' : p.billing_items.map((b) => b.name).join(', ')}</Table.Td>
            <NoWrapCell>{p.starts_on ? formatDate(p.starts_on) : '—'}</NoWrapCell>
            <NoWrapCell>{p.expires_on ? formatDate(p.expires_on) : 'Never'}</NoWrapCell>
            <FigureCell>
              {p.usage_count}
              {p.usage_limit !== null ? ` of ${p.usage_limit}` : ''}
            </FigureCell>
            <NoWrapCell>
              <Badge color={STATE_COLORS[p.state]} variant="light">
                {PROMOTION_STATE_LABELS[p.state]}
              </Badge>
            </NoWrapCell>
            <NoWrapCell>
              <Group gap={4} wrap="nowrap">
                <Button
                  component={Link}
                  to={list.hrefFor(p.promo_id)}
                  size="compact-xs"
                  variant="subtle"
                  aria-label={`Orders using ${p.code} (${p.currency})`}
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
            </NoWrapCell>
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
        onChange={list.setPage}
        hideSinglePage
      />
      {openId !== null && (
        <DetailPane label="Promotion orders" onClose={closeOrders}>
          <PromotionOrders
            key={openId}
            promoId={openId}
            promotion={items.find((p) => p.promo_id === openId)}
            onClose={closeOrders}
          />
        </DetailPane>
      )}
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
          if (expiring) expirePromotion(expiring);
          setExpiring(null);
        }}
      />
    </Stack>
  );
}
