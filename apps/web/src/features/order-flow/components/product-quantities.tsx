import { Table, TextInput } from '@mantine/core';
import { centsToDecimal, isOfferedOnOrders, type CurrencyCode, type OrderBillingItemEntry } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { getBillingItemCatalogueQueryOptions, getProductsQueryOptions } from '../../../api/catalogue';
import { Spinner } from '../../../components/spinner';
import { formatCents } from '../../../lib/format';

const qty = (text: string) => Math.max(0, Math.min(999, Number.parseInt(text, 10) || 0));

/** The catalogue's products in the order's currency with a quantity each (BillingItemInfo entries); `onChange` gets the whole list. */
export function ProductQuantities(props: {
  readonly currency: CurrencyCode;
  readonly items: readonly OrderBillingItemEntry[];
  readonly onChange: (items: OrderBillingItemEntry[]) => void;
  readonly disabled?: boolean;
}) {
  const products = useQuery(getProductsQueryOptions(props.currency));
  if (products.isPending) return <Spinner busy />;
  const quantityOf = (productId: number) => props.items.find((i) => i.productId === productId)?.quantity ?? 0;
  const set = (p: { product_id: number; name: string; unit_price_cents: number | null }, quantity: number) => {
    const rest = props.items.filter((i) => i.productId !== p.product_id);
    const entry: OrderBillingItemEntry = {
      billingItemId: 0,
      productId: p.product_id,
      name: p.name,
      quantity,
      unitPrice: centsToDecimal(p.unit_price_cents ?? 0),
    };
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
            <Table.Td ta="right">
              {p.unit_price_cents == null ? '—' : formatCents(p.unit_price_cents, props.currency)}
            </Table.Td>
            <Table.Td>
              <TextInput
                aria-label={`Quantity of ${p.name}`}
                type="number"
                min={0}
                w={90}
                disabled={props.disabled}
                value={String(quantityOf(p.product_id))}
                onChange={(x) => set(p, qty(x.currentTarget.value))}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Terminals among the entries: the terminal product (id 1) and products of kind terminal. */
export function terminalCount(
  items: readonly OrderBillingItemEntry[],
  terminalProductIds: ReadonlySet<number>,
): number {
  return items
    .filter((i) => i.productId != null && terminalProductIds.has(i.productId))
    .reduce((n, i) => n + i.quantity, 0);
}

/**
 * One-time charges from the billing-item catalogue (active, not recurring, with a price in the currency: shipping,
 * promotions…), never an internal fee item the provider bills itself — tax, cancellation, failed payment, restocking
 * (the domain's isOfferedOnOrders; decision 149); kept as BillingItemInfo entries without a product id.
 */
export function ChargeQuantities(props: {
  readonly currency: CurrencyCode;
  readonly items: readonly OrderBillingItemEntry[];
  readonly onChange: (items: OrderBillingItemEntry[]) => void;
}) {
  const catalogue = useQuery(getBillingItemCatalogueQueryOptions({ currency: props.currency }));
  if (catalogue.isPending) return <Spinner busy />;
  const charges = (catalogue.data?.billing_items ?? []).filter(
    (b) => b.active && !b.recurring && b.unit_price_cents != null && isOfferedOnOrders(b.billing_item_id),
  );
  const quantityOf = (id: number) =>
    props.items.find((i) => i.productId == null && i.billingItemId === id)?.quantity ?? 0;
  const set = (b: (typeof charges)[number], quantity: number) => {
    const rest = props.items.filter((i) => !(i.productId == null && i.billingItemId === b.billing_item_id));
    const entry: OrderBillingItemEntry = {
      billingItemId: b.billing_item_id,
      productId: null,
      name: b.name,
      quantity,
      unitPrice: centsToDecimal(b.unit_price_cents ?? 0),
    };
    props.onChange(quantity > 0 ? [...rest, entry] : rest);
  };
  return (
    <Table aria-label="One-time charges">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Charge</Table.Th>
          <Table.Th ta="right">Unit price</Table.Th>
          <Table.Th>Quantity</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {charges.map((b) => (
          <Table.Tr key={b.billing_item_id}>
            <Table.Td>{b.name}</Table.Td>
            <Table.Td ta="right">{formatCents(b.unit_price_cents ?? 0, props.currency)}</Table.Td>
            <Table.Td>
              <TextInput
                aria-label={`Quantity of ${b.name}`}
                type="number"
                min={0}
                w={90}
                value={String(quantityOf(b.billing_item_id))}
                onChange={(x) => set(b, qty(x.currentTarget.value))}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
