import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
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
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  bindFilter,
  DataTable,
  DetailPane,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FigureHeader,
  FilterBar,
  FilterCurrency,
  FilterDate,
  filterOptions,
  FilterSelect,
  listCaption,
  ListError,
  ListPagination,
  NoWrapCell,
  SortHeader,
  useListState,
} from '../../../components/list';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate, formatDateTime } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import {
  exportRuns,
  getReconciliationListQueryOptions,
  getReconciliationRunQueryOptions,
  RECONCILIATION_PAGE_SIZE,
  type ReconciliationFilters,
  type ReconciliationListParams,
  useReconcileDay,
} from '../api/reconciliation';

const EVERY_CURRENCY = 'Every currency';
const STATUS_OPTIONS = filterOptions('Any status', RECONCILIATION_STATUSES, RECONCILIATION_STATUS_LABELS);
const STATUS_COLORS: Record<ReconciliationStatus, string> = { matched: 'green', differences: 'orange', failed: 'red' };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Yesterday, UTC: the day the daily job reconciles, and the form's first suggestion. */
function yesterdayUtc(): string {
  return new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
}

/**
 * The runs list's state in the address (issue 30): `#/admin/reconciliation?from=…&to=…&currency=…&status=…&sort=…&
 * page=…&run=7` — the open run is `run`.
 */
const LIST_OPTIONS = {
  defaults: { from: '', to: '', currency: '', status: '' } as ReconciliationFilters,
  defaultSort: '-day',
  selectedKey: 'run',
};

/** The address's filters as the server takes them: a day that is not one, an unknown currency or status is none. */
function checkedFilters(f: ReconciliationFilters): ReconciliationFilters {
  return {
    from: DAY.test(f.from) ? f.from : '',
    to: DAY.test(f.to) ? f.to : '',
    currency: (CURRENCY_CODES as readonly string[]).includes(f.currency) ? f.currency : '',
    status: (RECONCILIATION_STATUSES as readonly string[]).includes(f.status) ? f.status : '',
  };
}

function runIdOf(value: string | null): number | null {
  const n = Number(value);
  return value && /^\d{1,10}$/.test(value) && n > 0 ? n : null;
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
        columns={[
          '',
          <FigureHeader key="gateway">Gateway</FigureHeader>,
          <FigureHeader key="books">Our books</FigureHeader>,
          <FigureHeader key="difference">Difference</FigureHeader>,
        ]}
        minWidth={520}
        rowCount={5}
        emptyText=""
        mt="sm"
      >
        {TOTAL_ROWS.map(([key, label]) => (
          <Table.Tr key={key}>
            <Table.Th scope="row">{label}</Table.Th>
            <FigureCell>{money(r.gateway[key])}</FigureCell>
            <FigureCell>{money(r.books[key])}</FigureCell>
            <FigureCell>{r.gateway[key] === r.books[key] ? '—' : money(r.books[key] - r.gateway[key])}</FigureCell>
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
          <FigureHeader key="gateway">Gateway</FigureHeader>,
          <FigureHeader key="books">Our books</FigureHeader>,
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
            <NoWrapCell>
              {d.invoice_id !== null ? (
                <Anchor component={Link} to={`/view-invoices?id=${d.invoice_id}`}>
                  {d.invoice_number ?? `Invoice ${d.invoice_id}`}
                </Anchor>
              ) : (
                '—'
              )}
            </NoWrapCell>
            <FigureCell>{money(d.gateway_amount_cents)}</FigureCell>
            <FigureCell>{money(d.books_amount_cents)}</FigureCell>
            <NoWrapCell>{formatDateTime(d.at)}</NoWrapCell>
          </Table.Tr>
        ))}
      </DataTable>
    </Paper>
  );
}

/**
 * #/admin/reconciliation (AR Team, Admin; issue 28 item 4, decision 146): the gateway's books beside ours per UTC day
 * and currency. The runs list keeps its filters, sort, page and the open run in the address (the list kit, issue
 * 30); the open run stands beside the list. "Reconcile a day" runs one now. Days are UTC, as the gateway settles
 * them.
 */
