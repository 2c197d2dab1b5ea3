import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  List,
  Modal,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  APPROVAL_KIND_LABELS,
  APPROVAL_KINDS,
  effectivePrivileges,
  FEES,
  type ApprovalDecisionOutcome,
  type ApprovalItem,
  type Permission,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  DataTable,
  emptyListText,
  FigureCell,
  FigureHeader,
  FilterBar,
  listCaption,
  ListError,
  ListPagination,
  NoWrapCell,
  useCheckedFilters,
  useListState,
} from '../../../components/list';
import { getSession, useSession } from '../../../lib/session';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDateTime } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import {
  APPROVALS_PAGE_SIZE,
  useDecideApprovals,
  getApprovalListQueryOptions,
  getRejectReasonsQueryOptions,
  NO_APPROVAL_FILTERS,
  type ApprovalFilters,
} from '../api/approvals';

type Decision = 'approve' | 'reject';
const keyOf = (i: Pick<ApprovalItem, 'kind' | 'id'>) => `${i.kind}:${i.id}`;
const nameOf = (i: ApprovalItem) =>
  i.kind === 'order' ? i.title : `${i.title} ${i.id}${i.invoice_number ? ` on invoice ${i.invoice_number}` : ''}`;
const THRESHOLD = formatCents(FEES.CREDIT_THRESHOLD_CENTS, 'USD');

/** The list's state in the address: `#/approvals?kind=memo&amount_min=1000&older_than_days=14&page=2`. */
const AMOUNT_HINT = 'Type an amount such as 1,500.00.';
const LIST_OPTIONS = {
  defaults: NO_APPROVAL_FILTERS,
  keys: { amountMin: 'amount_min', amountMax: 'amount_max', olderThanDays: 'older_than_days' },
} as const;

/** '$1,500.00' → '1500.00'; null when it is not an amount of dollars and cents. */
function amountOf(text: string): string | null {
  const plain = text.replace(/[$,\s]/g, '');
  return /^\d{1,9}(\.\d{1,2})?$/.test(plain) ? plain : null;
}

const NO_ITEMS: ReadonlyMap<string, ApprovalItem> = new Map();

/** Which pages the rows may link to: a link only where the session may go (its role and additional privileges). */
function useMayOpen() {
  const { session } = useSession();
  const granted: readonly Permission[] = session
    ? effectivePrivileges(session.role, session.additional_privileges)
    : [];
  const any = (...privileges: Permission[]) => privileges.some((p) => granted.includes(p));
  return {
    customer: any('customer_details_view', 'customer_details_edit'),
    invoice: any('invoices'),
    order: any('search_orders_view', 'search_orders_edit', 'create_distributor_orders'),
  };
}

interface Decided extends ApprovalDecisionOutcome {
  readonly name: string;
  readonly requestedBy: string | null;
  readonly decision: Decision;
  readonly at: string;
}

/**
 * #/approvals (ar_approvals; issue 16 point 2, decision 121): everything waiting for a second person — memos,
 * write-offs, orders in Pending AR Approval — oldest first, with filters; approve or reject with a reason, one by
 * one or the selected rows together. Each outcome is listed (who asked, who decided, when); a request over the
 * credit threshold cannot be decided by the person who asked for it. Filters and page are in the address (issue 30);
 * the rows chosen for a bulk decision are kept across pages until the filters change.
 */
