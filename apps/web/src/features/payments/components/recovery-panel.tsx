import { Alert, Box, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { RecoveryCurrencyFigures, RecoveryReport } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { describeError } from '../../../lib/error-message';
import { currencyLabel, formatCents, formatCount, formatMonth } from '../../../lib/format';
import { getRecoveryQueryOptions } from '../api/failed-payments';

/** recharts loads with the chart, after the figures (not in the page's chunk). */
const ReasonBarChart = lazy(() => import('./reason-bar-chart'));

/** '42.3 %' of a 0..1 rate. */
export function formatRate(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toLocaleString('en-US')} %`;
}

function CurrencyFigures({ f }: { f: RecoveryCurrencyFigures }) {
  const label = currencyLabel(f.currency);
  return (
    <Paper withBorder p="sm" aria-label={`Recovery in ${label}`} component="section">
      <Text fw={700} mb={4}>
        {label}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        <div>
          <Text size="xs" c="dimmed">
            Failed
          </Text>
          <Text fw={700}>{formatCents(f.failed_cents, f.currency)}</Text>
          <Text size="xs">
            {formatCount(f.failed_count)} {f.failed_count === 1 ? 'invoice' : 'invoices'},{' '}
            {formatCount(f.failed_attempts)} {f.failed_attempts === 1 ? 'attempt' : 'attempts'}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Recovered
          </Text>
          <Text fw={700}>{formatCents(f.recovered_cents, f.currency)}</Text>
          <Text size="xs">
            {formatCount(f.recovered_count)} {f.recovered_count === 1 ? 'invoice' : 'invoices'}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Recovery rate
          </Text>
          <Text fw={700}>{formatRate(f.recovery_rate)}</Text>
        </div>
      </SimpleGrid>
    </Paper>
  );
}

function ReasonChart({ report, currency }: { report: RecoveryReport; currency: string }) {
  const rows = report.by_reason.filter((r) => r.currency === currency);
  const data = rows.map((r) => ({
    reason: r.decline_label,
    Failed: r.failed_cents / 100,
    Recovered: r.recovered_cents / 100,
  }));
  return (
    <Stack gap={4}>
      <Text fw={700} size="sm">
        By decline reason ({currencyLabel(currency)})
      </Text>
      <Suspense fallback={<Box h={200} />}>
        <ReasonBarChart currency={currency} data={data} />
      </Suspense>
      {/* The chart's figures as a table, for screen readers and for reading exact amounts. */}
      <Table fz="xs" striped aria-label={`Failed and recovered by decline reason (${currencyLabel(currency)})`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Reason</Table.Th>
            <Table.Th scope="col">Kind</Table.Th>
            <Table.Th scope="col">Failed</Table.Th>
            <Table.Th scope="col">Recovered</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={`${r.decline_code ?? 'other'}`}>
              <Table.Td>{r.decline_label}</Table.Td>
              <Table.Td>{r.decline_kind}</Table.Td>
              <Table.Td>
                {formatCents(r.failed_cents, r.currency)} ({formatCount(r.failed_count)})
              </Table.Td>
              <Table.Td>
                {formatCents(r.recovered_cents, r.currency)} ({formatCount(r.recovered_count)})
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/**
 * The recovery panel of #/payments: this month's failed and recovered amounts and the rate, per currency (USD and
 * CAD are never added together), and a chart by decline reason (decision 117).
 */
export function RecoveryPanel({ month }: { month: string | null }) {
  const recovery = useQuery(getRecoveryQueryOptions(month));
  const report = recovery.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="recovery-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="recovery-title">
          Recovery{report ? ` — ${formatMonth(`${report.month}-01`)}` : ''}
        </Title>
      </Group>
      {recovery.isError && (
        <Alert color="red" title={describeError(recovery.error).title}>
          {describeError(recovery.error).message}
        </Alert>
      )}
      {recovery.isPending && <Text c="dimmed">Loading the month’s figures…</Text>}
      {report && report.by_currency.length === 0 && (
        <Text>
          No payment failed in {formatMonth(`${report.month}-01`)}. The list below shows every failure still open,
          whatever month it failed in.
        </Text>
      )}
      {report && report.by_currency.length > 0 && (
        <Stack gap="md">
          {report.by_currency.map((f) => (
            <Stack key={f.currency} gap="xs">
              <CurrencyFigures f={f} />
              <ReasonChart report={report} currency={f.currency} />
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