export default function ReconciliationPage() {
  const list = useListState<ReconciliationFilters>(LIST_OPTIONS);
  const { draft, page, sort } = list;
  const openRun = runIdOf(list.selected);
  const [day, setDay] = useState(yesterdayUtc);
  const [currency, setCurrency] = useState('');
  const [dayError, setDayError] = useState<string | null>(null);
  const [toError, setToError] = useState<string | null>(null);
  const field = bindFilter(list, { to: toError });
  const keys = useIdempotencyKeys();

  const params: ReconciliationListParams = { ...checkedFilters(list.applied), sort, page };
  const runs = useQuery(getReconciliationListQueryOptions(params));
  const items = runs.data?.items ?? [];
  const total = runs.data?.total ?? 0;

  function applyFilters() {
    const error = draft.from && draft.to && draft.from > draft.to ? 'The last day is before the first.' : null;
    setToError(error);
    if (error === null) list.apply();
  }
  function clearFilters() {
    setToError(null);
    list.clear();
  }

  const action = `reconcile:${day}:${currency}`;
  const reconcile = useReconcileDay();
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!DAY.test(day)) return setDayError('Pick a day.');
    if (day > new Date().toISOString().slice(0, 10)) return setDayError('That day has not begun yet (UTC).');
    setDayError(null);
    const reconciled = day;
    reconcile.mutate(
      {
        body: { day, ...(currency ? { currency: currency as (typeof CURRENCY_CODES)[number] } : {}) },
        idempotencyKey: keys.keyFor(action),
      },
      {
        onSuccess: (result) => {
          keys.settle(action);
          const worst = result.runs.find((r) => r.status !== 'matched') ?? result.runs[0];
          notifications.show({
            color: result.runs.every((r) => r.status === 'matched') ? 'green' : 'orange',
            title: `${formatDate(reconciled)} reconciled`,
            message: outcomeText(result),
          });
          if (worst) list.select(worst.id);
        },
        onError: (error) => {
          keys.settle(action, error);
          const { title, message } = describeError(error);
          notifications.show({ color: 'red', title, message, autoClose: 8000 });
        },
      },
    );
  }

  const onSort = list.setSort;
  const columns = [
    <SortHeader key="day" column="day" sort={sort} onSort={onSort} descFirst>
      Day (UTC)
    </SortHeader>,
    <SortHeader key="currency" column="currency" sort={sort} onSort={onSort} descFirst>
      Currency
    </SortHeader>,
    <SortHeader key="status" column="status" sort={sort} onSort={onSort} descFirst>
      Status
    </SortHeader>,
    <FigureHeader key="gateway_net">Gateway net</FigureHeader>,
    <FigureHeader key="books_net">Our books net</FigureHeader>,
    <SortHeader key="difference_count" column="difference_count" sort={sort} onSort={onSort} numeric descFirst>
      Differences
    </SortHeader>,
    'Started by',
    <SortHeader key="finished_at" column="finished_at" sort={sort} onSort={onSort} descFirst>
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
          <FilterCurrency anyLabel={EVERY_CURRENCY} value={currency} onChange={setCurrency} w={180} />
          <Button type="submit" loading={reconcile.isPending}>
            Reconcile a day
          </Button>
        </Group>
      </Paper>
      <FilterBar label="Filter runs" onApply={applyFilters} onClear={clearFilters}>
        <FilterDate label="From" {...field('from')} />
        <FilterDate label="To" {...field('to')} />
        <FilterCurrency anyLabel={EVERY_CURRENCY} w={180} {...field('currency')} />
        <FilterSelect label="Status" data={STATUS_OPTIONS} w={220} {...field('status')} />
      </FilterBar>
      <ExportCsvButton label="Download CSV" run={(ctx) => exportRuns(params, ctx)} disabled={total === 0} />
      <ListError error={runs.error} />
      <DataTable
        caption={listCaption('Runs', { isPending: runs.isPending, total })}
        columns={columns}
        minWidth={980}
        rowCount={items.length}
        emptyText={emptyListText(runs.isPending, 'No run matches these filters.')}
      >
        {items.map((r: ReconciliationRun) => (
          <Table.Tr
            key={r.id}
            bg={r.id === openRun ? 'var(--mantine-color-blue-light)' : undefined}
            aria-selected={r.id === openRun || undefined}
          >
            <NoWrapCell>
              <Anchor
                component={Link}
                to={list.hrefFor(r.id)}
                aria-label={`Open the run of ${formatDate(r.day)}, ${r.currency}`}
              >
                {formatDate(r.day)}
              </Anchor>
            </NoWrapCell>
            <NoWrapCell>{r.currency}</NoWrapCell>
            {/* Never wrapped: a badge is never cut to "DIFFERE…". */}
            <NoWrapCell>
              <StatusBadge status={r.status} count={r.difference_count} />
            </NoWrapCell>
            <FigureCell>{r.status === 'failed' ? '—' : formatCents(r.gateway.net_cents, r.currency)}</FigureCell>
            <FigureCell>{formatCents(r.books.net_cents, r.currency)}</FigureCell>
            <FigureCell>{r.difference_count}</FigureCell>
            <Table.Td>{r.source === 'schedule' ? 'Daily job' : (r.requested_by ?? 'Staff')}</Table.Td>
            <NoWrapCell>{formatDateTime(r.finished_at)}</NoWrapCell>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Reconciliation runs"
        total={total}
        pageSize={RECONCILIATION_PAGE_SIZE}
        page={page}
        onChange={list.setPage}
        hideSinglePage
      />
      {openRun !== null && (
        <DetailPane label={`Reconciliation run ${openRun}`} onClose={() => list.select(null)}>
          <RunPanel key={openRun} runId={openRun} onClose={() => list.select(null)} />
        </DetailPane>
      )}
    </Stack>
  );
}
