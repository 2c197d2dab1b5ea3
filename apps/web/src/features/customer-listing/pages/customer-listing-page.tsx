import {
  Alert,
  Anchor,
  Autocomplete,
  Badge,
  Button,
  Group,
  NativeSelect,
  Progress,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
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
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable } from '../../../components/list/data-table';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import { datedFileName } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import { countryName, formatCents, formatCount, formatDate, humanize } from '../../../lib/format';
import type { StreamProgress } from '../../../lib/stream-download';
import {
  exportListing,
  getListingOptionsQueryOptions,
  getListingQueryOptions,
  LISTING_PAGE_SIZE,
  NO_LISTING_FILTERS,
  type ListingFilters,
} from '../api/customer-listing';

/** The URL query key of each filter. */
const URL_KEYS: Readonly<Record<keyof ListingFilters, string>> = {
  status: 'status',
  country: 'country',
  state: 'state',
  salesRep: 'sales_rep',
  agentId: 'agent_id',
  plan: 'plan',
  balance: 'balance',
  balanceMin: 'balance_min',
  license: 'license',
};

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...STORE_STATUS_VALUES.map((s) => ({ value: s, label: humanize(s) })),
];
const COUNTRY_OPTIONS = [
  { value: '', label: 'Any country' },
  { value: 'US', label: countryName('US') },
  { value: 'CA', label: countryName('CA') },
];
const PLAN_OPTIONS = [
  { value: '', label: 'Any plan' },
  ...LISTING_PLAN_KINDS.map((p) => ({ value: p, label: LISTING_PLAN_LABELS[p] })),
];
const BALANCE_OPTIONS = [
  { value: '', label: 'Any balance' },
  { value: 'with', label: 'With an open balance' },
  { value: 'without', label: 'Nothing open' },
];
const LICENSE_OPTIONS = [
  { value: '', label: 'Any license state' },
  ...LISTING_LICENSE_STATES.map((s) => ({ value: s, label: LICENSE_STATUS_LABELS[s] })),
];

/** The state list follows the country: one country's states, or both countries' in groups. */
function stateOptions(country: string) {
  const any = { value: '', label: 'Any state / province' };
  if (country) return [any, ...statesFor(country).map((s) => ({ value: s.code, label: s.name }))];
  return [
    any,
    { group: countryName('US'), items: US_STATES.map((s) => ({ value: s.code, label: s.name })) },
    { group: countryName('CA'), items: CA_PROVINCES.map((s) => ({ value: s.code, label: s.name })) },
  ];
}

