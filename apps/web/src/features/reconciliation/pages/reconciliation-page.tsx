import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CURRENCY_CODES,
  RECONCILIATION_DIFFERENCE_LABELS,
  RECONCILIATION_ENTRY_KIND_LABELS,
  RECONCILIATION_STATUS_LABELS,
  RECONCILIATION_STATUSES,
  type ReconcileDayResult,
  type ReconciliationRun,
  type ReconciliationStatus,
  type ReconciliationTotals,
} from '@pos/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable } from '../../../components/list/data-table';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import { currencyLabel, formatCents, formatDate, formatDateTime } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import {
  exportRuns,
  getReconciliationListQueryOptions,
  getReconciliationRunQueryOptions,
  RECONCILIATION_PAGE_SIZE,
  reconcileDay,
  reconciliationKeys,
  type ReconciliationListParams,
} from '../api/reconciliation';

const CURRENCY_OPTIONS = [
  { value: '', label: 'Every currency' },
  ...CURRENCY_CODES.map((c) => ({ value: c, label: currencyLabel(c) })),
];
const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...RECONCILIATION_STATUSES.map((s) => ({ value: s, label: RECONCILIATION_STATUS_LABELS[s] })),
];
const STATUS_COLORS: Record<ReconciliationStatus, string> = { matched: 'green', differences: 'orange', failed: 'red' };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Yesterday, UTC: the day the daily job reconciles, and the form's first suggestion. */
function yesterdayUtc(): string {
  return new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
}

