import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { formatCents } from '../../../lib/format';

export interface MoneyBarChartProps {
  readonly currency: string;
  /** One bar per label; amounts in cents of `currency` (one currency per chart: USD and CAD are never added). */
  readonly data: readonly { label: string; cents: number }[];
}

/**
 * A bar chart of amounts in one currency. Loaded on its own (React.lazy), so recharts stays out of the page's chunk
 * (bench/bundle.ts); hidden from assistive technology — the table beside it has the same numbers.
 */
export default function MoneyBarChart({ currency, data }: MoneyBarChartProps) {
  // Many bars (e.g. every order status): horizontal bars, one labelled row each — a column chart would label only
  // every third bar (issue 30).
  const many = data.length > HORIZONTAL_FROM;
  return (
    <BarChart
      h={many ? data.length * 28 + 40 : 220}
      data={data.map((d) => ({ label: d.label, [currency]: d.cents / 100 }))}
      dataKey="label"
      series={[{ name: currency, color: currency === 'CAD' ? 'red.6' : 'blue.6' }]}
      valueFormatter={(v) => formatCents(Math.round(v * 100), currency)}
      orientation={many ? 'vertical' : 'horizontal'}
      yAxisProps={many ? { width: 200, interval: 0 } : { width: 110 }}
      xAxisProps={many ? {} : { interval: 0 }}
      aria-hidden="true"
      // Hidden from assistive technology, so not focusable either (recharts' keyboard layer focuses the chart).
      barChartProps={{ accessibilityLayer: false }}
    />
  );
}

/** From this many bars on, the chart lays them horizontally. */
const HORIZONTAL_FROM = 6;
