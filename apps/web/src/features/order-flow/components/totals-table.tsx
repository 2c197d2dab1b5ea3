import { Table } from '@mantine/core';
import { formatMoney, type OrderTotals } from '@pos/domain';

/** The order's lines and totals in its currency (C$ for CAD), from the domain's orderTotals. */
export function TotalsTable({
  totals,
  caption,
  showTax = false,
}: {
  readonly totals: OrderTotals;
  readonly caption: string;
  readonly showTax?: boolean;
}) {
  const money = (cents: number) => formatMoney(cents, totals.currency);
  return (
    <Table captionSide="top" aria-label={caption}>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Item</Table.Th>
          <Table.Th ta="right">Quantity</Table.Th>
          <Table.Th ta="right">Amount</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {totals.lines
          .filter((l) => showTax || l.section !== 'tax')
          .map((l, i) => (
            <Table.Tr key={`${l.section}-${i}`}>
              <Table.Td>{l.description}</Table.Td>
              <Table.Td ta="right">{l.quantity}</Table.Td>
              <Table.Td ta="right">{money(l.amount_cents)}</Table.Td>
            </Table.Tr>
          ))}
        <Table.Tr>
          <Table.Th scope="row">Subtotal</Table.Th>
          <Table.Td />
          <Table.Td ta="right">{money(totals.subtotalCents)}</Table.Td>
        </Table.Tr>
        {showTax && (
          <Table.Tr>
            <Table.Th scope="row">Tax</Table.Th>
            <Table.Td />
            <Table.Td ta="right">{money(totals.taxCents)}</Table.Td>
          </Table.Tr>
        )}
        <Table.Tr>
          <Table.Th scope="row">{showTax ? 'Total' : 'Total before tax'}</Table.Th>
          <Table.Td />
          <Table.Td ta="right" fw={700}>
            {money(totals.totalCents)}
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th scope="row">Recurring</Table.Th>
          <Table.Td />
          <Table.Td ta="right">
            {money(totals.recurringCents)} / {totals.recurringIntervalMonths === 12 ? 'year' : 'month'}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}