function paramsOf(sp: URLSearchParams): ReconciliationListParams {
  const day = (key: string) => {
    const v = sp.get(key) ?? '';
    return DAY.test(v) ? v : '';
  };
  const page = Number(sp.get('page'));
  const currency = sp.get('currency') ?? '';
  const status = sp.get('status') ?? '';
  return {
    from: day('from'),
    to: day('to'),
    currency: (CURRENCY_CODES as readonly string[]).includes(currency) ? currency : '',
    status: (RECONCILIATION_STATUSES as readonly string[]).includes(status) ? status : '',
    sort: sp.get('sort') || null,
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

function runIdOf(value: string | null): number | null {
  const n = Number(value);
  return value && /^\d{1,10}$/.test(value) && n > 0 ? n : null;
}

function SortHeader(props: { column: string; sort: string | null; onSort: (s: string) => void; children: ReactNode }) {
  const { column, sort, onSort, children } = props;
  const direction = sort === column ? 'asc' : sort === `-${column}` ? 'desc' : null;
  return (
    <Table.Th scope="col" aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}>
      <UnstyledButton onClick={() => onSort(direction === 'desc' ? column : `-${column}`)} fw={700} fz="sm">
        {children}
        <span aria-hidden="true">
          {'\u00a0'}
          {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
        </span>
      </UnstyledButton>
    </Table.Th>
  );
}

function StatusBadge({ status, count }: { status: ReconciliationStatus; count: number }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {status === 'differences'
        ? `${count} ${count === 1 ? 'difference' : 'differences'}`
        : RECONCILIATION_STATUS_LABELS[status]}
    </Badge>
  );
}

/** How a reconcile answer reads in the toast: "USD: matched; CAD: 2 differences". */
function outcomeText(result: ReconcileDayResult): string {
  return result.runs
    .map((r) =>
      r.status === 'differences'
        ? `${r.currency}: ${r.difference_count} ${r.difference_count === 1 ? 'difference' : 'differences'}`
        : `${r.currency}: ${RECONCILIATION_STATUS_LABELS[r.status].toLowerCase()}`,
    )
    .join('; ');
}

const TOTAL_ROWS: ReadonlyArray<[keyof ReconciliationTotals, string]> = [
  ['charged_cents', 'Charged (settled)'],
  ['refunded_cents', 'Refunded'],
  ['charged_back_cents', 'Charged back'],
  ['net_cents', 'Net'],
  ['voided_cents', 'Voided before settlement'],
];

/** A run: both sides' totals, and every line the two books do not agree on with the transaction behind it. */
function RunPanel({ runId, onClose }: { runId: number; onClose: () => void }) {
  const run = useQuery(getReconciliationRunQueryOptions(runId));
  if (run.isPending) return <Text c="dimmed">Loading run {runId}…</Text>;
  if (run.isError) {
    const { title, message } = describeError(run.error);
    return (
      <Alert color="red" title={title} withCloseButton closeButtonLabel="Close" onClose={onClose}>
        {message}
      </Alert>
    );
  }
  const r = run.data;
  const money = (cents: number | null) => formatCents(cents, r.currency);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="run-heading">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2} size="h3" id="run-heading">
            {formatDate(r.day)}, {r.currency} — run {r.id}
          </Title>
          <Group gap="xs">
            <StatusBadge status={r.status} count={r.difference_count} />
            <Text size="sm" c="dimmed">
              {r.source === 'schedule' ? 'Daily job' : `Run by ${r.requested_by ?? 'staff'}`},{' '}
              {formatDateTime(r.finished_at)}
            </Text>
          </Group>
        </Stack>
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
      {r.failure_reason && (
        <Alert color="red" mt="sm" title="The gateway did not answer">
          {r.failure_reason}
        </Alert>
      )}
      <DataTable
        caption="Totals"
        columns={['', 'Gateway', 'Our books', 'Difference']}
        minWidth={520}
        rowCount={5}
        emptyText=""
        mt="sm"
      >
        {TOTAL_ROWS.map(([key, label]) => (
          <Table.Tr key={key}>
            <Table.Th scope="row">{label}</Table.Th>
            <Table.Td>{money(r.gateway[key])}</Table.Td>
            <Table.Td>{money(r.books[key])}</Table.Td>
            <Table.Td>{r.gateway[key] === r.books[key] ? '—' : money(r.books[key] - r.gateway[key])}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <DataTable
        caption={`Differences (${r.differences.length})`}
        columns={[
          'What',
          'Line',
          'Gateway id',
          'Our transaction',
          'Customer',
          'Invoice',
          'Gateway',
          'Our books',
          'When',
        ]}
        minWidth={1100}
        rowCount={r.differences.length}
        emptyText={
          r.status === 'failed' ? 'Not compared: the gateway did not answer.' : 'Both books agree on every line.'
        }
        mt="md"
      >
        {r.differences.map((d) => (
          <Table.Tr key={d.id}>
            <Table.Td>{RECONCILIATION_DIFFERENCE_LABELS[d.kind]}</Table.Td>
            <Table.Td>{RECONCILIATION_ENTRY_KIND_LABELS[d.entry_kind]}</Table.Td>
            <Table.Td style={{ wordBreak: 'break-all' }}>
              {d.gateway_transaction_id ?? d.charge_reference ?? '—'}
            </Table.Td>
            <Table.Td>
              {d.transaction_id !== null && d.customer_id !== null ? (
                <Anchor component={Link} to={`/customer?id=${d.customer_id}`}>
                  Transaction {d.transaction_id}
                </Anchor>
              ) : (
                '—'
              )}
            </Table.Td>
            <Table.Td>
              {d.customer_id !== null ? (
                <Anchor component={Link} to={`/customer?id=${d.customer_id}`}>
                  {d.customer_name ?? `Customer ${d.customer_id}`}
                </Anchor>
              ) : (
                '—'
              )}
            </Table.Td>
            <Table.Td>
              {d.invoice_id !== null ? (
                <Anchor component={Link} to={`/view-invoices?id=${d.invoice_id}`}>
                  {d.invoice_number ?? `Invoice ${d.invoice_id}`}
                </Anchor>
              ) : (
                '—'
              )}
            </Table.Td>
            <Table.Td>{money(d.gateway_amount_cents)}</Table.Td>
            <Table.Td>{money(d.books_amount_cents)}</Table.Td>
            <Table.Td>{formatDateTime(d.at)}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </Paper>
  );
}

/**
 * #/admin/reconciliation (AR Team, Admin; issue 28 item 4, decision 146): the gateway's books beside ours per UTC day
 * and currency. The runs list keeps its filters, sort, page and the open run in the address; "Reconcile a day" runs
 * one now. Days are UTC, as the gateway settles them.
 */
export default function ReconciliationPage() {
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const params = paramsOf(searchParams);
  const openRun = runIdOf(searchParams.get('run'));
  const [day, setDay] = useState(yesterdayUtc);
  const [currency, setCurrency] = useState('');
  const [dayError, setDayError] = useState<string | null>(null);
  const keys = useIdempotencyKeys();

  const list = useQuery(getReconciliationListQueryOptions(params));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  /** Change some of the address's list state (a filter or the sort goes back to page 1). */
  const update = (changes: Record<string, string | null>, keepPage = false) =>
    setSearchParams((sp) => {
      const next = new URLSearchParams(sp);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === '') next.delete(k);
        else next.set(k, v);
      }
      if (!keepPage && !('page' in changes)) next.delete('page');
      return next;
    });

  const exportCsv = useMutation({
    mutationFn: () => exportRuns(params),
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName('reconciliation', 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
    },
  });

  const action = `reconcile:${day}:${currency}`;
  const reconcile = useMutation({
    mutationFn: () =>
      reconcileDay(
        { day, ...(currency ? { currency: currency as (typeof CURRENCY_CODES)[number] } : {}) },
        keys.keyFor(action),
      ),
    meta: { silentError: true },
    onSuccess: (result) => {
      keys.settle(action);
      void queryClient.invalidateQueries({ queryKey: reconciliationKeys.all });
      const worst = result.runs.find((r) => r.status !== 'matched') ?? result.runs[0];
      notifications.show({
        color: result.runs.every((r) => r.status === 'matched') ? 'green' : 'orange',
        title: `${formatDate(day)} reconciled`,
        message: outcomeText(result),
      });
      if (worst) update({ run: String(worst.id) }, true);
    },
    onError: (error) => {
      keys.settle(action, error);
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!DAY.test(day)) return setDayError('Pick a day.');
    if (day > new Date().toISOString().slice(0, 10)) return setDayError('That day has not begun yet (UTC).');
    setDayError(null);
    reconcile.mutate();
  }

  const onSort = (s: string) => update({ sort: s });
  const sort = params.sort ?? '-day';
  const columns = [
    <SortHeader key="day" column="day" sort={sort} onSort={onSort}>
      Day (UTC)
    </SortHeader>,
    <SortHeader key="currency" column="currency" sort={sort} onSort={onSort}>
      Currency
    </SortHeader>,
    <SortHeader key="status" column="status" sort={sort} onSort={onSort}>
      Status
    </SortHeader>,
    'Gateway net',
    'Our books net',
    <SortHeader key="difference_count" column="difference_count" sort={sort} onSort={onSort}>
      Differences
    </SortHeader>,
    'Started by',
    <SortHeader key="finished_at" column="finished_at" sort={sort} onSort={onSort}>
      Finished
    </SortHeader>,
  ];

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1} size="h2">
          Reconciliation
        </Title>
        <Text c="dimmed" size="sm">
          What the payment gateway settled, refunded, voided and charged back each day, beside what our books posted.
          Days are UTC, as the gateway settles them; a job reconciles yesterday every night at 01:30 UTC.
        </Text>
      </Stack>
      <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Reconcile a day">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label="Day (UTC)"
            type="date"
            value={day}
            onChange={(e) => setDay(e.currentTarget.value)}
            error={dayError}
            w={180}
          />
          <NativeSelect
            label="Currency"
            data={CURRENCY_OPTIONS}
            value={currency}
            onChange={(e) => setCurrency(e.currentTarget.value)}
            w={180}
          />
          <Button type="submit" loading={reconcile.isPending}>
            Reconcile a day
          </Button>
        </Group>
      </Paper>
      {openRun !== null && <RunPanel runId={openRun} onClose={() => update({ run: null }, true)} />}
      <Group align="flex-end" gap="sm" wrap="wrap" role="group" aria-label="Filter runs">
        <TextInput
          label="From"
          type="date"
          value={params.from}
          onChange={(e) => update({ from: e.currentTarget.value })}
        />
        <TextInput
          label="To"
          type="date"
          value={params.to}
          onChange={(e) => update({ to: e.currentTarget.value })}
          error={params.from && params.to && params.from > params.to ? 'The last day is before the first.' : null}
        />
        <NativeSelect
          label="Currency"
          data={CURRENCY_OPTIONS}
          value={params.currency}
          onChange={(e) => update({ currency: e.currentTarget.value })}
          w={180}
        />
        <NativeSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={params.status}
          onChange={(e) => update({ status: e.currentTarget.value })}
          w={220}
        />
        <Button variant="subtle" onClick={() => setSearchParams({})}>
          Clear filters
        </Button>
        <Button variant="default" ml="auto" loading={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
          Download CSV
        </Button>
      </Group>
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
      <DataTable
        caption={`Runs (${formatTotal(total)})`}
        columns={columns}
        minWidth={980}
        rowCount={items.length}
        emptyText={list.isPending ? 'Loading…' : 'No run matches these filters.'}
      >
        {items.map((r: ReconciliationRun) => (
          <Table.Tr key={r.id} bg={r.id === openRun ? 'var(--mantine-color-blue-light)' : undefined}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              <Anchor
                component={Link}
                to={`?${new URLSearchParams({ ...Object.fromEntries(searchParams), run: String(r.id) })}`}
                aria-label={`Open the run of ${formatDate(r.day)}, ${r.currency}`}
              >
                {formatDate(r.day)}
              </Anchor>
            </Table.Td>
            <Table.Td>{r.currency}</Table.Td>
            {/* Wide enough for "12 differences": a badge is never cut to "DIFFERE…". */}
            <Table.Td style={{ minWidth: 150 }}>
              <StatusBadge status={r.status} count={r.difference_count} />
            </Table.Td>
            <Table.Td>{r.status === 'failed' ? '—' : formatCents(r.gateway.net_cents, r.currency)}</Table.Td>
            <Table.Td>{formatCents(r.books.net_cents, r.currency)}</Table.Td>
            <Table.Td>{r.difference_count}</Table.Td>
            <Table.Td>{r.source === 'schedule' ? 'Daily job' : (r.requested_by ?? 'Staff')}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.finished_at)}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Reconciliation runs"
        total={total}
        pageSize={RECONCILIATION_PAGE_SIZE}
        page={params.page}
        onChange={(p) => update({ page: p === 1 ? null : String(p) }, true)}
        hideSinglePage
      />
    </Stack>
  );
}
