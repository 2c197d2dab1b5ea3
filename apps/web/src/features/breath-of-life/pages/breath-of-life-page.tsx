import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import {
  WINBACK_REASON_LABELS,
  WINBACK_REASONS,
  WINBACK_STATUS_LABELS,
  WINBACK_STATUSES,
  WINBACK_TEXT_MIN,
  type WinbackItem,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  bindFilter,
  DataTable,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FilterBar,
  filterOptions,
  FilterSelect,
  FilterText,
  listCaption,
  ListError,
  ListPagination,
  NoWrapCell,
  SortHeader,
  textTooShort,
  useCheckedFilters,
  useListState,
} from '../../../components/list';
import { countryName, formatCents, formatDate, formatDateTime } from '../../../lib/format';
import {
  exportWinback,
  NO_WINBACK_FILTERS,
  WINBACK_PAGE_SIZE,
  winbackListQueryOptions,
  type WinbackFilters,
  type WinbackListParams,
} from '../api/breath-of-life';
import { CaseDrawer } from '../components/case-drawer';

const REASON_OPTIONS = filterOptions('Lapsed or canceled', WINBACK_REASONS, WINBACK_REASON_LABELS);
const COUNTRY_OPTIONS = [
  { value: '', label: 'Any country' },
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
];
const STATUS_OPTIONS = filterOptions('Any status', WINBACK_STATUSES, WINBACK_STATUS_LABELS);
const STATUS_COLORS: Record<string, string> = {
  new: 'gray',
  contacted: 'blue',
  offer_made: 'violet',
  won: 'green',
  lost: 'red',
};

/**
 * The work list's state in the address (issue 30): `#/breathoflife?reason=lapsed&status=new&sort=customer&store=500010`
 * — the open case is `store`, so a link opens it.
 */
const LIST_OPTIONS = { defaults: NO_WINBACK_FILTERS, defaultSort: 'days_since', selectedKey: 'store' } as const;

