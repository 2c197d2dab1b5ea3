import { Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useSalesHistory } from '../api/customers';
import { BarChart } from '../components/bar-chart';
import { formatCents, formatMonth } from '../../../lib/format';
import type { StoreTabProps } from '../tab-props';

/**
 * Sales history (GET /api/saleshistory/{customerId}?storeid=): the last 24 months as a bar chart of the
 * amount sold and as a table (month, units, amount), with totals per currency.
 */
export function SalesHistoryTab({ customerId, storeId }: StoreTabProps) {
  const [allStores, setAllStores] = useState(false);
  const history = useSalesHistory(customerId, allStores ? null : storeId);
  const scope = allStores || storeId === null ? 'the customer' : `store ${storeId}`;

  if (!history.data)
    return (
      <Text c="dimmed">{history.isError ? 'The sales history could not be loaded.' : 'Loading sales history…'}</Text>
    );
  const { months, totals, currency } = history.data;
  const chartMonths = months.filter((m) => m.currency === currency);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text component="h3" fw={700} m={0} size="md">
          Sales of {scope}, {formatMonth(history.data.from_month)} – {formatMonth(history.data.to_month)}
        </Text>
        <Checkbox
          label="Show sales of every store"
          checked={allStores}
          onChange={(e) => setAllStores(e.currentTarget.checked)}
        />
      </Group>
      <BarChart
        title={`Monthly sales of ${scope} in ${currency}`}
        description={`${chartMonths.length} months, oldest first; the table below has the same numbers.`}
        data={chartMonths.map((m) => ({
          label: formatMonth(m.period_month),
          value: m.amount_cents,
          description: `${formatMonth(m.period_month)}: ${formatCents(m.amount_cents, m.currency)}, ${m.units} units`,
        }))}
      />
      <Table.ScrollContainer minWidth={420}>
        <Table striped captionSide="top">
          <Table.Caption>Monthly sales of {scope}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Month</Table.Th>
              <Table.Th scope="col" ta="right">
                Units
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Amount
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...months].reverse().map((m) => (
              <Table.Tr key={`${m.period_month}-${m.currency}`}>
                <Table.Td>{formatMonth(m.period_month)}</Table.Td>
                <Table.Td ta="right">{m.units}</Table.Td>
                <Table.Td ta="right">{formatCents(m.amount_cents, m.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            {totals.map((t) => (
              <Table.Tr key={t.currency}>
                <Table.Th scope="row">Total ({t.currency})</Table.Th>
                <Table.Td ta="right" fw={700}>
                  {t.units}
                </Table.Td>
                <Table.Td ta="right" fw={700}>
                  {formatCents(t.amount_cents, t.currency)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
