import { Badge, Table } from '@mantine/core';
import type { CatalogueBillingItem } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { getBillingItemCatalogueQueryOptions, getBillingItemCategoriesQueryOptions } from '../../../api/catalogue';
import {
  DataTable,
  emptyListText,
  FigureCell,
  FigureHeader,
  FilterCurrency,
  FilterSelect,
  ListError,
  listCaption,
  LiveFilterBar,
  useListState,
} from '../../../components/list';
import { formatCents } from '../../../lib/format';
import { lookupCurrency } from './lookup-currency';

interface BillingItemFilters {
  readonly currency: string;
  /** A category id, NO_CATEGORY, or '' for every category. */
  readonly category: string;
}

const NO_CATEGORY = 'none';
/** `#/lookups?currency=CAD&category=3`. */
const LIST_OPTIONS = { defaults: { currency: 'USD', category: '' } satisfies BillingItemFilters } as const;

function inCategory(item: CatalogueBillingItem, category: string): boolean {
  if (category === '') return true;
  if (category === NO_CATEGORY) return item.category === null;
  return String(item.category?.id ?? '') === category;
}

/**
 * Billing items (GET customers/billingitems/all?currency) with their catalogue price in the chosen currency, by
 * category then name (the server's order); the category filter's choices are GET customers/billingitemcategories.
 * Both filters apply as they change and live in the address.
 */
export function BillingItemsLookup() {
  const list = useListState<BillingItemFilters>(LIST_OPTIONS);
  const { applied } = list;
  const currency = lookupCurrency(applied.currency);
  const catalogue = useQuery(getBillingItemCatalogueQueryOptions({ currency }));
  const categories = useQuery(getBillingItemCategoriesQueryOptions());
  const items = (catalogue.data?.billing_items ?? []).filter((item) => inCategory(item, applied.category));
  const categoryOptions = [
    { value: '', label: 'Any category' },
    ...(categories.data?.categories ?? []).map((c) => ({ value: String(c.id), label: c.name })),
    { value: NO_CATEGORY, label: 'Without a category' },
  ];
  const show = (next: Partial<BillingItemFilters>) => list.apply({ ...applied, ...next });

  return (
    <>
      <LiveFilterBar label="Filter billing items">
        <FilterCurrency anyLabel={null} value={currency} onChange={(c) => show({ currency: c })} />
        <FilterSelect
          label="Category"
          data={categoryOptions}
          value={applied.category}
          onChange={(category) => show({ category })}
          w={240}
        />
      </LiveFilterBar>
      <ListError error={catalogue.error ?? categories.error} />
      <DataTable
        caption={listCaption(
          'Billing items',
          { isPending: catalogue.isPending, total: items.length },
          { one: 'item', many: 'items' },
        )}
        columns={['Billing item', 'Category', 'Charged per', 'Kind', <FigureHeader key="price">Price</FigureHeader>]}
        minWidth={720}
        rowCount={items.length}
        emptyText={emptyListText(
          catalogue.isPending,
          applied.category === ''
            ? 'There are no active billing items.'
            : 'No billing item is in this category. Choose another category.',
        )}
      >
        {items.map((item) => (
          <Table.Tr key={item.billing_item_id}>
            <Table.Td>
              {item.name}
              {item.feature === 'Y' && (
                <Badge ml="xs" variant="light" size="xs">
                  Feature
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{item.category?.name ?? 'Without a category'}</Table.Td>
            <Table.Td>{item.charge_at_level === 'C' ? 'Customer' : 'Store'}</Table.Td>
            <Table.Td>{item.recurring ? 'Recurring' : 'One-time'}</Table.Td>
            <FigureCell>
              {item.unit_price_cents === null
                ? `No ${currency} price`
                : formatCents(item.unit_price_cents, item.currency)}
            </FigureCell>
          </Table.Tr>
        ))}
      </DataTable>
    </>
  );
}
