import { Anchor, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { CURRENCY_CODES, type OrdersReportFigure } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  bindFilter,
  DataTable,
  DetailPane,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FigureHeader,
  FilterBar,
  FilterDate,
  FilterSelect,
  ListError,
  ListPagination,
  NoWrapCell,
  useListState,
  useNestedListState,
} from '../../../components/list';
import { isApiError } from '../../../lib/api';
import { formatCents, formatCount, formatDate } from '../../../lib/format';
import {
  exportOrdersReport,
  exportReportOrders,
  ORDERS_DRILL_PAGE_SIZE,
  ordersReportQueryOptions,
  reportOrdersQueryOptions,
  type OrdersDrill,
  type OrdersReportFilters,
} from '../api/sales-reports';
import { ReportChart } from './report-chart';
import { PlaceSelects, saveCsv } from './report-parts';

const NO_FILTERS: OrdersReportFilters = { from: '', to: '', dateBasis: 'created', country: '', currency: '' };
/** The filters in the address (`date_basis=submitted`); the open figure is `drill=status.10.USD`. */
const LIST_OPTIONS = {
  defaults: NO_FILTERS,
  keys: { dateBasis: 'date_basis' },
  selectedKey: 'drill',
  nestedKeys: ['drill_page', 'drill_sort'],
} as const;
const DRILL_LIST = { pageKey: 'drill_page', sortKey: 'drill_sort' } as const;
const DATE_BASIS_OPTIONS = [
  { value: 'created', label: 'Created' },
  { value: 'submitted', label: 'Submitted' },
];

const DIMENSIONS = [
  { dimension: 'status', field: 'by_status', title: 'Orders by status', head: 'Status' },
  { dimension: 'flow', field: 'by_flow', title: 'Orders by flow', head: 'Flow' },
  { dimension: 'channel', field: 'by_channel', title: 'Orders by sales channel', head: 'Sales channel' },
] as const;
type Dimension = (typeof DIMENSIONS)[number]['dimension'];

/** `status.10.USD` ⇄ the figure (its label read from the report). */
function drillKey(d: Pick<OrdersDrill, 'dimension' | 'key' | 'currency'>): string {
  return `${d.dimension}.${d.key}.${d.currency}`;
}
function drillOf(value: string | null): Omit<OrdersDrill, 'label'> | null {
  const parts = value?.split('.') ?? [];
  const dimension = DIMENSIONS.find((d) => d.dimension === parts[0])?.dimension;
  const currency = CURRENCY_CODES.find((c) => c === parts.at(-1));
  if (!dimension || !currency || parts.length < 3) return null;
  return { dimension, key: parts.slice(1, -1).join('.'), currency };
}

function FiguresTable({
  title,
  head,
  dimension,
  figures,
  hrefFor,
}: {
  title: string;
  head: string;
  dimension: Dimension;
  figures: readonly OrdersReportFigure[];
  hrefFor: (drill: string) => string;
}) {
  return (
    <DataTable
      caption={title}
      minWidth={360}
      rowCount={figures.length}
      emptyText="No orders."
      columns={[
        head,
        'Currency',
        <FigureHeader key="orders">Orders</FigureHeader>,
        <FigureHeader key="amount">Amount</FigureHeader>,
      ]}
    >
      {figures.map((f) => (
        <Table.Tr key={`${f.key}-${f.currency}`}>
          <Table.Th scope="row" fw={400}>
            {f.label}
          </Table.Th>
          <NoWrapCell>{f.currency}</NoWrapCell>
          <FigureCell>
            <Anchor
              component={Link}
              to={hrefFor(drillKey({ dimension, key: f.key, currency: f.currency }))}
              fz="sm"
              aria-label={`Show the ${formatCount(f.count)} ${f.label} orders in ${f.currency}`}
            >
              {formatCount(f.count)}
            </Anchor>
          </FigureCell>
          <FigureCell>{formatCents(f.amount_cents, f.currency)}</FigureCell>
        </Table.Tr>
      ))}
    </DataTable>
  );
}

/** The orders behind one figure (the drill-down, beside the report): a page of orders, each linking to the order. */
function DrillDown({
  filters,
  drill,
  onClose,
}: {
  filters: OrdersReportFilters;
  drill: OrdersDrill;
  onClose: () => void;
}) {
  const { sort: sorted, setSort, page, setPage } = useNestedListState(DRILL_LIST);
  const sort = sorted ?? '';
  const list = useQuery(reportOrdersQueryOptions(filters, drill, page, sort));
  const title = `${drill.label} orders in ${drill.currency}`;
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        <Group gap="xs" align="flex-end">
          <NativeSelect
            size="xs"
            label="Sort orders by"
            value={sort}
            onChange={(e) => setSort(e.currentTarget.value)}
            data={[
              { value: '', label: 'Newest first' },
              { value: 'date', label: 'Oldest first' },
              { value: '-total_sale_cents', label: 'Largest total first' },
              { value: 'total_sale_cents', label: 'Smallest total first' },
            ]}
          />
          <Button variant="subtle" size="xs" onClick={onClose}>
            Close the order list
          </Button>
        </Group>
      </Group>
      <ExportCsvButton
        label="Download these orders as CSV"
        run={() => saveCsv('orders', () => exportReportOrders(filters, drill, sort))}
        disabled={(list.data?.total ?? 0) === 0}
      />
      <ListError error={list.error} />
      <DataTable
        caption={`${title}${list.data ? ` — ${formatCount(list.data.total)}` : ''}`}
        minWidth={700}
        rowCount={list.data?.items.length ?? 0}
        emptyText={emptyListText(list.isPending, 'No orders.')}
        aria-busy={list.isFetching}
        columns={['Order', 'Date', 'Status', 'Merchant', 'Sales rep', <FigureHeader key="total">Total</FigureHeader>]}
      >
        {list.data?.items.map((o) => (
          <Table.Tr key={o.order_id}>
            <NoWrapCell>
              <Anchor component={Link} to={`/order?id=${o.order_id}`} fz="sm">
                Order {o.order_id}
              </Anchor>
            </NoWrapCell>
            <NoWrapCell>{formatDate(o.order_date)}</NoWrapCell>
            <Table.Td>{o.status_label}</Table.Td>
            <Table.Td>{o.legal_name ?? o.dba_name ?? '—'}</Table.Td>
            <Table.Td>{o.sales_rep ?? '—'}</Table.Td>
            <FigureCell>{formatCents(o.total_sale_cents, o.currency)}</FigureCell>
          </Table.Tr>
        ))}
      </DataTable>
      {list.data && (
        <ListPagination
          label="Order list pages"
          total={list.data.total}
          pageSize={ORDERS_DRILL_PAGE_SIZE}
          page={page}
          onChange={setPage}
          hideSinglePage
        />
      )}
    </Paper>
  );
}

