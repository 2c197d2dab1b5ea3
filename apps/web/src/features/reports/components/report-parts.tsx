import { Box } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentProps } from 'react';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { FilterCurrency, FilterSelect } from '../../../components/list';
import { datedFileName, downloadFile } from '../../../lib/download';
import type { PlaceFilters } from '../api/reports';

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

/** The country and currency selects every report has. */
export function PlaceSelects(props: { value: PlaceFilters; onChange: (next: PlaceFilters) => void }) {
  const { value, onChange } = props;
  return (
    <>
      <FilterSelect
        label="Country"
        data={COUNTRY_OPTIONS}
        value={value.country}
        onChange={(country) => onChange({ ...value, country })}
      />
      <FilterCurrency
        anyLabel="USD and CAD"
        value={value.currency}
        onChange={(currency) => onChange({ ...value, currency })}
      />
    </>
  );
}

/** A report's CSV (the kit's ExportCsvButton runs it): the server's file, saved as `<name>-<day>.csv`. */
export async function saveCsv(name: string, load: () => Promise<Blob>): Promise<void> {
  downloadFile(datedFileName(name, 'csv'), await load());
}

const INVOICE_PRIVILEGES = ['invoices'] as const;

/** Whether the session may open #/view-invoices (an invoice number is then a link to it). */
export function useMayOpenInvoices(): boolean {
  return (
    useQuery({ ...getPermissionsQueryOptions(INVOICE_PRIVILEGES), select: (flags) => flags.invoices === true }).data ??
    false
  );
}

/** '0.125' → '12.5 %'. */
export function formatRate(rate: number): string {
  return `${(rate * 100).toFixed(1)} %`;
}
