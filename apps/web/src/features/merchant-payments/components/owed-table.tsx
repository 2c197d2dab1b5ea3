import { Table, Text } from '@mantine/core';
import type { MerchantPaymentResult, MerchantPaymentView } from '@pos/domain';
import { formatCents, formatDate } from '../../../lib/format';

/**
 * What the store owes: each open invoice and the total. On a phone two columns — the invoice with its due date under
 * it, and the amount — so nothing sticks out of a 375 px screen.
 */
export function OwedTable({ view }: { readonly view: MerchantPaymentView }) {
  const money = (cents: number) => formatCents(cents, view.currency);
  if (view.invoices.length === 0) return <Text>Nothing is owed right now.</Text>;
  return (
    <Table aria-label="What you owe" withTableBorder horizontalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Invoice</Table.Th>
          <Table.Th scope="col" visibleFrom="sm">
            Issued
          </Table.Th>
          <Table.Th scope="col" visibleFrom="sm">
            Due
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Open amount
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {view.invoices.map((i) => (
          <Table.Tr key={i.invoice_number}>
            <Table.Td>
              {i.invoice_number}
              <Text size="xs" c="dimmed" hiddenFrom="sm">
                Due {formatDate(i.due_on)}
              </Text>
            </Table.Td>
            <Table.Td visibleFrom="sm">{formatDate(i.issued_on)}</Table.Td>
            <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
              {formatDate(i.due_on)}
            </Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
              {money(i.open_cents)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th scope="row">Total owed</Table.Th>
          <Table.Td visibleFrom="sm" colSpan={2} />
          <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
            <strong>{money(view.total_owed_cents)}</strong>
          </Table.Td>
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}

const OUTCOME_TEXT = { paid: 'Paid', failed: 'Declined', pending: 'Processing', skipped: 'Not charged' } as const;

/** What became of each invoice a payment charged. */
export function PaymentResultTable({
  result,
  currency,
}: {
  readonly result: MerchantPaymentResult;
  readonly currency: MerchantPaymentView['currency'];
}) {
  return (
    <Table aria-label="Payment result" withTableBorder horizontalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Invoice</Table.Th>
          <Table.Th scope="col" ta="right">
            Amount
          </Table.Th>
          <Table.Th scope="col">Result</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {result.invoices.map((i) => (
          <Table.Tr key={i.invoice_number}>
            <Table.Td>{i.invoice_number}</Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
              {formatCents(i.amount_cents, currency)}
            </Table.Td>
            <Table.Td>
              {OUTCOME_TEXT[i.outcome]}
              {i.outcome === 'paid' ? '' : ` — ${i.message}`}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
