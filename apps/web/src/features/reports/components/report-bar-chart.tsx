import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { formatCents } from '../../../lib/format';

export interface ReportBarChartProps {
  /** Every figure of the chart is in this currency (USD and CAD are never drawn on one axis). */
  readonly currency: string;
  readonly dataKey: string;
  /** Rows of the chart: the key, then one amount in cents per series. */
  readonly data: readonly Record<string, string | number>[];
  readonly series: readonly { name: string; color: string }[];
  readonly stacked?: boolean;
}

/**
 * A bar chart of amounts in one currency. Loaded on its own (React.lazy), so recharts stays out of the page's chunk
 * (bench/bundle.ts; as the failed-payments screen's chart, decision 117). The table beside it carries the figures:
 * the chart is hidden from assistive technology.
 */
export default function ReportBarChart({ currency, dataKey, data, series, stacked }: ReportBarChartProps) {
  return (
    <BarChart
      h={220}
      data={[...data]}
      dataKey={dataKey}
      type={stacked ? 'stacked' : 'default'}
      series={[...series]}
      valueFormatter={(v) => formatCents(Math.round(v), currency)}
      // Room for the longest amount on the axis ('$1,234,567.00'): never clipped (issue 30).
      yAxisProps={{ width: 120 }}
      withLegend={series.length > 1}
      aria-hidden="true"
      // Hidden from assistive technology, so not focusable either (recharts' keyboard layer focuses the chart).
      barChartProps={{ accessibilityLayer: false }}
    />
  );
}
