import { Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { CurrencyCode } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import {
  DataTable,
  ExportCsvButton,
  FigureCell,
  FigureHeader,
  FilterBar,
  ListError,
  NoWrapCell,
  useListState,
} from '../../../components/list';
import { formatCents, formatDate, formatMonth } from '../../../lib/format';
import { exportReport, getFailedPaymentsQueryOptions } from '../api/reports';
import { RangeFilters, rangeIsValid } from './range-filters';
import { formatRate, ReportLineChart, saveCsv } from './report-parts';

interface FailedFilters {
  readonly from: string;
  readonly to: string;
  readonly country: string;
  readonly currency: string;
}
const LIST_OPTIONS = { defaults: { from: '', to: '', country: '', currency: '' } as FailedFilters };

const FIGURE_COLUMNS = [
  'Attempts',
  'Failed',
  'Failure rate',
  'Failed invoices',
  'Failed amount',
  'Recovered',
  'Recovered amount',
  'Recovery rate',
].map((name) => <FigureHeader key={name}>{name}</FigureHeader>);

/**
 * The Failed payments tab: by month and currency, charge attempts, failures and the failure rate, failed invoices and
 * those recovered since (paid by the ledger) with the recovery rate; a chart of both rates per currency. The filters
 * are in the address (`#/reports?tab=failed-payments&currency=CAD`): Apply shows them, a copied link shares them.
 */
export function FailedPaymentsReport() {
  const list = useListState<FailedFilters>(LIST_OPTIONS);
  const { applied, draft } = list;
  const report = useQuery({ ...getFailedPaymentsQueryOptions(applied), enabled: rangeIsValid(applied) });
  const info = report.data;
  const apply = () => {
    if (rangeIsValid(draft)) list.apply();
  };
  const currencies = [...new Set(info?.rows.map((r) => r.currency) ?? [])] as CurrencyCode[];

  return (
    <Stack gap="md">
      <FilterBar label="Failed payments report filters" onApply={apply} onClear={list.clear}>
        <RangeFilters value={draft} onChange={(next) => list.setDraft(() => next)} />
      </FilterBar>
      <ExportCsvButton
        run={() => saveCsv('failed-payments-report', () => exportReport({ kind: 'failed-payments', params: applied }))}
        disabled={!info}
      />
      <ListError error={report.error} />
      {info && (
        <>
          <Text c="dimmed" fz="sm">
            Charges attempted {formatDate(info.from)} – {formatDate(info.to)}. A failed invoice counts once, for its
            total, in the month its first charge failed; it is recovered when it was paid since.
          </Text>
          {currencies.length > 0 && (
            <SimpleGrid cols={{ base: 1, md: currencies.length }}>
              {currencies.map((currency) => (
                <Paper key={currency} withBorder p="sm">
                  <Text fw={700} fz="sm">
                    {currency} failure and recovery rates
                  </Text>
                  <ReportLineChart
                    dataKey="month"
                    data={info.rows
                      .filter((r) => r.currency === currency)
                      .map((r) => ({
                        month: formatMonth(`${r.month}-01`),
                        'Failure rate': r.failure_rate * 100,
                        'Recovery rate': r.recovery_rate * 100,
                      }))}
                    series={[
                      { name: 'Failure rate', color: 'red.6' },
                      { name: 'Recovery rate', color: 'teal.6' },
                    ]}
                  />
                </Paper>
              ))}
            </SimpleGrid>
          )}
          <DataTable
            caption="Failed payments and recovery by month"
            minWidth={1000}
            rowCount={info.rows.length}
            emptyText="No charges in this range."
            columns={['Month', 'Currency', ...FIGURE_COLUMNS]}
          >
            {info.rows.map((r) => (
              <Table.Tr key={`${r.month}-${r.currency}`}>
                <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
                  {formatMonth(`${r.month}-01`)}
                </Table.Th>
                <NoWrapCell>{r.currency}</NoWrapCell>
                <FigureCell>{r.attempts}</FigureCell>
                <FigureCell>{r.failed_attempts}</FigureCell>
                <FigureCell>{formatRate(r.failure_rate)}</FigureCell>
                <FigureCell>{r.failed_invoices}</FigureCell>
                <FigureCell>{formatCents(r.failed_cents, r.currency)}</FigureCell>
                <FigureCell>{r.recovered_invoices}</FigureCell>
                <FigureCell>{formatCents(r.recovered_cents, r.currency)}</FigureCell>
                <FigureCell>{formatRate(r.recovery_rate)}</FigureCell>
              </Table.Tr>
            ))}
          </DataTable>
        </>
      )}
    </Stack>
  );
}
