import {
  Alert,
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
  FEES,
  type ApprovalDecisionOutcome,
  type ApprovalItem,
} from '@pos/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import { getSession } from '../../../lib/session';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDateTime } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import {
  APPROVALS_PAGE_SIZE,
  approvalKeys,
  decideApprovals,
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
 * credit threshold cannot be decided by the person who asked for it.
 */
export default function ApprovalsPage() {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ApprovalFilters>(NO_APPROVAL_FILTERS);
  const [filters, setFilters] = useState<ApprovalFilters>(NO_APPROVAL_FILTERS);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<string, ApprovalItem>>(new Map());
  const [deciding, setDeciding] = useState<{ decision: Decision; items: ApprovalItem[] } | null>(null);
  const [decided, setDecided] = useState<Decided[]>([]);
  const list = useQuery({ ...getApprovalListQueryOptions({ ...filters, page }), meta: { silentError: true } });
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  function apply(e: FormEvent) {
    e.preventDefault();
    setFilters(draft);
    setPage(1);
    setSelected(new Map());
  }
  function clear() {
    setDraft(NO_APPROVAL_FILTERS);
    setFilters(NO_APPROVAL_FILTERS);
    setPage(1);
    setSelected(new Map());
  }
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
    await queryClient.invalidateQueries({ queryKey: approvalKeys.all });
    // Balances changed: the invoices screen and customer pages read them again when next shown.
    await queryClient.invalidateQueries({ queryKey: ['invoices'] });
    await queryClient.invalidateQueries({ queryKey: ['customers'] });
  }

  const columns = [
    <Table.Th key="select" w={40}>
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
    'Amount',
    'Waiting',
    'Requested by',
    'Reason',
    'Decide',
  ];

  return (
    <Stack gap="md">
      <Title order={1}>Approvals</Title>
      <Text c="dimmed" size="sm">
        Memos, write-offs and orders waiting for AR approval, oldest first. Over {THRESHOLD}, someone other than the
        requester must approve.
      </Text>
      <form aria-label="Filter approvals" onSubmit={apply}>
        <Group align="flex-end" gap="sm">
          <NativeSelect
            label="Kind"
            value={draft.kind}
            onChange={(e) => setDraft({ ...draft, kind: e.currentTarget.value })}
            data={[
              { value: '', label: 'All kinds' },
              ...APPROVAL_KINDS.map((k) => ({ value: k, label: APPROVAL_KIND_LABELS[k] })),
            ]}
          />
          <TextInput
            label="Smallest amount"
            value={draft.amountMin}
            onChange={(e) => setDraft({ ...draft, amountMin: e.currentTarget.value })}
            inputMode="decimal"
            w={140}
          />
          <TextInput
            label="Largest amount"
            value={draft.amountMax}
            onChange={(e) => setDraft({ ...draft, amountMax: e.currentTarget.value })}
            inputMode="decimal"
            w={140}
          />
          <TextInput
            label="Waiting at least (days)"
            value={draft.olderThanDays}
            onChange={(e) => setDraft({ ...draft, olderThanDays: e.currentTarget.value })}
            inputMode="numeric"
            w={170}
          />
          <TextInput
            label="Requester"
            value={draft.requester}
            onChange={(e) => setDraft({ ...draft, requester: e.currentTarget.value })}
            w={220}
          />
          <Button type="submit">Apply</Button>
          <Button variant="default" onClick={clear}>
            Clear
          </Button>
        </Group>
      </form>
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
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
        caption={list.isPending ? 'Approvals (loading…)' : `Approvals — ${formatTotal(total)} waiting`}
        columns={columns}
        minWidth={1100}
        rowCount={items.length}
        emptyText="Nothing is waiting for approval."
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
              {i.kind === 'order' ? i.title : `${i.title} ${i.id}`}
              {i.needs_second_approver && (
                <Badge ml={6} size="xs" variant="light" color={i.can_decide ? 'blue' : 'gray'}>
                  {i.can_decide ? 'Second approver' : 'Needs another approver'}
                </Badge>
              )}
            </Table.Th>
            <Table.Td>{i.customer_name ?? '—'}</Table.Td>
            <Table.Td>{i.invoice_number ?? (i.kind === 'memo' ? 'On account' : '—')}</Table.Td>
            <Table.Td>{formatCents(i.amount_cents, i.currency)}</Table.Td>
            <Table.Td title={formatDateTime(i.requested_at)}>
              {i.age_days === 0 ? 'Today' : `${i.age_days} day${i.age_days === 1 ? '' : 's'}`}
            </Table.Td>
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
        onChange={setPage}
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

  const send = useMutation({
    mutationFn: () =>
      decideApprovals(
        {
          items: items.map((i) => ({ kind: i.kind, id: i.id, version: i.version })),
          decision,
          reason,
          ...(rejectsOrders && statusReasonId ? { status_reason_id: Number(statusReasonId) } : {}),
        },
        keys.keyFor(actionKey),
      ),
    meta: { silentError: true },
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
  });

  function confirm() {
    if (reason.trim().length < 3) return setError('Say why (at least 3 characters).');
    if (rejectsOrders && !statusReasonId) return setError('Choose the reason the order is rejected.');
    send.mutate();
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
