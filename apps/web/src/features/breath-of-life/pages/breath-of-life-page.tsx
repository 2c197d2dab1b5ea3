import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  WINBACK_REASON_LABELS,
  WINBACK_REASONS,
  WINBACK_STATUS_LABELS,
  WINBACK_STATUSES,
  WINBACK_TEXT_MIN,
  type WinbackItem,
} from '@pos/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
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

const REASON_OPTIONS = [
  { value: '', label: 'Lapsed or canceled' },
  ...WINBACK_REASONS.map((r) => ({ value: r, label: WINBACK_REASON_LABELS[r] })),
];
const COUNTRY_OPTIONS = [
  { value: '', label: 'Any country' },
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
];
const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...WINBACK_STATUSES.map((s) => ({ value: s, label: WINBACK_STATUS_LABELS[s] })),
];
const STATUS_COLORS: Record<string, string> = {
  new: 'gray',
  contacted: 'blue',
  offer_made: 'violet',
  won: 'green',
  lost: 'red',
};

function SortHeader(props: { column: string; sort: string | null; onSort: (s: string) => void; children: ReactNode }) {
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

/**
 * #/breathoflife (privilege breath_of_life; decision 131): the win-back work list — stores whose license lapsed or
 * whose plan was canceled past the grace — filtered, sorted and paged on the server, the latest first; a row opens
 * the store's case (log a call, make an offer, record the outcome, reactivate).
 */
export default function BreathOfLifePage() {
  const [draft, setDraft] = useState<WinbackFilters>(NO_WINBACK_FILTERS);
  const [applied, setApplied] = useState<WinbackFilters>(NO_WINBACK_FILTERS);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<string | null>(null);
  const [qError, setQError] = useState<string | undefined>();
  const [open, setOpen] = useState<number | null>(null);

  const params: WinbackListParams = { ...applied, page, sort };
  const list = useQuery(winbackListQueryOptions(params));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  const exportCsv = useMutation({
    mutationFn: () => exportWinback(params),
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName('breath-of-life', 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
    },
  });

  const set =
    <K extends keyof WinbackFilters>(key: K) =>
    (value: WinbackFilters[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  function apply(e: FormEvent) {
    e.preventDefault();
    const q = draft.q.trim();
    if (q !== '' && q.length < WINBACK_TEXT_MIN) return setQError(`Type at least ${WINBACK_TEXT_MIN} characters.`);
    setQError(undefined);
    setApplied(draft);
    setPage(1);
  }
  function clear() {
    setDraft(NO_WINBACK_FILTERS);
    setApplied(NO_WINBACK_FILTERS);
    setQError(undefined);
    setPage(1);
  }
  const onSort = (s: string) => {
    setSort(s);
    setPage(1);
  };

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
    <SortHeader key="days_since" column="days_since" sort={sort ?? 'days_since'} onSort={onSort}>
      Days since
    </SortHeader>,
    'Status',
    <SortHeader key="last_activity_at" column="last_activity_at" sort={sort} onSort={onSort}>
      Last activity
    </SortHeader>,
  ];

  const row = (s: WinbackItem) => (
    <Table.Tr key={s.store_id}>
      <Table.Td>
        <UnstyledButton
          onClick={() => setOpen(s.store_id)}
          c="blue"
          fz="sm"
          aria-label={`Open the case of ${s.doing_business_as}`}
        >
          {s.doing_business_as}
        </UnstyledButton>
        <Text component="span" size="xs" c="dimmed" display="block">
          Store {s.store_id}
        </Text>
      </Table.Td>
      <Table.Td>
        {s.legal_name}
        <Text component="span" size="xs" c="dimmed" display="block">
          Customer {s.customer_id}
        </Text>
      </Table.Td>
      <Table.Td>
        {s.contact_name}
        <Text component="span" size="xs" c="dimmed" display="block">
          {[s.phone, s.email].filter(Boolean).join(' · ')}
        </Text>
      </Table.Td>
      <Table.Td>{countryName(s.country)}</Table.Td>
      <Table.Td>
        {s.last_invoice_number ? (
          <>
            {s.last_invoice_number}
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
      <Table.Td>{s.days_since}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={STATUS_COLORS[s.status]}>
          {WINBACK_STATUS_LABELS[s.status]}
        </Badge>
      </Table.Td>
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
      <form onSubmit={apply} aria-label="Filter the win-back list">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <NativeSelect
            label="Reason"
            data={REASON_OPTIONS}
            value={draft.reason}
            onChange={(e) => set('reason')(e.currentTarget.value)}
            w={190}
          />
          <NativeSelect
            label="Country"
            data={COUNTRY_OPTIONS}
            value={draft.country}
            onChange={(e) => set('country')(e.currentTarget.value)}
            w={160}
          />
          <NativeSelect
            label="Win-back status"
            data={STATUS_OPTIONS}
            value={draft.status}
            onChange={(e) => set('status')(e.currentTarget.value)}
            w={170}
          />
          <TextInput
            label="Merchant or store"
            description={`At least ${WINBACK_TEXT_MIN} characters`}
            value={draft.q}
            onChange={(e) => set('q')(e.currentTarget.value)}
            error={qError}
            w={220}
          />
          <Group gap="xs" mt={24}>
            <Button type="submit">Apply</Button>
            <Button variant="subtle" onClick={clear}>
              Clear filters
            </Button>
          </Group>
        </Group>
      </form>
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => exportCsv.mutate()}
          loading={exportCsv.isPending}
          disabled={total === 0}
        >
          Export CSV
        </Button>
      </Group>
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
      <DataTable
        caption={
          list.isPending
            ? 'Win-back list (loading…)'
            : `Win-back list — ${formatTotal(total, false)} ${total === 1 ? 'store' : 'stores'}`
        }
        columns={columns}
        minWidth={1300}
        rowCount={items.length}
        emptyText={list.isPending ? 'Loading…' : 'No stores match. Change or clear the filters.'}
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
        onChange={setPage}
        hideSinglePage
      />
      <CaseDrawer storeId={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
