import { Alert, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { CurrencyCode } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate, formatMonth } from '../../../lib/format';
import { getFailedPaymentsQueryOptions, type RangeParams } from '../api/reports';
import { RangeFilters, rangeIsValid } from './range-filters';
import { ExportCsvButton, formatRate, ReportLineChart } from './report-parts';

/**
 * The Failed payments tab: by month and currency, charge attempts, failures and the failure rate, failed invoices and
 * those recovered since (paid by the ledger) with the recovery rate; a chart of both rates per currency.
 */
export function FailedPaymentsReport() {
  const [params, setParams] = useState<RangeParams>({ from: '', to: '', country: '', currency: '' });
  const [asked, setAsked] = useState(params);
  const report = useQuery({ ...getFailedPaymentsQueryOptions(asked), enabled: rangeIsValid(asked) });
  const info = report.data;
  const change = (next: RangeParams) => {
    setParams(next);
    if (rangeIsValid(next)) setAsked(next);
  };
  const currencies = [...new Set(info?.rows.map((r) => r.currency) ?? [])] as CurrencyCode[];

  return (
    <Stack gap="md">
      <RangeFilters value={params} onChange={change} />
      {report.isError && (
        <Alert color="red" title={describeError(report.error).title}>
          {describeError(report.error).message}
        </Alert>
      )}
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
            columns={[
              'Month',
              'Currency',
              'Attempts',
              'Failed',
              'Failure rate',
              'Failed invoices',
              'Failed amount',
              'Recovered',
              'Recovered amount',
              'Recovery rate',
            ]}
          >
            {info.rows.map((r) => (
              <Table.Tr key={`${r.month}-${r.currency}`}>
                <Table.Th scope="row" fw={400}>
                  {formatMonth(`${r.month}-01`)}
                </Table.Th>
                <Table.Td>{r.currency}</Table.Td>
                <Table.Td ta="right">{r.attempts}</Table.Td>
                <Table.Td ta="right">{r.failed_attempts}</Table.Td>
                <Table.Td ta="right">{formatRate(r.failure_rate)}</Table.Td>
                <Table.Td ta="right">{r.failed_invoices}</Table.Td>
                <Table.Td ta="right">{formatCents(r.failed_cents, r.currency)}</Table.Td>
                <Table.Td ta="right">{r.recovered_invoices}</Table.Td>
                <Table.Td ta="right">{formatCents(r.recovered_cents, r.currency)}</Table.Td>
                <Table.Td ta="right">{formatRate(r.recovery_rate)}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          <ExportCsvButton report={{ kind: 'failed-payments', params: asked }} name="failed-payments-report" />
        </>
      )}
    </Stack>
  );
}
