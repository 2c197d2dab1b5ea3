import { Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { INVOICE_TYPE_LABELS, INVOICE_TYPES, type CurrencyCode } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import {
  bindFilter,
  DataTable,
  ExportCsvButton,
  FigureCell,
  FigureHeader,
  FilterBar,
  FilterSelect,
  ListError,
  NoWrapCell,
  useListState,
} from '../../../components/list';
import { formatCents, formatDate, formatMonth } from '../../../lib/format';
import { exportReport, getRevenueQueryOptions } from '../api/reports';
import { RangeFilters, rangeIsValid } from './range-filters';
import { ReportBarChart, saveCsv } from './report-parts';

const TYPE_OPTIONS = [
  { value: '', label: 'Every type' },
  ...INVOICE_TYPES.map((t) => ({ value: t, label: INVOICE_TYPE_LABELS[t] })),
];
const TYPE_COLORS = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'gray.6'];

const FIGURE_COLUMNS = ['Invoices', 'Invoiced', 'Reversed', 'Collected'].map((name) => (
  <FigureHeader key={name}>{name}</FigureHeader>
));

interface RevenueFilters {
  readonly from: string;
  readonly to: string;
  readonly country: string;
  readonly currency: string;
  readonly type: string;
}
const LIST_OPTIONS = { defaults: { from: '', to: '', country: '', currency: '', type: '' } as RevenueFilters };

/**
 * The Revenue tab: invoiced, reversed and collected by month and invoice type, per currency (a stacked chart of the
 * invoiced amount by type for each currency, the table of every month × type × currency row and the totals). The
 * filters are in the address (`#/reports?tab=revenue&from=2026-01-01`): Apply shows them, a copied link shares them.
 */
export function RevenueReport() {
  const list = useListState<RevenueFilters>(LIST_OPTIONS);
  const { applied, draft } = list;
  const report = useQuery({ ...getRevenueQueryOptions(applied), enabled: rangeIsValid(applied) });
  const info = report.data;
  const apply = () => {
    if (rangeIsValid(draft)) list.apply();
  };

  const currencies = [...new Set(info?.rows.map((r) => r.currency) ?? [])] as CurrencyCode[];
  const types = [...new Set(info?.rows.map((r) => r.type) ?? [])];

  return (
    <Stack gap="md">
      <FilterBar label="Revenue report filters" onApply={apply} onClear={list.clear}>
        <RangeFilters value={draft} onChange={(next) => list.setDraft(() => next)} />
        <FilterSelect label="Invoice type" data={TYPE_OPTIONS} {...bindFilter(list)('type')} />
      </FilterBar>
      <ExportCsvButton
        run={() => saveCsv('revenue', () => exportReport({ kind: 'revenue', params: applied }))}
        disabled={!info}
      />
      <ListError error={report.error} />
      {info && (
        <>
          <Text c="dimmed" fz="sm">
            Invoices issued {formatDate(info.from)} – {formatDate(info.to)}, by month and type. USD and CAD are shown
            apart, never added together.
          </Text>
          {currencies.length > 0 && (
            <SimpleGrid cols={{ base: 1, md: currencies.length }}>
              {currencies.map((currency) => {
                const months = [...new Set(info.rows.filter((r) => r.currency === currency).map((r) => r.month))];
                return (
                  <Paper key={currency} withBorder p="sm">
                    <Text fw={700} fz="sm">
                      {currency} invoiced by month
                    </Text>
                    <ReportBarChart
                      currency={currency}
                      dataKey="month"
                      stacked
                      data={months.map((m) => ({
                        month: formatMonth(`${m}-01`),
                        ...Object.fromEntries(
                          types.map((t) => [
                            INVOICE_TYPE_LABELS[t],
                            info.rows.find((r) => r.currency === currency && r.month === m && r.type === t)
                              ?.invoiced_cents ?? 0,
                          ]),
                        ),
                      }))}
                      series={types.map((t, i) => ({
                        name: INVOICE_TYPE_LABELS[t],
                        color: TYPE_COLORS[i % TYPE_COLORS.length]!,
                      }))}
                    />
                  </Paper>
                );
              })}
            </SimpleGrid>
          )}
          <DataTable
            caption="Revenue totals per currency"
            minWidth={600}
            rowCount={info.totals.length}
            emptyText="No invoices in this range."
            columns={['Currency', ...FIGURE_COLUMNS]}
          >
            {info.totals.map((t) => (
              <Table.Tr key={t.currency}>
                <Table.Th scope="row">{t.currency}</Table.Th>
                <FigureCell>{t.invoice_count}</FigureCell>
                <FigureCell>{formatCents(t.invoiced_cents, t.currency)}</FigureCell>
                <FigureCell>{formatCents(t.reversed_cents, t.currency)}</FigureCell>
                <FigureCell>{formatCents(t.collected_cents, t.currency)}</FigureCell>
              </Table.Tr>
            ))}
          </DataTable>
          <DataTable
            caption="Revenue by month and invoice type"
            minWidth={800}
            rowCount={info.rows.length}
            emptyText="No invoices in this range."
            columns={['Month', 'Type', 'Currency', ...FIGURE_COLUMNS]}
          >
            {info.rows.map((r) => (
              <Table.Tr key={`${r.month}-${r.type}-${r.currency}`}>
                <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
                  {formatMonth(`${r.month}-01`)}
                </Table.Th>
                <Table.Td>{r.type_label}</Table.Td>
                <NoWrapCell>{r.currency}</NoWrapCell>
                <FigureCell>{r.invoice_count}</FigureCell>
                <FigureCell>{formatCents(r.invoiced_cents, r.currency)}</FigureCell>
                <FigureCell>{formatCents(r.reversed_cents, r.currency)}</FigureCell>
                <FigureCell>{formatCents(r.collected_cents, r.currency)}</FigureCell>
              </Table.Tr>
            ))}
          </DataTable>
        </>
      )}
    </Stack>
  );
}
