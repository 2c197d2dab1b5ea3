import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { formatCents } from '../../../lib/format';

export interface ReasonBarChartProps {
  readonly currency: string;
  readonly data: readonly { reason: string; Failed: number; Recovered: number }[];
}

/**
 * The failed and recovered amounts by decline reason, one currency. Loaded on its own (React.lazy in the recovery
 * panel), so recharts stays out of the page's chunk (bench/bundle.ts: a route chunk ≤ 50 kB gzip; decision 117).
 */
export default function ReasonBarChart({ currency, data }: ReasonBarChartProps) {
  return (
    <BarChart
      h={200}
      data={[...data]}
      dataKey="reason"
      series={[
        { name: 'Failed', color: 'red.6' },
        { name: 'Recovered', color: 'teal.6' },
      ]}
      valueFormatter={(v) => formatCents(Math.round(v * 100), currency)}
      withLegend
      aria-hidden="true"
      // Hidden from assistive technology, so not focusable either (recharts' keyboard layer focuses the chart).
      barChartProps={{ accessibilityLayer: false }}
    />
  );
}
