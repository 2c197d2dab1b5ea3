import { Table, VisuallyHidden } from '@mantine/core';
import type { CurrencyCode, OrderLine, OrderTotals } from '@pos/domain';
import { formatCents } from '../lib/format';

/** A total under the lines: 'Subtotal', 'Total' (strong), 'Recurring' with its interval ('/ month'). */
export interface TotalsRow {
  readonly label: string;
  readonly cents: number;
  readonly strong?: boolean;
  /** After the amount: '/ month'. */
  readonly per?: string;
}

/**
 * An order's lines (item, quantity, amount) and its totals in its currency ($ / C$), as the rep sees them in the
 * order flow and the merchant on the contract page (decision 101: the lines come from the domain's orderTotals).
 */
export function TotalsTable({
  caption,
  captionHidden = false,
  currency,
  lines,
  totals,
}: {
  readonly caption: string;
  /** The caption names the table for screen readers only. */
  readonly captionHidden?: boolean;
  readonly currency: CurrencyCode;
  readonly lines: readonly Pick<OrderLine, 'description' | 'quantity' | 'amount_cents'>[];
  readonly totals: readonly TotalsRow[];
}) {
  const money = (cents: number) => formatCents(cents, currency);
  return (
    <Table captionSide="top">
      <Table.Caption>{captionHidden ? <VisuallyHidden>{caption}</VisuallyHidden> : caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Item</Table.Th>
          <Table.Th scope="col" ta="right">
            Quantity
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Amount
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map((l, i) => (
          <Table.Tr key={i}>
            <Table.Td>{l.description}</Table.Td>
            <Table.Td ta="right">{l.quantity}</Table.Td>
            <Table.Td ta="right">{money(l.amount_cents)}</Table.Td>
          </Table.Tr>
        ))}
        {totals.map((t) => (
          <Table.Tr key={t.label}>
            <Table.Th scope="row">{t.label}</Table.Th>
            <Table.Td />
            <Table.Td ta="right" fw={t.strong ? 700 : undefined}>
              {money(t.cents)}
              {t.per ? ` ${t.per}` : ''}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * The domain's orderTotals as a table: the lines, the subtotal, the tax (with `showTax`; else the total is before
 * tax), the total and the recurring charge per month or year.
 */
export function OrderTotalsTable({
  totals,
  caption,
  showTax = false,
}: {
  readonly totals: OrderTotals;
  readonly caption: string;
  readonly showTax?: boolean;
}) {
  const rows: TotalsRow[] = [
    { label: 'Subtotal', cents: totals.subtotalCents },
    ...(showTax ? [{ label: 'Tax', cents: totals.taxCents }] : []),
    { label: showTax ? 'Total' : 'Total before tax', cents: totals.totalCents, strong: true },
    {
      label: 'Recurring',
      cents: totals.recurringCents,
      per: totals.recurringIntervalMonths === 12 ? '/ year' : '/ month',
    },
  ];
  return (
    <TotalsTable
      caption={caption}
      currency={totals.currency}
      lines={totals.lines.filter((l) => showTax || l.section !== 'tax')}
      totals={rows}
    />
  );
}
