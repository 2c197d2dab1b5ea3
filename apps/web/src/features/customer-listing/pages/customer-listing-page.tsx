import { Anchor, Autocomplete, Badge, Stack, Table, Text, Title } from '@mantine/core';
import {
  CA_PROVINCES,
  LICENSE_STATUS_LABELS,
  LISTING_LICENSE_STATES,
  LISTING_PLAN_KINDS,
  LISTING_PLAN_LABELS,
  STORE_STATUS_VALUES,
  US_STATES,
  centsToDecimal,
  statesFor,
  toCents,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  bindFilter,
  DataTable,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FilterAmount,
  FilterBar,
  filterOptions,
  FilterMultiSelect,
  FilterSelect,
  ListError,
  listCaption,
  ListPagination,
  NoWrapCell,
  SortHeader,
  useListState,
} from '../../../components/list';
import { datedFileName } from '../../../lib/download';
import { countryName, formatCents, formatDate, humanize } from '../../../lib/format';
import {
  exportListing,
  getListingOptionsQueryOptions,
  getListingQueryOptions,
  LISTING_PAGE_SIZE,
  NO_LISTING_FILTERS,
  type ListingFilters,
} from '../api/customer-listing';

/** The address keys of the filters that are not their own name; the minimum balance is in cents there. */
const LIST_OPTIONS = {
  defaults: NO_LISTING_FILTERS,
  keys: { salesRep: 'sales_rep', agentId: 'agent_id', balanceMin: 'balance_min' },
  defaultSort: 'customer',
  // The field shows dollars: '10000' in the address reads '100.00'.
  toDraft: (applied: ListingFilters): ListingFilters => ({
    ...applied,
    balanceMin: /^\d+$/.test(applied.balanceMin) ? centsToDecimal(Number(applied.balanceMin)) : '',
  }),
} as const;

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...STORE_STATUS_VALUES.map((s) => ({ value: s, label: humanize(s) })),
];
const COUNTRY_OPTIONS = [
  { value: '', label: 'Any country' },
  { value: 'US', label: countryName('US') },
  { value: 'CA', label: countryName('CA') },
];
const PLAN_OPTIONS = filterOptions('Any plan', LISTING_PLAN_KINDS, LISTING_PLAN_LABELS);
const BALANCE_OPTIONS = [
  { value: '', label: 'Any balance' },
  { value: 'with', label: 'With an open balance' },
  { value: 'without', label: 'Nothing open' },
];
const LICENSE_OPTIONS = filterOptions('Any license state', LISTING_LICENSE_STATES, LICENSE_STATUS_LABELS);

/** The state list follows the country: one country's states, or both countries' (the name says which country). */
function stateOptions(country: string) {
  if (country) return statesFor(country).map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }));
  return [
    ...US_STATES.map((s) => ({ value: s.code, label: `${s.name} (${s.code}, ${countryName('US')})` })),
    ...CA_PROVINCES.map((s) => ({ value: s.code, label: `${s.name} (${s.code}, ${countryName('CA')})` })),
  ];
}

/** '1,250.50' / '$100' → cents; null when it is not an amount of at least 0. */
function parseCents(text: string): number | null {
  try {
    const cents = toCents(text.trim().replace(/[$,\s]/g, ''));
    return cents >= 0 ? cents : null;
  } catch {
    return null;
  }
}

const LICENSE_COLORS = { active: 'green', grace: 'yellow', expired: 'red', disabled: 'gray' } as const;

/**
 * #/customer-listing (privilege `reports_edit`; issue 18 part 2, decision 130): every store with its customer —
 * filters, sort and page kept in the URL query (issue 30's list kit: Back, reload and a copied link show the same
 * view), server sort and paging, and a CSV of every filtered row that streams with a progress bar and can be
 * cancelled.
 */
