import { Box, Paper, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { currencyLabel } from '../../../lib/format';

const MoneyBarChart = lazy(() => import('./money-bar-chart'));

export interface ReportChartProps {
  readonly title: string;
  readonly currency: string;
  readonly data: readonly { label: string; cents: number }[];
}

/** A titled chart of one currency's amounts (a figure with its caption; the numbers are in the table too). */
export function ReportChart({ title, currency, data }: ReportChartProps) {
  const caption = `${title} (${currencyLabel(currency)})`;
  return (
    <Paper withBorder p="sm" component="figure" m={0} aria-label={caption}>
      <Text component="figcaption" fw={700} size="sm" mb="xs">
        {caption}
      </Text>
      <Suspense fallback={<Box h={220} />}>
        <MoneyBarChart currency={currency} data={data} />
      </Suspense>
    </Paper>
  );
}
