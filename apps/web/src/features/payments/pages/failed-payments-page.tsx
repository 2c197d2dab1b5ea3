import { Anchor, Badge, Button, Checkbox, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  DECLINE_CODES,
  DECLINE_LABELS,
  DUNNING_STATE_LABELS,
  DUNNING_STATES,
  FAILED_PAYMENT_TEXT_MIN,
  type FailedPaymentItem,
  type TransactionSnsAction,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import {
  bindFilter,
  DataTable,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FigureHeader,
  FilterAmount,
  FilterBar,
  FilterNumber,
  filterOptions,
  FilterSelect,
  FilterText,
  listCaption,
  ListError,
  ListPagination,
  notAmount,
  notDays,
  NoWrapCell,
  SortHeader,
  textTooShort,
  useCheckedFilters,
  useListState,
} from '../../../components/list';
import { describeError } from '../../../lib/error-message';
import { countryName, formatCents, formatDate, formatDateTime } from '../../../lib/format';
import {
  exportFailedPayments,
  FAILED_PAGE_SIZE,
  getFailedPaymentListQueryOptions,
  NO_FAILED_FILTERS,
  useFailedPaymentAction,
  type FailedFilters,
  type FailedListParams,
} from '../api/failed-payments';
import { RecoveryPanel } from '../components/recovery-panel';

/** The four actions of the screen, in the order shown; each is a transactions/sns action (decision 117). */
export const FAILED_PAYMENT_ACTIONS: readonly {
  readonly action: TransactionSnsAction;
  readonly label: string;
  /** The toast once the request is accepted. */
  readonly requested: string;
  readonly done: string;
}[] = [
  { action: 'reprocess', label: 'Retry now', requested: 'Retry requested', done: 'Retry finished' },
  { action: 'waive_fee', label: 'Waive fee', requested: 'Fee waiver requested', done: 'Fee waived' },
  {
    action: 'send_update_link',
    label: 'Send update link',
    requested: 'Update link requested',
    done: 'Update link sent',
  },
  { action: 'stop_retries', label: 'Stop retries', requested: 'Stop requested', done: 'Retries stopped' },
];

const KIND_OPTIONS = [
  { value: '', label: 'Soft and hard' },
  { value: 'soft', label: 'Soft (retried)' },
  { value: 'hard', label: 'Hard (needs a new instrument)' },
];
const REASON_OPTIONS = filterOptions('Any reason', DECLINE_CODES, DECLINE_LABELS);
const COUNTRY_OPTIONS = [
  { value: '', label: 'Any country' },
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
];
const STATE_OPTIONS = filterOptions('Any state', DUNNING_STATES, DUNNING_STATE_LABELS);

/** An invoice number (INV-2026-0004118) or an id stays on one line: never broken at its hyphens. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** The list's state in the address: `#/payments?kind=hard&amount_min=25&sort=amount_cents&page=2`. */
const LIST_OPTIONS = {
  defaults: NO_FAILED_FILTERS,
  keys: { amountMin: 'amount_min', amountMax: 'amount_max' },
  defaultSort: '-attempted_at',
} as const;

function actionOf(action: TransactionSnsAction) {
  return FAILED_PAYMENT_ACTIONS.find((a) => a.action === action)!;
}

function rowName(p: FailedPaymentItem): string {
  return `${p.legal_name} ${formatCents(p.amount_cents, p.currency)}${p.invoice_number ? ` ${p.invoice_number}` : ''}`;
}

/**
 * #/payments (privilege failed_payments_edit): the month's recovery at the top, then every failed charge, filtered,
 * sorted and paged on the server, newest first. Per row and for the selected rows: retry now, waive the fee, send the
 * update-payment link, stop retries — each a queue call (transactions/sns) followed until its job finishes. Filters,
 * sort and page are in the address (issue 30); the selection is not (it is what the actions act on, on this screen).
 */
export default function FailedPaymentsPage() {
  const list = useListState<FailedFilters>(LIST_OPTIONS);
  const { applied, page, sort } = list;
  const [selected, setSelected] = useState<ReadonlyMap<number, FailedPaymentItem>>(new Map());
  const { errors, apply, clear } = useCheckedFilters(
    list,
    (d) => {
      const amountMin = notAmount(d.amountMin);
      const amountMax = notAmount(d.amountMax);
      const reversed =
        !amountMin && !amountMax && d.amountMin.trim() !== '' && d.amountMax.trim() !== ''
          ? Number(d.amountMin) > Number(d.amountMax)
          : false;
      return {
        q: textTooShort(d.q, FAILED_PAYMENT_TEXT_MIN),
        amountMin,
        amountMax: amountMax ?? (reversed ? 'The largest amount is below the smallest.' : undefined),
        age: notDays(d.age),
      };
    },
    { onChanged: () => setSelected(new Map()) },
  );
  const field = bindFilter(list, errors);
  const [bulk, setBulk] = useState<(typeof FAILED_PAYMENT_ACTIONS)[number] | null>(null);

  const params: FailedListParams = { ...applied, page, sort: sort === LIST_OPTIONS.defaultSort ? null : sort };
  const payments = useQuery(getFailedPaymentListQueryOptions(params));
  const items = payments.data?.items ?? [];
  const total = payments.data?.total ?? 0;
  const capped = payments.data?.total_capped ?? false;

  const act = useFailedPaymentAction({
    onRequested: (input) => {
      const what = input.rows.length === 1 ? 'the failed payment' : `${input.rows.length} failed payments`;
      const requested = actionOf(input.action).requested;
      notifications.show({
        color: 'blue',
        title: `${requested}…`,
        message: `${requested} for ${what}. The list refreshes when it is done.`,
        autoClose: 6000,
      });
    },
  });
  /*
   * The jobs are followed for up to a minute: their outcome is said even if the user has moved to another screen
   * meanwhile (mutateAsync's answer, not mutate's per-call callbacks, which end with the page).
   */
  function run(a: (typeof FAILED_PAYMENT_ACTIONS)[number], rows: FailedPaymentItem[]) {
    const what = rows.length === 1 ? 'the failed payment' : `${rows.length} failed payments`;
    act.mutateAsync({ action: a.action, rows }).then(
      ({ results }) => {
        const failed = results.filter((r) => !r.ok);
        const said = results.map((r) => `#${r.transaction_id}: ${r.result}`).join(' ');
        if (failed.length === 0) {
          notifications.show({
            color: 'green',
            title: a.done,
            message: said ? `Done for ${what}. ${said}` : `Done for ${what}.`,
            autoClose: 8000,
          });
        } else {
          notifications.show({
            color: 'orange',
            title: `${a.label}: ${failed.length} of ${results.length} did not go through`,
            message: `${failed.map((r) => `#${r.transaction_id}: ${r.result}`).join(' ')} Check those payments in the list (it is refreshed) and act on them again, or send the merchant the update link.`,
            autoClose: 12_000,
          });
        }
        setSelected(new Map());
      },
      (error: unknown) => {
        const { title, message } = describeError(error);
        notifications.show({
          color: 'red',
          title: `${a.label} did not go through — ${title}`,
          message: `${message} The list shows the payments as they are now; select them and try again, or see Admin › Jobs.`,
          autoClose: 10_000,
        });
      },
    );
  }

  const onSort = list.setSort;
  const toggle = (p: FailedPaymentItem, on: boolean) =>
    setSelected((m) => {
      const next = new Map(m);
      if (on) next.set(p.transaction_id, p);
      else next.delete(p.transaction_id);
      return next;
    });
  const allOnPage = items.length > 0 && items.every((p) => selected.has(p.transaction_id));
  const someOnPage = items.some((p) => selected.has(p.transaction_id));
  const togglePage = (on: boolean) =>
    setSelected((m) => {
      const next = new Map(m);
      for (const p of items) {
        if (on) next.set(p.transaction_id, p);
        else next.delete(p.transaction_id);
      }
      return next;
    });

  const columns = [
    <Table.Th key="select" scope="col">
      <Checkbox
        aria-label="Select every failed payment on this page"
        checked={allOnPage}
        indeterminate={!allOnPage && someOnPage}
        onChange={(e) => togglePage(e.currentTarget.checked)}
      />
    </Table.Th>,
    <SortHeader key="attempted_at" column="attempted_at" sort={sort} onSort={onSort}>
      Failed
    </SortHeader>,
    <SortHeader key="customer" column="customer" sort={sort} onSort={onSort}>
      Merchant
    </SortHeader>,
    'Store (DBA)',
    <SortHeader key="amount_cents" column="amount_cents" sort={sort} onSort={onSort} numeric>
      Amount
    </SortHeader>,
    'Decline',
    'Instrument',
    <FigureHeader key="attempts">Attempts</FigureHeader>,
    <SortHeader key="next_retry_on" column="next_retry_on" sort={sort} onSort={onSort}>
      Next retry
    </SortHeader>,
    'Dunning',
    'Actions',
  ];
  const chosen = [...selected.values()];

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Failed payments
      </Title>
      <RecoveryPanel month={null} />
      <FilterBar label="Filter failed payments" onApply={apply} onClear={clear}>
        <FilterSelect label="Kind" data={KIND_OPTIONS} w={220} {...field('kind')} />
        <FilterSelect label="Reason" data={REASON_OPTIONS} {...field('reason')} />
        <FilterSelect label="Country" data={COUNTRY_OPTIONS} w={160} {...field('country')} />
        <FilterSelect label="Dunning state" data={STATE_OPTIONS} w={170} {...field('state')} />
        <FilterText
          label="Merchant or DBA"
          description={`At least ${FAILED_PAYMENT_TEXT_MIN} characters`}
          {...field('q')}
        />
        <FilterAmount label="Amount from" {...field('amountMin')} />
        <FilterAmount label="Amount to" {...field('amountMax')} />
        <FilterNumber label="Failed within (days)" {...field('age')} />
      </FilterBar>
      <Group justify="space-between">
        <Group gap="xs" role="group" aria-label="Selected failed payments">
          <Text size="sm">{chosen.length === 0 ? 'None selected' : `${chosen.length} selected`}</Text>
          {FAILED_PAYMENT_ACTIONS.map((a) => (
            <Button
              key={a.action}
              size="xs"
              variant="light"
              disabled={chosen.length === 0 || act.isPending}
              onClick={() => setBulk(a)}
            >
              {a.label} ({chosen.length})
            </Button>
          ))}
        </Group>
        <ExportCsvButton run={(ctx) => exportFailedPayments(params, ctx)} disabled={total === 0} />
      </Group>
      <ListError error={payments.error} />
      <DataTable
        caption={listCaption('Failed payments', { isPending: payments.isPending, total, capped })}
        columns={columns}
        minWidth={1500}
        rowCount={items.length}
        emptyText={emptyListText(payments.isPending, 'No failed payments match. Change or clear the filters.')}
        highlightOnHover
      >
        {items.map((p) => (
          <Table.Tr key={p.transaction_id}>
            <Table.Td>
              <Checkbox
                aria-label={`Select ${rowName(p)}`}
                checked={selected.has(p.transaction_id)}
                onChange={(e) => toggle(p, e.currentTarget.checked)}
              />
            </Table.Td>
            <NoWrapCell>{formatDateTime(p.attempted_at)}</NoWrapCell>
            <Table.Td>
              {p.legal_name}
              <Text component="span" size="xs" c="dimmed" display="block">
                <Anchor component={Link} to={`/customer?id=${p.customer_id}`} inherit style={NO_WRAP}>
                  Customer {p.customer_id}
                </Anchor>
                {p.country ? ` · ${countryName(p.country)}` : ''}
              </Text>
            </Table.Td>
            <Table.Td>
              {p.doing_business_as ?? '—'}
              {p.invoice_number && (
                <Text component="span" size="xs" c="dimmed" display="block" style={NO_WRAP}>
                  {p.invoice_id !== null ? (
                    <Anchor component={Link} to={`/view-invoices?id=${p.invoice_id}`} inherit>
                      {p.invoice_number}
                    </Anchor>
                  ) : (
                    p.invoice_number
                  )}
                </Text>
              )}
            </Table.Td>
            <FigureCell>{formatCents(p.amount_cents, p.currency)}</FigureCell>
            <NoWrapCell>
              {p.decline_label}{' '}
              <Badge size="xs" color={p.decline_kind === 'hard' ? 'red' : 'yellow'} variant="light">
                {p.decline_kind}
              </Badge>
            </NoWrapCell>
            <Table.Td>{p.instrument_label ?? '—'}</Table.Td>
            <FigureCell>{p.failed_attempts}</FigureCell>
            <NoWrapCell>{p.next_retry_on ? formatDate(p.next_retry_on) : '—'}</NoWrapCell>
            <Table.Td>
              {p.dunning_state ? DUNNING_STATE_LABELS[p.dunning_state] : '—'}
              {p.fee_state && p.fee_cents !== null && (
                <Text component="span" size="xs" c="dimmed" display="block">
                  Fee {formatCents(p.fee_cents, p.currency)} {p.fee_state}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                {FAILED_PAYMENT_ACTIONS.map((a) => (
                  <Button
                    key={a.action}
                    size="compact-xs"
                    variant="subtle"
                    disabled={act.isPending}
                    aria-label={`${a.label}: ${rowName(p)}`}
                    onClick={() => run(a, [p])}
                  >
                    {a.label}
                  </Button>
                ))}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Failed payment pages"
        total={total}
        totalCapped={capped}
        pageRows={items.length}
        pageSize={FAILED_PAGE_SIZE}
        page={page}
        onChange={list.setPage}
        hideSinglePage
      />
      <ConfirmDialog
        opened={bulk !== null}
        title={bulk ? `${bulk.label}: ${chosen.length} failed ${chosen.length === 1 ? 'payment' : 'payments'}` : ''}
        message={
          bulk
            ? `${bulk.label} for ${chosen.length} selected failed ${chosen.length === 1 ? 'payment' : 'payments'} of ${new Set(chosen.map((c) => c.customer_id)).size} ${new Set(chosen.map((c) => c.customer_id)).size === 1 ? 'merchant' : 'merchants'}?`
            : ''
        }
        confirmLabel={bulk?.label ?? 'Confirm'}
        busy={act.isPending}
        color={bulk?.action === 'stop_retries' ? 'red' : undefined}
        onClose={() => setBulk(null)}
        onConfirm={() => {
          if (bulk) run(bulk, chosen);
          setBulk(null);
        }}
      />
    </Stack>
  );
}
