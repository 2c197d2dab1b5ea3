import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';

export interface ReportLineChartProps {
  readonly dataKey: string;
  /** Rows: the key, then one rate (0–100 %) per series. */
  readonly data: readonly Record<string, string | number>[];
  readonly series: readonly { name: string; color: string }[];
}

/** Rates in per cent by month (loaded on its own, like ReportBarChart; the table carries the figures). */
export default function ReportLineChart({ dataKey, data, series }: ReportLineChartProps) {
  return (
    <LineChart
      h={220}
      data={[...data]}
      dataKey={dataKey}
      series={[...series]}
      valueFormatter={(v) => `${v.toFixed(1)} %`}
      withLegend
      aria-hidden="true"
    />
  );
}
