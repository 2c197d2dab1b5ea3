import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getBundleCatalogueQueryOptions, getBundlePriceOptionsQueryOptions } from '../../../api/catalogue';
import {
  bindFilter,
  DataTable,
  emptyListText,
  FigureCell,
  FigureHeader,
  FilterBar,
  FilterCurrency,
  FilterId,
  FilterSelect,
  ListError,
  listCaption,
  notAnId,
  NoWrapCell,
  useCheckedFilters,
  useListState,
} from '../../../components/list';
import { formatCents } from '../../../lib/format';
import { lookupCurrency } from './lookup-currency';

interface BundlePriceFilters {
  readonly currency: string;
  readonly bundle: string;
  /** Only this reference's options (5 = the yearly plan); '' for every option. */
  readonly reference: string;
}

/** `#/lookups?tab=bundle-prices&currency=CAD&bundle_id=9&reference_id=5`. */
const LIST_OPTIONS = {
  defaults: { currency: 'USD', bundle: '', reference: '' } satisfies BundlePriceFilters,
  keys: { bundle: 'bundle_id', reference: 'reference_id' },
} as const;

/** '1 month', '12 months'. */
function termText(months: number): string {
  return months === 1 ? '1 month' : `${months} months`;
}

/**
 * A bundle's price options (GET bundles/billingitempriceoptions?bundle_id&currency&reference_id): pick the currency
 * and a bundle (from GET bundles/all in that currency), optionally a reference id; "Show price options" puts the
 * choice in the address and lists each billing item's options with their term and price.
 */
export function BundlePricesLookup() {
  const list = useListState<BundlePriceFilters>(LIST_OPTIONS);
  const { applied, draft } = list;
  const { errors, apply, clear } = useCheckedFilters(list, (d) => ({
    bundle: d.bundle === '' ? 'Choose a bundle.' : undefined,
    reference: notAnId(d.reference, 'reference'),
  }));
  const field = bindFilter(list, errors);

  // The bundles to choose from, in the currency being chosen; those of the shown currency name the table.
  const choices = useQuery(getBundleCatalogueQueryOptions(lookupCurrency(draft.currency)));
  const shownCurrency = lookupCurrency(applied.currency);
  const shownBundles = useQuery({
    ...getBundleCatalogueQueryOptions(shownCurrency),
    enabled: applied.bundle !== '',
  });
  const bundleId = Number(applied.bundle);
  const shown = applied.bundle !== '' && Number.isSafeInteger(bundleId) && bundleId > 0;
  const options = useQuery({
    ...getBundlePriceOptionsQueryOptions({
      bundleId,
      currency: shownCurrency,
      referenceId: applied.reference.trim() === '' ? null : Number(applied.reference),
    }),
    enabled: shown,
  });
  const rows = options.data?.options ?? [];
  const bundleName =
    shownBundles.data?.bundles.find((b) => b.bundle_id === bundleId)?.name ?? `Bundle ${applied.bundle}`;

  const bundleOptions = [
    { value: '', label: choices.isPending ? 'Loading bundles…' : 'Choose a bundle' },
    ...(choices.data?.bundles ?? []).map((b) => ({ value: String(b.bundle_id), label: b.name })),
  ];

  return (
    <>
      <FilterBar label="Choose a bundle" onApply={apply} onClear={clear} applyLabel="Show price options">
        <FilterCurrency anyLabel={null} {...field('currency')} />
        <FilterSelect label="Bundle" data={bundleOptions} w={300} {...field('bundle')} />
        <FilterId label="Reference id (optional)" description="5 = the yearly plan" w={190} {...field('reference')} />
      </FilterBar>
      <ListError error={choices.error ?? options.error} />
      {shown ? (
        <DataTable
          caption={listCaption(
            `Price options of ${bundleName} in ${shownCurrency}`,
            { isPending: options.isPending, total: rows.length },
            { one: 'option', many: 'options' },
          )}
          columns={['Billing item', 'Option', 'Applies to', 'Term', <FigureHeader key="price">Price</FigureHeader>]}
          minWidth={720}
          rowCount={rows.length}
          emptyText={emptyListText(
            options.isPending,
            applied.reference === ''
              ? `This bundle has no price options in ${shownCurrency}.`
              : `This bundle has no price options for reference ${applied.reference}. Clear the reference id to see every option.`,
          )}
        >
          {rows.map((o) => (
            <Table.Tr key={o.price_option_id}>
              <Table.Td>{o.billing_item_name}</Table.Td>
              <Table.Td>{o.label}</Table.Td>
              <Table.Td>{o.reference_id === null ? 'Base price' : `Reference ${o.reference_id}`}</Table.Td>
              <NoWrapCell>{termText(o.term)}</NoWrapCell>
              <FigureCell>{formatCents(o.price_cents, shownCurrency)}</FigureCell>
            </Table.Tr>
          ))}
        </DataTable>
      ) : (
        <Text c="dimmed">Choose a currency and a bundle, then press Show price options.</Text>
      )}
    </>
  );
}
