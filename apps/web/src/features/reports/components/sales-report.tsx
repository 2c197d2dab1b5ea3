import { Alert, Anchor, Button, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { CURRENCY_CODES, type SalesReportGroup } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ListPagination } from '../../../components/list/list-pagination';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { currencyLabel, formatCents, formatCount, formatMonth } from '../../../lib/format';
import {
  exportSalesReport,
  SALES_REPORT_PAGE_SIZE,
  salesReportQueryOptions,
  type SalesReportParams,
} from '../api/sales-reports';
import { CsvButton } from './csv-button';
import { ReportChart } from './report-chart';

interface SalesFilters {
  readonly fromMonth: string;
  readonly toMonth: string;
  readonly group: SalesReportGroup;
  readonly currency: string;
}
const NO_FILTERS: SalesFilters = { fromMonth: '', toMonth: '', group: 'rep', currency: '' };

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
 * by month, the table (a rep's name opens the rep's page) and every line as CSV.
 */
export function SalesReport() {
  const [draft, setDraft] = useState<SalesFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<SalesFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const query = toQuery(filters, page);
  const report = useQuery({ ...salesReportQueryOptions(query), meta: { silentError: true } });
  const fields = report.error && isApiError(report.error) ? report.error.fields : {};
  const set = <K extends keyof SalesFilters>(key: K, value: SalesFilters[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
    setPage(1);
  };
  const data = report.data;
  const who = filters.group === 'rep' ? 'Sales person' : 'Agent';

  return (
    <Stack gap="md">
      <form onSubmit={apply} aria-label="Sales report filters">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            type="month"
            label="From month"
            placeholder="YYYY-MM"
            value={draft.fromMonth}
            onChange={(e) => set('fromMonth', e.currentTarget.value)}
            error={fields.from_month}
          />
          <TextInput
            type="month"
            label="To month"
            placeholder="YYYY-MM"
            value={draft.toMonth}
            onChange={(e) => set('toMonth', e.currentTarget.value)}
            error={fields.to_month}
          />
          <NativeSelect
            label="Group by"
            value={draft.group}
            onChange={(e) => set('group', e.currentTarget.value as SalesReportGroup)}
            data={[
              { value: 'rep', label: 'Sales person' },
              { value: 'agent', label: 'Agent' },
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
          <Button type="submit">Show the sales report</Button>
          <CsvButton label="Download sales as CSV" fileName="sales-report" load={() => exportSalesReport(query)} />
        </Group>
      </form>

      {report.isError && (
        <Alert color="red" title={describeError(report.error).title}>
          {describeError(report.error).message}
        </Alert>
      )}
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
          <Table.ScrollContainer minWidth={480 + data.months.length * 90}>
            <Table striped captionSide="top" aria-busy={report.isFetching}>
              <Table.Caption>
                Sales by {filters.group === 'rep' ? 'sales person' : 'agent'} and month — {formatCount(data.total)}{' '}
                {data.total === 1 ? 'line' : 'lines'}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{who}</Table.Th>
                  <Table.Th scope="col">Channel</Table.Th>
                  <Table.Th scope="col">Currency</Table.Th>
                  {data.months.map((m) => (
                    <Table.Th scope="col" ta="right" key={m}>
                      {formatMonth(m)}
                    </Table.Th>
                  ))}
                  <Table.Th scope="col" ta="right">
                    Total
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.rows.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={data.months.length + 4}>
                      <Text c="dimmed">No sales in this range.</Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {data.rows.map((r) => (
                  <Table.Tr key={`${r.id}-${r.currency}`}>
                    <Table.Th scope="row" fw={400}>
                      {data.group === 'rep' && r.id !== null ? (
                        <Anchor component={Link} to={`/sales-person/${r.id}`}>
                          {r.name}
                        </Anchor>
                      ) : (
                        r.name
                      )}
                    </Table.Th>
                    <Table.Td>{r.sales_channel ?? '—'}</Table.Td>
                    <Table.Td>{r.currency}</Table.Td>
                    {r.months.map((m) => (
                      <Table.Td ta="right" key={m.period_month}>
                        {m.amount_cents === 0 ? '—' : formatCents(m.amount_cents, r.currency)}
                      </Table.Td>
                    ))}
                    <Table.Td ta="right" fw={700}>
                      {formatCents(r.amount_cents, r.currency)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListPagination
            label="Sales report pages"
            total={data.total}
            pageSize={SALES_REPORT_PAGE_SIZE}
            page={page}
            onChange={setPage}
            hideSinglePage
          />
        </>
      )}
    </Stack>
  );
}
