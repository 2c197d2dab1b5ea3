import { Box, Group, NativeSelect, Table, UnstyledButton } from '@mantine/core';
import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import { exportReport, type CsvReport, type PlaceFilters } from '../api/reports';
import { CsvButton } from './csv-button';

const ReportBarChartLazy = lazy(() => import('./report-bar-chart'));
const ReportLineChartLazy = lazy(() => import('./report-line-chart'));

export function ReportBarChart(props: ComponentProps<typeof ReportBarChartLazy>) {
  return (
    <Suspense fallback={<Box h={220} />}>
      <ReportBarChartLazy {...props} />
    </Suspense>
  );
}

export function ReportLineChart(props: ComponentProps<typeof ReportLineChartLazy>) {
  return (
    <Suspense fallback={<Box h={220} />}>
      <ReportLineChartLazy {...props} />
    </Suspense>
  );
}

const COUNTRY_OPTIONS = [
  { value: '', label: 'Any country' },
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
];
const CURRENCY_OPTIONS = [
  { value: '', label: 'USD and CAD' },
  { value: 'USD', label: 'USD ($)' },
  { value: 'CAD', label: 'CAD (C$)' },
];

/** The country and currency selects every report has. */
export function PlaceSelects(props: { value: PlaceFilters; onChange: (next: PlaceFilters) => void }) {
  const { value, onChange } = props;
  return (
    <>
      <NativeSelect
        label="Country"
        data={COUNTRY_OPTIONS}
        value={value.country}
        onChange={(e) => onChange({ ...value, country: e.currentTarget.value })}
      />
      <NativeSelect
        label="Currency"
        data={CURRENCY_OPTIONS}
        value={value.currency}
        onChange={(e) => onChange({ ...value, currency: e.currentTarget.value })}
      />
    </>
  );
}

/** "Export CSV": the server's CSV of every row of the report, downloaded as `<name>-<day>.csv`. */
export function ExportCsvButton(props: { report: CsvReport; name: string; label?: string }) {
  return (
    <Group justify="flex-end">
      <CsvButton
        label={props.label ?? 'Export CSV'}
        fileName={props.name}
        load={() => exportReport(props.report)}
        size="sm"
      />
    </Group>
  );
}

/** A column header that sorts the table on the server: ascending, then descending. */
export function SortHeader(props: {
  column: string;
  sort: string | null;
  onSort: (s: string) => void;
  children: ReactNode;
  numeric?: boolean;
}) {
  const { column, sort, onSort, children } = props;
  const direction = sort === column ? 'asc' : sort === `-${column}` ? 'desc' : null;
  return (
    <Table.Th
      scope="col"
      ta={props.numeric ? 'right' : undefined}
      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
    >
      <UnstyledButton onClick={() => onSort(direction === 'desc' ? column : `-${column}`)} fw={700} fz="sm">
        {children}
        <span aria-hidden="true">
          {'\u00a0'}
          {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
        </span>
      </UnstyledButton>
    </Table.Th>
  );
}

/** '0.125' → '12.5 %'. */
export function formatRate(rate: number): string {
  return `${(rate * 100).toFixed(1)} %`;
}
