import { Anchor, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { type SalesReportGroup } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  bindFilter,
  DataTable,
  ExportCsvButton,
  FigureCell,
  FigureHeader,
  FilterBar,
  FilterCurrency,
  FilterMonth,
  FilterSelect,
  ListError,
  ListPagination,
  NoWrapCell,
  useListState,
} from '../../../components/list';
import { isApiError } from '../../../lib/api';
import { formatCents, formatCount, formatMonth } from '../../../lib/format';
import {
  exportSalesReport,
  SALES_REPORT_PAGE_SIZE,
  salesReportQueryOptions,
  type SalesReportParams,
} from '../api/sales-reports';
import { ReportChart } from './report-chart';
import { saveCsv } from './report-parts';

interface SalesFilters {
  readonly fromMonth: string;
  readonly toMonth: string;
  readonly group: SalesReportGroup;
  readonly currency: string;
}
const NO_FILTERS: SalesFilters = { fromMonth: '', toMonth: '', group: 'rep', currency: '' };
/** The filters and page in the address (`#/reports?tab=sales&group=agent&from_month=2026-01`). */
const GROUP_OPTIONS = [
  { value: 'rep', label: 'Sales person' },
  { value: 'agent', label: 'Agent' },
];
const LIST_OPTIONS = { defaults: NO_FILTERS, keys: { fromMonth: 'from_month', toMonth: 'to_month' } } as const;

function toQuery(f: SalesFilters, page: number): SalesReportParams {
  return {
    from_month: f.fromMonth || undefined,
    to_month: f.toMonth || undefined,
    group: f.group,
    currency: (f.currency || undefined) as SalesReportParams['currency'],
    limit: SALES_REPORT_PAGE_SIZE,
    offset: (page - 1) * SALES_REPORT_PAGE_SIZE,
  };
}

/**
 * The Sales tab of #/reports (decision 129): what each sales person (or agent) sold per month, from the sales
 * history (the same figures as a customer's Sales history tab), per currency; a chart per currency of all of them
 * by month, the table (a rep's name opens the rep's page) and every line as CSV. Filters and page are in the address.
 */
export function SalesReport() {
  const list = useListState<SalesFilters>(LIST_OPTIONS);
  const { draft, page } = list;
  // An address may say anything: the grouping is one of two.
  const filters: SalesFilters = { ...list.applied, group: list.applied.group === 'agent' ? 'agent' : 'rep' };
  const query = toQuery(filters, page);
  const report = useQuery({ ...salesReportQueryOptions(query), meta: { silentError: true } });
  const fields = report.error && isApiError(report.error) ? report.error.fields : {};
  const field = bindFilter(list, {
    fromMonth: fields.from_month,
    toMonth: fields.to_month,
  } as Partial<Record<keyof SalesFilters, string>>);
  const data = report.data;
  const who = filters.group === 'rep' ? 'Sales person' : 'Agent';

  return (
    <Stack gap="md">
      <FilterBar label="Sales report filters" onApply={() => list.apply()} onClear={list.clear}>
        <FilterMonth label="From month" placeholder="YYYY-MM" {...field('fromMonth')} />
        <FilterMonth label="To month" placeholder="YYYY-MM" {...field('toMonth')} />
        <FilterSelect
          label="Group by"
          data={GROUP_OPTIONS}
          w={160}
          value={draft.group}
          onChange={(v) => list.set('group')(v === 'agent' ? 'agent' : 'rep')}
        />
        <FilterCurrency {...field('currency')} />
      </FilterBar>
      <ExportCsvButton run={() => saveCsv('sales-report', () => exportSalesReport(query))} disabled={!data} />
      <ListError error={report.error} />
      {!data && !report.isError && <Text c="dimmed">Loading the sales report…</Text>}
      {data && (
        <>
          <Text>
            Sales from {formatMonth(data.from_month)} to {formatMonth(data.to_month)}:{' '}
            {data.totals.length === 0
              ? 'none.'
              : data.totals.map((t) => formatCents(t.amount_cents, t.currency)).join('; ')}
          </Text>
          {data.totals.length > 0 && (
            <SimpleGrid cols={{ base: 1, md: data.totals.length > 1 ? 2 : 1 }}>
              {data.totals.map((t) => (
                <ReportChart
                  key={t.currency}
                  title="Sales by month"
                  currency={t.currency}
                  data={data.month_totals
                    .filter((m) => m.currency === t.currency)
                    .map((m) => ({ label: formatMonth(m.period_month), cents: m.amount_cents }))}
                />
              ))}
            </SimpleGrid>
          )}
          <DataTable
            caption={`Sales by ${filters.group === 'rep' ? 'sales person' : 'agent'} and month — ${formatCount(data.total)} ${data.total === 1 ? 'line' : 'lines'}`}
            minWidth={480 + data.months.length * 90}
            rowCount={data.rows.length}
            emptyText="No sales in this range."
            aria-busy={report.isFetching}
            columns={[
              who,
              'Channel',
              'Currency',
              ...data.months.map((m) => <FigureHeader key={m}>{formatMonth(m)}</FigureHeader>),
              <FigureHeader key="total">Total</FigureHeader>,
            ]}
          >
            {data.rows.map((r) => (
              <Table.Tr key={`${r.id}-${r.currency}`}>
                <Table.Th scope="row" fw={400}>
                  {data.group === 'rep' && r.id !== null ? (
                    <Anchor component={Link} to={`/sales-person/${r.id}`} fz="sm">
                      {r.name}
                    </Anchor>
                  ) : (
                    r.name
                  )}
                </Table.Th>
                <Table.Td>{r.sales_channel ?? '—'}</Table.Td>
                <NoWrapCell>{r.currency}</NoWrapCell>
                {r.months.map((m) => (
                  <FigureCell key={m.period_month}>
                    {m.amount_cents === 0 ? '—' : formatCents(m.amount_cents, r.currency)}
                  </FigureCell>
                ))}
                <FigureCell fw={700}>{formatCents(r.amount_cents, r.currency)}</FigureCell>
              </Table.Tr>
            ))}
          </DataTable>
          <ListPagination
            label="Sales report pages"
            total={data.total}
            pageSize={SALES_REPORT_PAGE_SIZE}
            page={page}
            onChange={list.setPage}
            hideSinglePage
          />
        </>
      )}
    </Stack>
  );
}