/** The store id of `?store=…`: a positive whole number, else null. */
function storeIdOf(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

/**
 * #/breathoflife (privilege breath_of_life; decision 131): the win-back work list — stores whose license lapsed or
 * whose plan was canceled past the grace — filtered, sorted and paged on the server, the latest first; a row opens
 * the store's case (log a call, make an offer, record the outcome, reactivate). Filters, sort, page and the open case
 * are in the address.
 */
export default function BreathOfLifePage() {
  const list = useListState<WinbackFilters>(LIST_OPTIONS);
  const { applied, page, sort } = list;
  const { errors, apply, clear } = useCheckedFilters(list, (d) => ({ q: textTooShort(d.q, WINBACK_TEXT_MIN) }));
  const field = bindFilter(list, errors);
  const open = storeIdOf(list.selected);

  const params: WinbackListParams = { ...applied, page, sort: sort === LIST_OPTIONS.defaultSort ? null : sort };
  const stores = useQuery(winbackListQueryOptions(params));
  const items = stores.data?.items ?? [];
  const total = stores.data?.total ?? 0;

  const onSort = list.setSort;

  const columns = [
    <SortHeader key="store" column="store" sort={sort} onSort={onSort}>
      Store
    </SortHeader>,
    <SortHeader key="customer" column="customer" sort={sort} onSort={onSort}>
      Merchant
    </SortHeader>,
    'Contact',
    <SortHeader key="country" column="country" sort={sort} onSort={onSort}>
      Country
    </SortHeader>,
    'Last invoice',
    'Reason',
    <SortHeader key="days_since" column="days_since" sort={sort} onSort={onSort} numeric>
      Days since
    </SortHeader>,
    'Status',
    <SortHeader key="last_activity_at" column="last_activity_at" sort={sort} onSort={onSort}>
      Last activity
    </SortHeader>,
  ];

  const row = (s: WinbackItem) => (
    <Table.Tr key={s.store_id} aria-selected={s.store_id === open || undefined}>
      <Table.Td>
        <Anchor
          component={Link}
          to={list.hrefFor(s.store_id)}
          fz="sm"
          aria-label={`Open the case of ${s.doing_business_as}`}
        >
          {s.doing_business_as}
        </Anchor>
        <Text component="span" size="xs" c="dimmed" display="block">
          <Anchor component={Link} to={`/customer?id=${s.customer_id}&store=${s.store_id}`} inherit>
            Store {s.store_id}
          </Anchor>
        </Text>
      </Table.Td>
      <Table.Td>
        {s.legal_name}
        <Text component="span" size="xs" c="dimmed" display="block">
          <Anchor component={Link} to={`/customer?id=${s.customer_id}`} inherit>
            Customer {s.customer_id}
          </Anchor>
        </Text>
      </Table.Td>
      <Table.Td>
        {s.contact_name}
        <Text component="span" size="xs" c="dimmed" display="block">
          {[s.phone, s.email].filter(Boolean).join(' · ')}
        </Text>
      </Table.Td>
      <NoWrapCell>{countryName(s.country)}</NoWrapCell>
      <Table.Td>
        {s.last_invoice_number ? (
          <>
            {s.last_invoice_id !== null ? (
              <Anchor component={Link} to={`/view-invoices?id=${s.last_invoice_id}`} inherit>
                {s.last_invoice_number}
              </Anchor>
            ) : (
              s.last_invoice_number
            )}
            <Text component="span" size="xs" c="dimmed" display="block">
              {formatDate(s.last_invoice_on)} · {formatCents(s.last_invoice_cents ?? 0, s.currency)} ·{' '}
              {s.last_invoice_status}
            </Text>
          </>
        ) : (
          '—'
        )}
      </Table.Td>
      <Table.Td>
        {WINBACK_REASON_LABELS[s.reason]} on {formatDate(s.reason_on)}
      </Table.Td>
      <FigureCell>{s.days_since}</FigureCell>
      <NoWrapCell>
        <Badge variant="light" color={STATUS_COLORS[s.status]}>
          {WINBACK_STATUS_LABELS[s.status]}
        </Badge>
      </NoWrapCell>
      <Table.Td>
        {s.last_activity ?? '—'}
        {s.last_activity_at && (
          <Text component="span" size="xs" c="dimmed" display="block">
            {formatDateTime(s.last_activity_at)}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Breath of life
      </Title>
      <Text size="sm" c="dimmed">
        Stores whose license lapsed or whose plan was canceled past the grace period: call them, make an offer, and
        reactivate them.
      </Text>
      <FilterBar label="Filter the win-back list" onApply={apply} onClear={clear}>
        <FilterSelect label="Reason" data={REASON_OPTIONS} w={190} {...field('reason')} />
        <FilterSelect label="Country" data={COUNTRY_OPTIONS} w={160} {...field('country')} />
        <FilterSelect label="Win-back status" data={STATUS_OPTIONS} w={170} {...field('status')} />
        <FilterText label="Merchant or store" description={`At least ${WINBACK_TEXT_MIN} characters`} {...field('q')} />
      </FilterBar>
      <ExportCsvButton run={(ctx) => exportWinback(params, ctx)} disabled={total === 0} />
      <ListError error={stores.error} />
      <DataTable
        caption={listCaption('Win-back list', { isPending: stores.isPending, total }, { one: 'store', many: 'stores' })}
        columns={columns}
        minWidth={1300}
        rowCount={items.length}
        emptyText={emptyListText(stores.isPending, 'No stores match. Change or clear the filters.')}
        highlightOnHover
      >
        {items.map(row)}
      </DataTable>
      <ListPagination
        label="Win-back list pages"
        total={total}
        totalCapped={false}
        pageRows={items.length}
        pageSize={WINBACK_PAGE_SIZE}
        page={page}
        onChange={list.setPage}
        hideSinglePage
      />
      <CaseDrawer storeId={open} onClose={() => list.select(null)} />
    </Stack>
  );
}
