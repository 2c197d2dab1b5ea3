import { Table, VisuallyHidden } from '@mantine/core';
import type { CurrencyCode, OrderLine, OrderTotals, TaxLine } from '@pos/domain';
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
 * The domain's orderTotals as a table. The lines (items, bundles, charges, discounts) add up to the subtotal; with
 * `showTax` the tax follows once — one row per component named for the jurisdiction (`taxLines`, the domain's
 * taxLines; else one 'Tax' row) — then the total; without it the total is before tax. Then the recurring charge per
 * month or year. The tax is never also a line (decision 149).
 */
export function OrderTotalsTable({
  totals,
  caption,
  showTax = false,
  taxLines,
}: {
  readonly totals: OrderTotals;
  readonly caption: string;
  readonly showTax?: boolean;
  readonly taxLines?: readonly TaxLine[];
}) {
  const lines = totals.lines.filter((l) => l.section !== 'tax');
  const linesCents = lines.reduce((s, l) => s + l.amount_cents, 0);
  const tax: TotalsRow[] =
    taxLines && taxLines.length > 0
      ? taxLines.map((t) => ({ label: t.label, cents: t.amount_cents }))
      : [{ label: 'Tax', cents: totals.taxCents }];
  const rows: TotalsRow[] = [
    ...(showTax
      ? [{ label: 'Subtotal', cents: linesCents }, ...tax, { label: 'Total', cents: totals.totalCents, strong: true }]
      : [{ label: 'Total before tax', cents: totals.totalCents, strong: true }]),
    {
      label: 'Recurring',
      cents: totals.recurringCents,
      per: totals.recurringIntervalMonths === 12 ? '/ year' : '/ month',
    },
  ];
  return <TotalsTable caption={caption} currency={totals.currency} lines={lines} totals={rows} />;
}
