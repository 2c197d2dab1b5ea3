import { Box, Button, Group, NativeSelect, Table, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import { exportReport, type CsvReport, type PlaceFilters } from '../api/reports';

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
  const exportCsv = useMutation({
    mutationFn: () => exportReport(props.report),
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName(props.name, 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
    },
  });
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={() => exportCsv.mutate()} loading={exportCsv.isPending}>
        {props.label ?? 'Export CSV'}
      </Button>
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