function SortHeader(props: { column: string; sort: string; onSort: (s: string) => void; children: ReactNode }) {
  const { column, sort, onSort, children } = props;
  const direction = sort === column ? 'asc' : sort === `-${column}` ? 'desc' : null;
  return (
    <Table.Th scope="col" aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}>
      <UnstyledButton onClick={() => onSort(direction === 'asc' ? `-${column}` : column)} fw={700} fz="sm">
        {children}
        <span aria-hidden="true">
          {'\u00a0'}
          {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
        </span>
      </UnstyledButton>
    </Table.Th>
  );
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
 * filters kept in the URL query, server sort and paging, and a CSV of every filtered row that streams with a
 * progress bar and can be cancelled.
 */
export default function CustomerListingPage() {
  const [search, setSearch] = useSearchParams();
  const applied: ListingFilters = Object.fromEntries(
    (Object.keys(URL_KEYS) as (keyof ListingFilters)[]).map((k) => [k, search.get(URL_KEYS[k]) ?? '']),
  ) as unknown as ListingFilters;
  const page = Math.max(1, Math.trunc(Number(search.get('page'))) || 1);
  const sort = search.get('sort') ?? '';
  const [draft, setDraft] = useState<ListingFilters>(() => ({
    ...applied,
    balanceMin:
      applied.balanceMin && /^\d+$/.test(applied.balanceMin) ? centsToDecimal(Number(applied.balanceMin)) : '',
  }));
  const [minError, setMinError] = useState<string | null>(null);

  const list = useQuery(getListingQueryOptions({ ...applied, page, sort }));
  const options = useQuery(getListingOptionsQueryOptions());
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const capped = list.data?.total_capped ?? false;

  const [progress, setProgress] = useState<StreamProgress | null>(null);
  const abort = useRef<AbortController | null>(null);

  function navigate(next: { filters?: ListingFilters; page?: number; sort?: string }) {
    const filters = next.filters ?? applied;
    const params = new URLSearchParams();
    for (const k of Object.keys(URL_KEYS) as (keyof ListingFilters)[])
      if (filters[k].trim()) params.set(URL_KEYS[k], filters[k].trim());
    const s = next.sort ?? sort;
    if (s) params.set('sort', s);
    const p = next.page ?? page;
    if (p > 1) params.set('page', String(p));
    setSearch(params);
  }

  const set =
    <K extends keyof ListingFilters>(key: K) =>
    (value: string) =>
      setDraft((d) => {
        const next = { ...d, [key]: value };
        // The state list follows the country: a state of another country is cleared.
        if (key === 'country' && value && next.state && !statesFor(value).some((s) => s.code === next.state))
          next.state = '';
        return next;
      });

  function apply(e: FormEvent) {
    e.preventDefault();
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
    navigate({ filters: { ...draft, balanceMin }, page: 1 });
  }
  function clear() {
    setDraft(NO_LISTING_FILTERS);
    setMinError(null);
    navigate({ filters: NO_LISTING_FILTERS, page: 1 });
  }
  const onSort = (s: string) => navigate({ sort: s, page: 1 });

  async function exportCsv() {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ rows: 0, bytes: 0, total: null });
    try {
      const done = await exportListing(
        applied,
        datedFileName('customer-listing', 'csv'),
        controller.signal,
        setProgress,
      );
      notifications.show({
        color: 'green',
        title: 'Export ready',
        message: `${formatCount(done.rows)} ${done.rows === 1 ? 'row' : 'rows'} saved as CSV.`,
      });
    } catch (error) {
      if (controller.signal.aborted) {
        notifications.show({ title: 'Export cancelled', message: 'Nothing was saved.' });
      } else {
        const { title, message } = describeError(error);
        notifications.show({ color: 'red', title, message, autoClose: 8000 });
      }
    } finally {
      abort.current = null;
      setProgress(null);
    }
  }

  const columns = [
    <SortHeader key="customer" column="customer" sort={sort || 'customer'} onSort={onSort}>
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
    <SortHeader key="balance" column="balance" sort={sort} onSort={onSort}>
      Open balance
    </SortHeader>,
    <SortHeader key="license_expires_on" column="license_expires_on" sort={sort} onSort={onSort}>
      License
    </SortHeader>,
  ];

  const percent = progress?.total ? Math.min(100, (progress.rows / progress.total) * 100) : 0;

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Customer listing
      </Title>
      <form onSubmit={apply} aria-label="Filter customer listing">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <NativeSelect
            label="Status"
            data={STATUS_OPTIONS}
            value={draft.status}
            onChange={(e) => set('status')(e.currentTarget.value)}
            w={150}
          />
          <NativeSelect
            label="Country"
            data={COUNTRY_OPTIONS}
            value={draft.country}
            onChange={(e) => set('country')(e.currentTarget.value)}
            w={170}
          />
          <NativeSelect
            label="State / province"
            data={stateOptions(draft.country)}
            value={draft.state}
            onChange={(e) => set('state')(e.currentTarget.value)}
            w={210}
          />
          <Autocomplete
            label="Sales rep"
            data={options.data?.sales_reps ?? []}
            value={draft.salesRep}
            onChange={set('salesRep')}
            w={200}
          />
          <NativeSelect
            label="Agent"
            data={[
              { value: '', label: 'Any agent' },
              ...(options.data?.agents ?? []).map((a) => ({ value: String(a.agent_id), label: a.name })),
            ]}
            value={draft.agentId}
            onChange={(e) => set('agentId')(e.currentTarget.value)}
            w={200}
          />
        </Group>
        <Group align="flex-start" gap="sm" wrap="wrap" mt="sm">
          <NativeSelect
            label="Plan"
            data={PLAN_OPTIONS}
            value={draft.plan}
            onChange={(e) => set('plan')(e.currentTarget.value)}
            w={170}
          />
          <NativeSelect
            label="Balance"
            data={BALANCE_OPTIONS}
            value={draft.balance}
            onChange={(e) => set('balance')(e.currentTarget.value)}
            w={200}
          />
          <TextInput
            label="Open balance at least"
            inputMode="decimal"
            value={draft.balanceMin}
            onChange={(e) => set('balanceMin')(e.currentTarget.value)}
            error={minError}
            w={170}
          />
          <NativeSelect
            label="License state"
            data={LICENSE_OPTIONS}
            value={draft.license}
            onChange={(e) => set('license')(e.currentTarget.value)}
            w={240}
          />
          <Group gap="xs" mt={24}>
            <Button type="submit">Apply filters</Button>
            <Button variant="subtle" onClick={clear}>
              Clear filters
            </Button>
          </Group>
        </Group>
      </form>
      <Group justify="flex-end" align="center">
        {progress && (
          <Stack gap={4} w={320}>
            <Progress
              value={percent}
              animated={!progress.total}
              aria-label="Export progress"
              aria-valuetext={`${progress.rows} rows`}
            />
            <Text size="sm" role="status">
              {progress.total !== null
                ? `${formatCount(progress.rows)} of ${formatCount(progress.total)} rows`
                : `${formatCount(progress.rows)} rows`}
            </Text>
          </Stack>
        )}
        {progress ? (
          <Button variant="default" color="red" onClick={() => abort.current?.abort()}>
            Cancel export
          </Button>
        ) : (
          <Button variant="default" onClick={() => void exportCsv()} disabled={total === 0}>
            Export CSV
          </Button>
        )}
      </Group>
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
      <DataTable
        caption={
          list.isPending
            ? 'Stores (loading…)'
            : `Stores — ${formatTotal(total, capped)} ${total === 1 && !capped ? 'match' : 'matches'}`
        }
        columns={columns}
        minWidth={1200}
        rowCount={items.length}
        emptyText={list.isPending ? 'Loading…' : 'No stores match. Change or clear the filters.'}
        highlightOnHover
      >
        {items.map((r) => (
          <Table.Tr key={r.store_id}>
            <Table.Td>
              <Anchor component={Link} to={`/customer?id=${r.customer_id}&store=${r.store_id}`} fz="sm">
                {r.legal_name}
              </Anchor>
              <Text component="span" size="xs" c="dimmed" display="block">
                Customer {r.customer_id} · {humanize(r.customer_status)}
              </Text>
            </Table.Td>
            <Table.Td>
              {r.doing_business_as}
              <Text component="span" size="xs" c="dimmed" display="block">
                Store {r.store_id}
                {r.store_name !== r.doing_business_as ? ` · ${r.store_name}` : ''}
              </Text>
            </Table.Td>
            <Table.Td>{humanize(r.store_status)}</Table.Td>
            <Table.Td>
              {countryName(r.country)} · {r.state}
            </Table.Td>
            <Table.Td>{r.sales_rep ?? '—'}</Table.Td>
            <Table.Td>{r.agents ?? '—'}</Table.Td>
            <Table.Td>{r.plan_name ?? LISTING_PLAN_LABELS.none}</Table.Td>
            <Table.Td>{formatCents(r.open_balance_cents, r.currency)}</Table.Td>
            <Table.Td>
              <Badge color={LICENSE_COLORS[r.license_state]} variant="light">
                {LICENSE_STATUS_LABELS[r.license_state]}
              </Badge>
              <Text component="span" size="xs" c="dimmed" display="block">
                {r.license_expires_on ? `Expires ${formatDate(r.license_expires_on)}` : 'No expiry recorded'}
              </Text>
            </Table.Td>
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
        onChange={(p) => navigate({ page: p })}
        hideSinglePage
      />
    </Stack>
  );
}
