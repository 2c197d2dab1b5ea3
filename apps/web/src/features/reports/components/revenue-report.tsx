import { Alert, NativeSelect, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { INVOICE_TYPE_LABELS, INVOICE_TYPES, type CurrencyCode } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate, formatMonth } from '../../../lib/format';
import { getRevenueQueryOptions, type RangeParams } from '../api/reports';
import { RangeFilters, rangeIsValid } from './range-filters';
import { ExportCsvButton, ReportBarChart } from './report-parts';

const TYPE_OPTIONS = [
  { value: '', label: 'Every type' },
  ...INVOICE_TYPES.map((t) => ({ value: t, label: INVOICE_TYPE_LABELS[t] })),
];
const TYPE_COLORS = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'gray.6'];

/**
 * The Revenue tab: invoiced, reversed and collected by month and invoice type, per currency (a stacked chart of the
 * invoiced amount by type for each currency, the table of every month × type × currency row and the totals).
 */
export function RevenueReport() {
  const [params, setParams] = useState<RangeParams>({ from: '', to: '', country: '', currency: '', type: '' });
  const [asked, setAsked] = useState(params);
  const report = useQuery({ ...getRevenueQueryOptions(asked), enabled: rangeIsValid(asked) });
  const info = report.data;
  const change = (next: RangeParams) => {
    setParams(next);
    if (rangeIsValid(next)) setAsked(next);
  };

  const currencies = [...new Set(info?.rows.map((r) => r.currency) ?? [])] as CurrencyCode[];
  const types = [...new Set(info?.rows.map((r) => r.type) ?? [])];

  return (
    <Stack gap="md">
      <RangeFilters value={params} onChange={change}>
        <NativeSelect
          label="Invoice type"
          data={TYPE_OPTIONS}
          value={params.type ?? ''}
          onChange={(e) => change({ ...params, type: e.currentTarget.value })}
        />
      </RangeFilters>
      {report.isError && (
        <Alert color="red" title={describeError(report.error).title}>
          {describeError(report.error).message}
        </Alert>
      )}
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
            columns={['Currency', 'Invoices', 'Invoiced', 'Reversed', 'Collected']}
          >
            {info.totals.map((t) => (
              <Table.Tr key={t.currency}>
                <Table.Th scope="row">{t.currency}</Table.Th>
                <Table.Td ta="right">{t.invoice_count}</Table.Td>
                <Table.Td ta="right">{formatCents(t.invoiced_cents, t.currency)}</Table.Td>
                <Table.Td ta="right">{formatCents(t.reversed_cents, t.currency)}</Table.Td>
                <Table.Td ta="right">{formatCents(t.collected_cents, t.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          <DataTable
            caption="Revenue by month and invoice type"
            minWidth={800}
            rowCount={info.rows.length}
            emptyText="No invoices in this range."
            columns={['Month', 'Type', 'Currency', 'Invoices', 'Invoiced', 'Reversed', 'Collected']}
          >
            {info.rows.map((r) => (
              <Table.Tr key={`${r.month}-${r.type}-${r.currency}`}>
                <Table.Th scope="row" fw={400}>
                  {formatMonth(`${r.month}-01`)}
                </Table.Th>
                <Table.Td>{r.type_label}</Table.Td>
                <Table.Td>{r.currency}</Table.Td>
                <Table.Td ta="right">{r.invoice_count}</Table.Td>
                <Table.Td ta="right">{formatCents(r.invoiced_cents, r.currency)}</Table.Td>
                <Table.Td ta="right">{formatCents(r.reversed_cents, r.currency)}</Table.Td>
                <Table.Td ta="right">{formatCents(r.collected_cents, r.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          <ExportCsvButton report={{ kind: 'revenue', params: asked }} name="revenue" />
        </>
      )}
    </Stack>
  );
}
