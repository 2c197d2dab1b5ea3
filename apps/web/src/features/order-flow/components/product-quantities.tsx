import { Table, TextInput } from '@mantine/core';
import { centsToDecimal, formatMoney, type CurrencyCode, type OrderBillingItemEntry } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../components/spinner';
import { getProducts } from '../api/order-flow';

const qty = (text: string) => Math.max(0, Math.min(999, Number.parseInt(text, 10) || 0));

/** The catalogue's products in the order's currency with a quantity each; the order keeps them as BillingItemInfo entries. */
export function ProductQuantities(props: {
  readonly currency: CurrencyCode;
  readonly items: readonly OrderBillingItemEntry[];
  readonly onChange: (items: OrderBillingItemEntry[]) => void;
  readonly disabled?: boolean;
}) {
  const products = useQuery({ queryKey: ['catalogue', 'products', props.currency], queryFn: ({ signal }) => getProducts(props.currency, false, signal), staleTime: 300_000 });
  if (products.isPending) return <Spinner busy />;
  const quantityOf = (productId: number) => props.items.find((i) => i.productId === productId)?.quantity ?? 0;
  const set = (p: { product_id: number; name: string; unit_price_cents: number | null }, quantity: number) => {
    const rest = props.items.filter((i) => i.productId !== p.product_id);
    const entry: OrderBillingItemEntry = { billingItemId: 0, productId: p.product_id, name: p.name, quantity, unitPrice: centsToDecimal(p.unit_price_cents ?? 0) };
    props.onChange(quantity > 0 ? [...rest, entry] : rest);
  };
  return (
    <Table aria-label="Hardware and products">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Product</Table.Th>
          <Table.Th ta="right">Unit price</Table.Th>
          <Table.Th>Quantity</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {(products.data?.products ?? []).map((p) => (
          <Table.Tr key={p.product_id}>
            <Table.Td>{p.name}</Table.Td>
            <Table.Td ta="right">{p.unit_price_cents == null ? '—' : formatMoney(p.unit_price_cents, props.currency)}</Table.Td>
            <Table.Td>
              <TextInput aria-label={`Quantity of ${p.name}`} type="number" min={0} w={90} disabled={props.disabled} value={String(quantityOf(p.product_id))} onChange={(x) => set(p, qty(x.currentTarget.value))} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Terminals among the entries: the terminal product (id 1) and products of kind terminal. */
export function terminalCount(items: readonly OrderBillingItemEntry[], terminalProductIds: ReadonlySet<number>): number {
  return items.filter((i) => i.productId != null && terminalProductIds.has(i.productId)).reduce((n, i) => n + i.quantity, 0);
}
