import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { CURRENCY_CODES, type OrdersReportFigure } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ListPagination } from '../../../components/list/list-pagination';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { currencyLabel, formatCents, formatCount, formatDate } from '../../../lib/format';
import {
  exportOrdersReport,
  exportReportOrders,
  ORDERS_DRILL_PAGE_SIZE,
  ordersReportQueryOptions,
  reportOrdersQueryOptions,
  type OrdersDrill,
  type OrdersReportFilters,
} from '../api/sales-reports';
import { CsvButton } from './csv-button';
import { ReportChart } from './report-chart';

const NO_FILTERS: OrdersReportFilters = { from: '', to: '', dateBasis: 'created', country: '', currency: '' };

const DIMENSIONS = [
  { dimension: 'status', field: 'by_status', title: 'Orders by status', head: 'Status' },
  { dimension: 'flow', field: 'by_flow', title: 'Orders by flow', head: 'Flow' },
  { dimension: 'channel', field: 'by_channel', title: 'Orders by sales channel', head: 'Sales channel' },
] as const;

function FiguresTable({
  title,
  head,
  figures,
  onOpen,
}: {
  title: string;
  head: string;
  figures: readonly OrdersReportFigure[];
  onOpen: (f: OrdersReportFigure) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table striped captionSide="top">
        <Table.Caption>{title}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{head}</Table.Th>
            <Table.Th scope="col">Currency</Table.Th>
            <Table.Th scope="col" ta="right">
              Orders
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Amount
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {figures.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={4}>
                <Text c="dimmed">No orders.</Text>
              </Table.Td>
            </Table.Tr>
          )}
          {figures.map((f) => (
            <Table.Tr key={`${f.key}-${f.currency}`}>
              <Table.Th scope="row" fw={400}>
                {f.label}
              </Table.Th>
              <Table.Td>{f.currency}</Table.Td>
              <Table.Td ta="right">
                <Anchor
                  component="button"
                  type="button"
                  onClick={() => onOpen(f)}
                  aria-label={`Show the ${formatCount(f.count)} ${f.label} orders in ${f.currency}`}
                >
                  {formatCount(f.count)}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right">{formatCents(f.amount_cents, f.currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The orders behind one figure (the drill-down): a page of orders, each linking to the order. */
function DrillDown({
  filters,
  drill,
  onClose,
}: {
  filters: OrdersReportFilters;
  drill: OrdersDrill;
  onClose: () => void;
}) {
  const [sort, setSort] = useState('');
  const [paging, setPaging] = useState({ drill, sort, page: 1 });
  const page = paging.drill === drill && paging.sort === sort ? paging.page : 1;
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
          <CsvButton
            label="Download these orders as CSV"
            fileName="orders"
            load={() => exportReportOrders(filters, drill, sort)}
          />
          <Button variant="subtle" size="xs" onClick={onClose}>
            Close the order list
          </Button>
        </Group>
      </Group>
      <Table.ScrollContainer minWidth={760}>
        <Table striped captionSide="top" aria-busy={list.isFetching}>
          <Table.Caption>
            {title}
            {list.data ? ` — ${formatCount(list.data.total)}` : ''}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Order</Table.Th>
              <Table.Th scope="col">Date</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Merchant</Table.Th>
              <Table.Th scope="col">Sales rep</Table.Th>
              <Table.Th scope="col" ta="right">
                Total
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data?.items.map((o) => (
              <Table.Tr key={o.order_id}>
                <Table.Td>
                  <Anchor href={`#/order?id=${o.order_id}`}>Order {o.order_id}</Anchor>
                </Table.Td>
                <Table.Td>{formatDate(o.order_date)}</Table.Td>
                <Table.Td>{o.status_label}</Table.Td>
                <Table.Td>{o.legal_name ?? o.dba_name ?? '—'}</Table.Td>
                <Table.Td>{o.sales_rep ?? '—'}</Table.Td>
                <Table.Td ta="right">{formatCents(o.total_sale_cents, o.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.data && (
        <ListPagination
          label="Order list pages"
          total={list.data.total}
          pageSize={ORDERS_DRILL_PAGE_SIZE}
          page={page}
          onChange={(p) => setPaging({ drill, sort, page: p })}
          hideSinglePage
        />
      )}
    </Paper>
  );
}

/**
 * The Orders tab of #/reports (decision 129): how many orders and for how much, per status, flow and sales channel,
 * each per currency (USD and CAD never added); a chart per currency, the tables, the figures as CSV, and a click
 * on a count lists the orders behind it.
 */
export function OrdersReport() {
  const [draft, setDraft] = useState<OrdersReportFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<OrdersReportFilters>(NO_FILTERS);
  const [drill, setDrill] = useState<OrdersDrill | null>(null);
  const report = useQuery({ ...ordersReportQueryOptions(filters), meta: { silentError: true } });
  const fields = report.error && isApiError(report.error) ? report.error.fields : {};

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
    setDrill(null);
  };
  const set = <K extends keyof OrdersReportFilters>(key: K, value: OrdersReportFilters[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const data = report.data;
  const currencies = data ? data.totals.map((t) => t.currency) : [];

  return (
    <Stack gap="md">
      <form onSubmit={apply} aria-label="Orders report filters">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            type="date"
            label="From"
            value={draft.from}
            onChange={(e) => set('from', e.currentTarget.value)}
            error={fields.from}
          />
          <TextInput
            type="date"
            label="To"
            value={draft.to}
            onChange={(e) => set('to', e.currentTarget.value)}
            error={fields.to}
          />
          <NativeSelect
            label="Date"
            value={draft.dateBasis}
            onChange={(e) => set('dateBasis', e.currentTarget.value as OrdersReportFilters['dateBasis'])}
            data={[
              { value: 'created', label: 'Created' },
              { value: 'submitted', label: 'Submitted' },
            ]}
          />
          <NativeSelect
            label="Country"
            value={draft.country}
            onChange={(e) => set('country', e.currentTarget.value)}
            data={[
              { value: '', label: 'Any country' },
              { value: 'US', label: 'United States' },
              { value: 'CA', label: 'Canada' },
            ]}
          />
          <NativeSelect
            label="Currency"
            value={draft.currency}
            onChange={(e) => set('currency', e.currentTarget.value)}
            data={[
              { value: '', label: 'Any currency' },
              ...CURRENCY_CODES.map((c) => ({ value: c, label: currencyLabel(c) })),
            ]}
          />
          <Button type="submit">Show the orders report</Button>
          <CsvButton
            label="Download figures as CSV"
            fileName="orders-report"
            load={() => exportOrdersReport(filters)}
          />
        </Group>
      </form>

      {report.isError && (
        <Alert color="red" title={describeError(report.error).title}>
          {describeError(report.error).message}
        </Alert>
      )}
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
          {drill && <DrillDown filters={filters} drill={drill} onClose={() => setDrill(null)} />}
          <FiguresTable
            title="Orders by status"
            head="Status"
            figures={data.by_status}
            onOpen={(f) => setDrill({ dimension: 'status', key: f.key, label: f.label, currency: f.currency })}
          />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {DIMENSIONS.filter((d) => d.dimension !== 'status').map((d) => (
              <FiguresTable
                key={d.dimension}
                title={d.title}
                head={d.head}
                figures={data[d.field]}
                onOpen={(f) => setDrill({ dimension: d.dimension, key: f.key, label: f.label, currency: f.currency })}
              />
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
