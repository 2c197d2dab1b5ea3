import { Badge, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getTerminalProductsQueryOptions } from '../../../api/catalogue';
import {
  DataTable,
  emptyListText,
  FigureCell,
  FigureHeader,
  FilterCurrency,
  ListError,
  listCaption,
  LiveFilterBar,
  NoWrapCell,
  useListState,
} from '../../../components/list';
import { formatCents, humanize } from '../../../lib/format';
import { lookupCurrency } from './lookup-currency';

/** `#/lookups?tab=terminals&currency=CAD`. */
const LIST_OPTIONS = { defaults: { currency: 'USD' } } as const;

/** Terminal products (GET products/terminals/all?currency): the terminals a merchant can buy, with their price. */
export function TerminalProductsLookup() {
  const list = useListState<{ readonly currency: string }>(LIST_OPTIONS);
  const currency = lookupCurrency(list.applied.currency);
  const products = useQuery(getTerminalProductsQueryOptions(currency));
  const rows = products.data?.products ?? [];

  return (
    <>
      <LiveFilterBar label="Filter terminal products">
        <FilterCurrency anyLabel={null} value={currency} onChange={(c) => list.apply({ currency: c })} />
      </LiveFilterBar>
      <ListError error={products.error} />
      <DataTable
        caption={listCaption(
          'Terminal products',
          { isPending: products.isPending, total: rows.length },
          { one: 'product', many: 'products' },
        )}
        columns={['Product', 'SKU', 'Kind', 'Description', <FigureHeader key="price">Price</FigureHeader>]}
        minWidth={760}
        rowCount={rows.length}
        emptyText={emptyListText(products.isPending, 'There are no active terminal products.')}
      >
        {rows.map((p) => (
          <Table.Tr key={p.product_id}>
            <Table.Td>
              {p.name}
              {p.terminal_product && (
                <Badge ml="xs" variant="light" size="xs">
                  Terminal product
                </Badge>
              )}
              {p.petro_product && (
                <Badge ml="xs" variant="light" size="xs" color="grape">
                  Petro product
                </Badge>
              )}
            </Table.Td>
            <NoWrapCell>{p.sku}</NoWrapCell>
            <Table.Td>{humanize(p.kind)}</Table.Td>
            <Table.Td>{p.description ?? '—'}</Table.Td>
            <FigureCell>
              {p.unit_price_cents === null ? `No ${currency} price` : formatCents(p.unit_price_cents, p.currency)}
            </FigureCell>
          </Table.Tr>
        ))}
      </DataTable>
    </>
  );
}