export default function ApprovalsPage() {
  const list = useListState<ApprovalFilters>(LIST_OPTIONS);
  const { draft, applied, set, page } = list;
  const mayOpen = useMayOpen();
  const { errors, apply, clear } = useCheckedFilters(
    list,
    (d) => ({
      amountMin: d.amountMin.trim() !== '' && amountOf(d.amountMin) === null ? AMOUNT_HINT : undefined,
      amountMax: d.amountMax.trim() !== '' && amountOf(d.amountMax) === null ? AMOUNT_HINT : undefined,
      olderThanDays: /^\d{0,4}$/.test(d.olderThanDays.trim()) ? undefined : 'Type a whole number of days.',
    }),
    {
      normalize: (d) => ({
        ...d,
        amountMin: d.amountMin.trim() === '' ? '' : (amountOf(d.amountMin) ?? ''),
        amountMax: d.amountMax.trim() === '' ? '' : (amountOf(d.amountMax) ?? ''),
        olderThanDays: d.olderThanDays.trim(),
        requester: d.requester.trim(),
      }),
    },
  );
  // The rows chosen for a bulk decision belong to the filtered list: other filters (Apply, Clear, Back) start afresh.
  const appliedKey = JSON.stringify(applied);
  const [picked, setPicked] = useState<{ key: string; items: ReadonlyMap<string, ApprovalItem> }>({
    key: appliedKey,
    items: NO_ITEMS,
  });
  const selected = picked.key === appliedKey ? picked.items : NO_ITEMS;
  const setSelected = (update: (prev: ReadonlyMap<string, ApprovalItem>) => Map<string, ApprovalItem>) =>
    setPicked((p) => ({ key: appliedKey, items: update(p.key === appliedKey ? p.items : NO_ITEMS) }));
  const [deciding, setDeciding] = useState<{ decision: Decision; items: ApprovalItem[] } | null>(null);
  const [decided, setDecided] = useState<Decided[]>([]);
  const approvals = useQuery({ ...getApprovalListQueryOptions({ ...applied, page }), meta: { silentError: true } });
  const items = approvals.data?.items ?? [];
  const total = approvals.data?.total ?? 0;

  function toggle(item: ApprovalItem, on: boolean) {
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(keyOf(item), item);
      else next.delete(keyOf(item));
      return next;
    });
  }
  const decidable = items.filter((i) => i.can_decide);
  const allOnPage = decidable.length > 0 && decidable.every((i) => selected.has(keyOf(i)));
  const someOnPage = decidable.some((i) => selected.has(keyOf(i)));
  function togglePage(on: boolean) {
    setSelected((prev) => {
      const next = new Map(prev);
      for (const i of decidable) {
        if (on) next.set(keyOf(i), i);
        else next.delete(keyOf(i));
      }
      return next;
    });
  }
  const chosen = [...selected.values()];

  async function onDecided(outcomes: Decided[]) {
    setDecided((prev) => [...outcomes, ...prev].slice(0, 50));
    setSelected((prev) => {
      const next = new Map(prev);
      for (const o of outcomes) if (o.ok) next.delete(keyOf(o));
      return next;
    });
    setDeciding(null);
  }

  const columns = [
    <Table.Th key="select" scope="col" w={40}>
      <Checkbox
        aria-label="Select every item on this page"
        checked={allOnPage}
        indeterminate={!allOnPage && someOnPage}
        disabled={decidable.length === 0}
        onChange={(e) => togglePage(e.currentTarget.checked)}
      />
    </Table.Th>,
    'Item',
    'Customer',
    'Invoice',
    <FigureHeader key="amount">Amount</FigureHeader>,
    <FigureHeader key="waiting">Waiting</FigureHeader>,
    'Requested by',
    'Reason',
    'Decide',
  ];

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Approvals
      </Title>
      <Text c="dimmed" size="sm">
        Memos, write-offs and orders waiting for AR approval, oldest first. Over {THRESHOLD}, someone other than the
        requester must approve.
      </Text>
      <FilterBar label="Filter approvals" onApply={apply} onClear={clear}>
        <NativeSelect
          label="Kind"
          value={draft.kind}
          onChange={(e) => set('kind')(e.currentTarget.value)}
          data={[
            { value: '', label: 'All kinds' },
            ...APPROVAL_KINDS.map((k) => ({ value: k, label: APPROVAL_KIND_LABELS[k] })),
          ]}
        />
        <TextInput
          label="Smallest amount"
          value={draft.amountMin}
          onChange={(e) => set('amountMin')(e.currentTarget.value)}
          error={errors.amountMin}
          inputMode="decimal"
          w={140}
        />
        <TextInput
          label="Largest amount"
          value={draft.amountMax}
          onChange={(e) => set('amountMax')(e.currentTarget.value)}
          error={errors.amountMax}
          inputMode="decimal"
          w={140}
        />
        <TextInput
          label="Waiting at least (days)"
          value={draft.olderThanDays}
          onChange={(e) => set('olderThanDays')(e.currentTarget.value)}
          error={errors.olderThanDays}
          inputMode="numeric"
          w={170}
        />
        <TextInput
          label="Requester"
          value={draft.requester}
          onChange={(e) => set('requester')(e.currentTarget.value)}
          w={220}
        />
      </FilterBar>
      <ListError error={approvals.error} />
      <Group gap="sm">
        <Button disabled={chosen.length === 0} onClick={() => setDeciding({ decision: 'approve', items: chosen })}>
          {`Approve selected (${chosen.length})`}
        </Button>
        <Button
          color="red"
          variant="light"
          disabled={chosen.length === 0}
          onClick={() => setDeciding({ decision: 'reject', items: chosen })}
        >
          {`Reject selected (${chosen.length})`}
        </Button>
      </Group>
      <DataTable
        caption={listCaption(
          'Approvals',
          { isPending: approvals.isPending, total },
          { one: 'waiting', many: 'waiting' },
        )}
        columns={columns}
        minWidth={1100}
        rowCount={items.length}
        emptyText={emptyListText(approvals.isPending, 'Nothing is waiting for approval.')}
      >
        {items.map((i) => (
          <Table.Tr key={keyOf(i)}>
            <Table.Td>
              <Checkbox
                aria-label={`Select ${nameOf(i)}`}
                checked={selected.has(keyOf(i))}
                disabled={!i.can_decide}
                onChange={(e) => toggle(i, e.currentTarget.checked)}
              />
            </Table.Td>
            <Table.Th scope="row" fw={600}>
              {i.kind === 'order' && mayOpen.order ? (
                <Anchor component={Link} to={`/order?id=${i.id}`} inherit aria-label={`Open ${i.title}`}>
                  {i.title}
                </Anchor>
              ) : i.kind === 'order' ? (
                i.title
              ) : (
                `${i.title} ${i.id}`
              )}
              {i.needs_second_approver && (
                <Badge ml={6} size="xs" variant="light" color={i.can_decide ? 'blue' : 'gray'}>
                  {i.can_decide ? 'Second approver' : 'Needs another approver'}
                </Badge>
              )}
            </Table.Th>
            <Table.Td>
              {i.customer_name !== null && i.customer_id !== null && mayOpen.customer ? (
                <Anchor component={Link} to={`/customer?id=${i.customer_id}`} inherit>
                  {i.customer_name}
                </Anchor>
              ) : (
                (i.customer_name ?? '—')
              )}
            </Table.Td>
            <NoWrapCell>
              {i.invoice_number !== null && i.invoice_id !== null && mayOpen.invoice ? (
                <Anchor component={Link} to={`/view-invoices?id=${i.invoice_id}`} inherit>
                  {i.invoice_number}
                </Anchor>
              ) : (
                (i.invoice_number ?? (i.kind === 'memo' ? 'On account' : '—'))
              )}
            </NoWrapCell>
            <FigureCell>{formatCents(i.amount_cents, i.currency)}</FigureCell>
            <FigureCell title={formatDateTime(i.requested_at)}>
              {i.age_days === 0 ? 'Today' : `${i.age_days} day${i.age_days === 1 ? '' : 's'}`}
            </FigureCell>
            <Table.Td>{i.requested_by ?? '—'}</Table.Td>
            <Table.Td>
              {i.reason ?? '—'}
              {i.note && (
                <Text size="xs" c="dimmed">
                  {i.note}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {i.can_decide ? (
                <Group gap={6} wrap="nowrap">
                  <Button
                    size="compact-sm"
                    aria-label={`Approve ${nameOf(i)}`}
                    onClick={() => setDeciding({ decision: 'approve', items: [i] })}
                  >
                    Approve
                  </Button>
                  <Button
                    size="compact-sm"
                    color="red"
                    variant="light"
                    aria-label={`Reject ${nameOf(i)}`}
                    onClick={() => setDeciding({ decision: 'reject', items: [i] })}
                  >
                    Reject
                  </Button>
                </Group>
              ) : (
                <Text size="xs" c="dimmed">
                  You asked for it: another AR approver decides.
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        hideSinglePage
        label="Approval pages"
        total={total}
        totalCapped={false}
        pageRows={items.length}
        pageSize={APPROVALS_PAGE_SIZE}
        page={page}
        onChange={list.setPage}
      />
      {decided.length > 0 && (
        <section aria-label="Decided here">
          <Title order={2} size="h4" mb={4}>
            Decided here
          </Title>
          <List size="sm" spacing={2}>
            {decided.map((d, n) => (
              <List.Item key={`${keyOf(d)}:${n}`}>
                {d.ok
                  ? `${d.name}: ${d.message} by ${getSession()?.email ?? 'you'} at ${formatDateTime(d.at)} (asked by ${d.requestedBy ?? 'unknown'}).`
                  : `${d.name}: not ${d.decision === 'approve' ? 'approved' : 'rejected'} — ${d.message}`}
              </List.Item>
            ))}
          </List>
        </section>
      )}
      {deciding && (
        <DecisionDialog
          decision={deciding.decision}
          items={deciding.items}
          onClose={() => setDeciding(null)}
          onDecided={onDecided}
        />
      )}
    </Stack>
  );
}

function DecisionDialog({
  decision,
  items,
  onClose,
  onDecided,
}: {
  readonly decision: Decision;
  readonly items: readonly ApprovalItem[];
  readonly onClose: () => void;
  readonly onDecided: (outcomes: Decided[]) => Promise<void>;
}) {
  const keys = useIdempotencyKeys();
  const [reason, setReason] = useState('');
  const [statusReasonId, setStatusReasonId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const rejectsOrders = decision === 'reject' && items.some((i) => i.kind === 'order');
  const reasons = useQuery({ ...getRejectReasonsQueryOptions(), enabled: rejectsOrders });
  const actionKey = `${decision}:${items.map(keyOf).join(',')}`;
  const verb = decision === 'approve' ? 'Approve' : 'Reject';
  const label = items.length === 1 ? nameOf(items[0]!) : `${items.length} items`;

  const send = useDecideApprovals();
  function decide() {
    send.mutate(
      {
        body: {
          items: items.map((i) => ({ kind: i.kind, id: i.id, version: i.version })),
          decision,
          reason,
          ...(rejectsOrders && statusReasonId ? { status_reason_id: Number(statusReasonId) } : {}),
        },
        idempotencyKey: keys.keyFor(actionKey),
      },
      {
        onSuccess: async (result) => {
          keys.settle(actionKey);
          const at = new Date().toISOString();
          const byKey = new Map(items.map((i) => [keyOf(i), i]));
          const outcomes = result.results.map((r): Decided => {
            const item = byKey.get(keyOf(r));
            return {
              ...r,
              name: item ? nameOf(item) : `${r.kind} ${r.id}`,
              requestedBy: item?.requested_by ?? null,
              decision,
              at,
            };
          });
          const ok = outcomes.filter((o) => o.ok).length;
          const failed = outcomes.filter((o) => !o.ok);
          notifications.show({
            color: failed.length === 0 ? 'green' : ok === 0 ? 'red' : 'yellow',
            title: `${decision === 'approve' ? 'Approved' : 'Rejected'}: ${ok} of ${outcomes.length}`,
            message: failed.length === 0 ? `${label}: done.` : failed.map((f) => `${f.name}: ${f.message}`).join(' '),
            autoClose: failed.length === 0 ? 6000 : 15_000,
            withBorder: true,
          });
          await onDecided(outcomes);
        },
        onError: (e) => {
          keys.settle(actionKey, e);
          const { title, message } = describeError(e);
          notifications.show({ color: 'red', title, message, autoClose: 10_000, withBorder: true });
        },
      },
    );
  }

  function confirm() {
    if (reason.trim().length < 3) return setError('Say why (at least 3 characters).');
    if (rejectsOrders && !statusReasonId) return setError('Choose the reason the order is rejected.');
    decide();
  }

  return (
    <Modal opened onClose={onClose} title={`${verb} ${label}?`} centered>
      <Stack>
        <Text size="sm">
          {decision === 'approve'
            ? 'Approved memos and write-offs change the invoice balance at once; an approved refund by the original charge is refunded through the gateway; an approved order moves to AR Submitted.'
            : 'Rejected requests change nothing; a rejected order moves to Rejected.'}
        </Text>
        {rejectsOrders && (
          <NativeSelect
            label="Order rejection reason"
            value={statusReasonId}
            onChange={(e) => {
              setStatusReasonId(e.currentTarget.value);
              setError(null);
            }}
            data={[
              { value: '', label: reasons.isPending ? 'Loading…' : 'Choose a reason' },
              ...(reasons.data ?? []).map((r) => ({ value: String(r.id), label: r.reason })),
            ]}
          />
        )}
        <Textarea
          label="Reason for the decision"
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          required
          rows={3}
          maxLength={500}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={send.isPending}>
            Cancel
          </Button>
          <Button color={decision === 'approve' ? undefined : 'red'} onClick={confirm} loading={send.isPending}>
            {verb}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