/**
 * The Orders tab of #/reports (decision 129): how many orders and for how much, per status, flow and sales channel,
 * each per currency (USD and CAD never added); a chart per currency, the tables, the figures as CSV, and a click
 * on a count lists the orders behind it beside the report. The filters and the open figure are in the address
 * (`#/reports?tab=orders&date_basis=submitted&drill=status.10.USD`).
 */
export function OrdersReport() {
  const list = useListState<OrdersReportFilters>(LIST_OPTIONS);
  const { draft } = list;
  // An address may say anything: the date basis is one of two.
  const filters: OrdersReportFilters = {
    ...list.applied,
    dateBasis: list.applied.dateBasis === 'submitted' ? 'submitted' : 'created',
  };
  const report = useQuery({ ...ordersReportQueryOptions(filters), meta: { silentError: true } });
  const fields = report.error && isApiError(report.error) ? report.error.fields : {};
  const field = bindFilter(list, fields as Partial<Record<keyof OrdersReportFilters, string>>);
  const data = report.data;
  const currencies = data ? data.totals.map((t) => t.currency) : [];

  const asked = drillOf(list.selected);
  const figure =
    asked && data
      ? data[DIMENSIONS.find((d) => d.dimension === asked.dimension)!.field].find(
          (f) => f.key === asked.key && f.currency === asked.currency,
        )
      : undefined;
  const drill: OrdersDrill | null = asked ? { ...asked, label: figure?.label ?? asked.key } : null;
  const closeDrill = () => list.select(null);

  return (
    <Stack gap="md">
      <FilterBar label="Orders report filters" onApply={() => list.apply()} onClear={list.clear}>
        <FilterDate label="From" {...field('from')} />
        <FilterDate label="To" {...field('to')} />
        <FilterSelect
          label="Date"
          data={DATE_BASIS_OPTIONS}
          w={150}
          value={draft.dateBasis}
          onChange={(v) => list.set('dateBasis')(v === 'submitted' ? 'submitted' : 'created')}
        />
        <PlaceSelects value={draft} onChange={(next) => list.setDraft((d) => ({ ...d, ...next }))} />
      </FilterBar>
      <ExportCsvButton run={() => saveCsv('orders-report', () => exportOrdersReport(filters))} disabled={!data} />
      <ListError error={report.error} />
      {!data && !report.isError && <Text c="dimmed">Loading the orders report…</Text>}
      {data && (
        <>
          <Text>
            Orders {data.date_basis === 'created' ? 'created' : 'submitted'} from {formatDate(data.from)} to{' '}
            {formatDate(data.to)}:{' '}
            {data.totals.length === 0
              ? 'none.'
              : data.totals
                  .map((t) => `${formatCount(t.count)} for ${formatCents(t.amount_cents, t.currency)}`)
                  .join('; ')}
          </Text>
          {currencies.length > 0 && (
            <SimpleGrid cols={{ base: 1, md: currencies.length > 1 ? 2 : 1 }}>
              {currencies.map((c) => (
                <ReportChart
                  key={c}
                  title="Order amounts by status"
                  currency={c}
                  data={data.by_status
                    .filter((f) => f.currency === c)
                    .map((f) => ({ label: f.label, cents: f.amount_cents }))}
                />
              ))}
            </SimpleGrid>
          )}
          <FiguresTable
            title="Orders by status"
            head="Status"
            dimension="status"
            figures={data.by_status}
            hrefFor={list.hrefFor}
          />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {DIMENSIONS.filter((d) => d.dimension !== 'status').map((d) => (
              <FiguresTable
                key={d.dimension}
                title={d.title}
                head={d.head}
                dimension={d.dimension}
                figures={data[d.field]}
                hrefFor={list.hrefFor}
              />
            ))}
          </SimpleGrid>
        </>
      )}
      {drill && data && (
        <DetailPane label={`${drill.label} orders in ${drill.currency}`} onClose={closeDrill}>
          <DrillDown key={list.selected} filters={filters} drill={drill} onClose={closeDrill} />
        </DetailPane>
      )}
    </Stack>
  );
}