export default function CustomerListingPage() {
  const list = useListState<ListingFilters>(LIST_OPTIONS);
  const { applied, draft, page, sort } = list;
  const [minError, setMinError] = useState<string | null>(null);

  // The server sorts by customer when asked nothing.
  const listing = useQuery(
    getListingQueryOptions({ ...applied, page, sort: sort === LIST_OPTIONS.defaultSort ? '' : (sort ?? '') }),
  );
  const options = useQuery(getListingOptionsQueryOptions());
  const items = listing.data?.items ?? [];
  const total = listing.data?.total ?? 0;
  const capped = listing.data?.total_capped ?? false;

  const set =
    <K extends keyof ListingFilters>(key: K) =>
    (value: string) =>
      list.setDraft((d) => {
        const next = { ...d, [key]: value };
        // The state list follows the country: the states of another country are taken off.
        if (key === 'country' && value && next.state)
          next.state = next.state
            .split(',')
            .filter((code) => statesFor(value).some((s) => s.code === code))
            .join(',');
        return next;
      });
  const field = bindFilter({ draft, set }, { balanceMin: minError });

  function apply() {
    let balanceMin = '';
    if (draft.balanceMin.trim()) {
      const cents = parseCents(draft.balanceMin);
      if (cents === null) {
        setMinError('Enter an amount such as 100 or 99.50.');
        return;
      }
      balanceMin = String(cents);
    }
    setMinError(null);
    list.apply({ ...draft, balanceMin });
  }
  function clear() {
    setMinError(null);
    list.clear();
  }
  const onSort = list.setSort;

  const columns = [
    <SortHeader key="customer" column="customer" sort={sort} onSort={onSort}>
      Customer
    </SortHeader>,
    <SortHeader key="store" column="store" sort={sort} onSort={onSort}>
      Store
    </SortHeader>,
    'Status',
    <SortHeader key="state" column="state" sort={sort} onSort={onSort}>
      Country / state
    </SortHeader>,
    <SortHeader key="sales_rep" column="sales_rep" sort={sort} onSort={onSort}>
      Sales rep
    </SortHeader>,
    'Agent',
    'Plan',
    <SortHeader key="balance" column="balance" sort={sort} onSort={onSort} numeric>
      Open balance
    </SortHeader>,
    <SortHeader key="license_expires_on" column="license_expires_on" sort={sort} onSort={onSort}>
      License
    </SortHeader>,
  ];

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Customer listing
      </Title>
      <FilterBar label="Filter customer listing" onApply={apply} onClear={clear} applyLabel="Apply filters">
        <FilterSelect label="Status" data={STATUS_OPTIONS} w={150} {...field('status')} />
        <FilterSelect label="Country" data={COUNTRY_OPTIONS} w={170} {...field('country')} />
        <FilterMultiSelect
          label="State / province"
          options={stateOptions(draft.country)}
          placeholder="Any state / province"
          w={230}
          {...field('state')}
        />
        <Autocomplete
          label="Sales rep"
          data={options.data?.sales_reps ?? []}
          value={draft.salesRep}
          onChange={set('salesRep')}
          w={200}
        />
        <FilterMultiSelect
          label="Agent"
          options={(options.data?.agents ?? []).map((a) => ({ value: String(a.agent_id), label: a.name }))}
          placeholder="Any agent"
          w={230}
          {...field('agentId')}
        />
        <FilterSelect label="Plan" data={PLAN_OPTIONS} w={170} {...field('plan')} />
        <FilterSelect label="Balance" data={BALANCE_OPTIONS} {...field('balance')} />
        <FilterAmount label="Open balance at least" w={170} {...field('balanceMin')} />
        <FilterSelect label="License state" data={LICENSE_OPTIONS} w={240} {...field('license')} />
      </FilterBar>
      <ExportCsvButton
        run={({ signal, onProgress }) =>
          exportListing(applied, datedFileName('customer-listing', 'csv'), signal, onProgress)
        }
        disabled={total === 0}
      />
      <ListError error={listing.error} />
      <DataTable
        caption={listCaption('Stores', { isPending: listing.isPending, total, capped })}
        columns={columns}
        minWidth={1200}
        rowCount={items.length}
        emptyText={emptyListText(listing.isPending, 'No stores match. Change or clear the filters.')}
        highlightOnHover
      >
        {items.map((r) => (
          <Table.Tr key={r.store_id}>
            <Table.Td>
              <Anchor component={Link} to={`/customer?id=${r.customer_id}&store=${r.store_id}`} fz="sm">
                {r.legal_name}
              </Anchor>
              <Text component="span" size="xs" c="dimmed" display="block">
                <Anchor component={Link} to={`/customer?id=${r.customer_id}`} inherit>
                  Customer {r.customer_id}
                </Anchor>{' '}
                · {humanize(r.customer_status)}
              </Text>
            </Table.Td>
            <Table.Td>
              {r.doing_business_as}
              <Text component="span" size="xs" c="dimmed" display="block">
                <Anchor component={Link} to={`/customer?id=${r.customer_id}&store=${r.store_id}`} inherit>
                  Store {r.store_id}
                </Anchor>
                {r.store_name !== r.doing_business_as ? ` · ${r.store_name}` : ''}
              </Text>
            </Table.Td>
            <NoWrapCell>{humanize(r.store_status)}</NoWrapCell>
            <Table.Td>
              {countryName(r.country)} · {r.state}
            </Table.Td>
            <Table.Td>{r.sales_rep ?? '—'}</Table.Td>
            <Table.Td>{r.agents ?? '—'}</Table.Td>
            <Table.Td>{r.plan_name ?? LISTING_PLAN_LABELS.none}</Table.Td>
            <FigureCell>{formatCents(r.open_balance_cents, r.currency)}</FigureCell>
            <NoWrapCell>
              <Badge color={LICENSE_COLORS[r.license_state]} variant="light">
                {LICENSE_STATUS_LABELS[r.license_state]}
              </Badge>
              <Text component="span" size="xs" c="dimmed" display="block">
                {r.license_expires_on ? `Expires ${formatDate(r.license_expires_on)}` : 'No expiry recorded'}
              </Text>
            </NoWrapCell>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Customer listing pages"
        total={total}
        totalCapped={capped}
        pageRows={items.length}
        pageSize={LISTING_PAGE_SIZE}
        page={page}
        onChange={list.setPage}
        hideSinglePage
      />
    </Stack>
  );
}
