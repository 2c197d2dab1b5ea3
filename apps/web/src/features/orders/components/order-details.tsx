import {
  Alert,
  Button,
  CloseButton,
  Group,
  Paper,
  NativeSelect,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  allowedNextStatuses,
  effectivePrivileges,
  ORDER_STATUS,
  orderStatusLabel,
  terminalSerialNumber,
  transitionRequiresReason,
  type OrderSearchRecord,
  statusMoversText,
  type OrderStatusCode,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { isApiError, isVersionConflict } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { useSession } from '../../../lib/session';
import {
  getOrderHistoryQueryOptions,
  getOrderNotesQueryOptions,
  getOrderTerminalsQueryOptions,
  getStatusReasonsQueryOptions,
  useAddOrderNote,
  useMoveOrderStatus,
} from '../api/orders';
import { formatCents, formatDateTime } from '../../../lib/format';
import { OrderHoldAlert } from '../../../components/order-hold-alert';
import { OrderAgentSection, OrderContractSection } from './order-contract-section';
import { OrderAgentsSection } from './order-agents-section';
import { OrderCustomerMatchSection } from './order-customer-match';

export const ORDER_CONFLICT_MESSAGE =
  'Someone else changed this order while you had it open. The latest version is now shown: check it and try again.';

function notifyFailure(error: unknown) {
  const { title, message } = describeError(error);
  notifications.show({ color: 'red', title, message, autoClose: 8000, withBorder: true });
}

export interface OrderDetailsProps {
  /** The order whose panel is open; null: closed. */
  readonly order: OrderSearchRecord | null;
  readonly onClose: () => void;
  /** After a status change: the order with its new status and version. */
  readonly onChanged: (order: OrderSearchRecord) => void;
}

/** The details panel of one order (next to the list): summary, "Change status", status history, notes. */
export function OrderDetails({ order, onClose, onChanged }: OrderDetailsProps) {
  if (!order) return null;
  const title = `Order ${order.unified_order_id}`;
  return (
    <Paper component="section" aria-label={title} withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <CloseButton aria-label="Close order details" onClick={onClose} />
      </Group>
      <OrderDetailsBody key={order.id} order={order} onChanged={onChanged} />
    </Paper>
  );
}

function OrderDetailsBody({
  order,
  onChanged,
}: {
  order: OrderSearchRecord;
  onChanged: (o: OrderSearchRecord) => void;
}) {
  const { session } = useSession();
  const canEdit = session
    ? effectivePrivileges(session.role, session.additional_privileges).includes('search_orders_edit')
    : false;
  return (
    <Stack gap="lg">
      <OrderSummary order={order} />
      <OrderHoldAlert orderId={order.id} canRetry={canEdit} />
      <OrderCustomerMatchSection order={order} />
      <ChangeStatus order={order} onChanged={onChanged} />
      <OrderContractSection order={order} canEdit={canEdit} />
      <OrderAgentSection order={order} canEdit={canEdit} onChanged={onChanged} />
      <OrderAgentsSection order={order} canEdit={canEdit} onChanged={onChanged} />
      <StatusHistory orderId={order.id} />
      <OrderNotes orderId={order.id} />
    </Stack>
  );
}

function OrderSummary({ order }: { order: OrderSearchRecord }) {
  const rows: [string, string][] = [
    ['Order', `${order.unified_order_id} (#${order.id})`],
    ['Status', order.status_label],
    ['Flow', order.flow],
    ['Legal name', order.legal_name ?? '—'],
    ['DBA', order.dba_name ?? '—'],
    ['Sales rep', order.sales_rep ?? '—'],
    ['Agent', order.agent ?? '—'],
    ['Total sale', formatCents(order.total_sale_cents, order.currency)],
    ['Order date', formatDateTime(order.order_date)],
  ];
  return (
    <section aria-label="Order summary">
      <Title order={3} size="h5" mb="xs">
        Summary
      </Title>
      <Table fz="sm" verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th scope="row" w="35%">
                {k}
              </Table.Th>
              <Table.Td>{v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </section>
  );
}

function StatusHistory({ orderId }: { orderId: number }) {
  const history = useQuery(getOrderHistoryQueryOptions(orderId));
  const items = history.data ?? [];
  return (
    <section aria-label="Status history">
      <Title order={3} size="h5" mb="xs">
        Status history
      </Title>
      {history.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : items.length === 0 ? (
        <Text c="dimmed">No status changes yet.</Text>
      ) : (
        <Table fz="sm" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">From</Table.Th>
              <Table.Th scope="col">To</Table.Th>
              <Table.Th scope="col">Reason / note</Table.Th>
              <Table.Th scope="col">By</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((h) => (
              <Table.Tr key={h.id}>
                <Table.Td>{formatDateTime(h.changed_at)}</Table.Td>
                <Table.Td>{h.from_status ? orderStatusLabel(h.from_status) : '—'}</Table.Td>
                <Table.Td>{orderStatusLabel(h.to_status)}</Table.Td>
                <Table.Td>{[h.reason, h.note].filter(Boolean).join(' — ') || '—'}</Table.Td>
                <Table.Td>{h.changed_by_email}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </section>
  );
}

function OrderNotes({ orderId }: { orderId: number }) {
  const notes = useQuery(getOrderNotesQueryOptions(orderId));
  const [text, setText] = useState('');
  const add = useAddOrderNote(orderId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() !== '') add.mutate(text.trim(), { onSuccess: () => setText(''), onError: notifyFailure });
  };
  const items = notes.data ?? [];
  return (
    <section aria-label="Notes">
      <Title order={3} size="h5" mb="xs">
        Notes
      </Title>
      <form onSubmit={submit} aria-label="Add a note">
        <Stack gap="xs">
          <Textarea
            label="Note"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            maxLength={4000}
            minRows={2}
          />
          <Group>
            <Button type="submit" loading={add.isPending} disabled={text.trim() === ''}>
              Add note
            </Button>
          </Group>
        </Stack>
      </form>
      {notes.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : items.length === 0 ? (
        <Text c="dimmed" mt="xs">
          No notes yet.
        </Text>
      ) : (
        <Stack component="ul" gap="xs" mt="xs" style={{ listStyle: 'none', padding: 0 }}>
          {items.map((n) => (
            <li key={n.id}>
              <Text size="sm">{n.body}</Text>
              <Text size="xs" c="dimmed">
                {n.created_by_email} · {formatDateTime(n.created_at)}
                {n.reason ? ` · ${n.reason}` : ''}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </section>
  );
}

/** The errors of the typed serial numbers (by terminal index): the contract's rule, and no two alike. */
function serialErrors(serials: readonly string[]): Record<number, string> {
  const errors: Record<number, string> = {};
  const seen = new Map<string, number>();
  serials.forEach((raw, i) => {
    const parsed = terminalSerialNumber.safeParse(raw);
    if (!parsed.success) {
      errors[i] = parsed.error.issues[0]?.message ?? 'Enter the serial number.';
      return;
    }
    const key = parsed.data.toUpperCase();
    const first = seen.get(key);
    if (first !== undefined) errors[i] = `The same as terminal ${first + 1}.`;
    else seen.set(key, i);
  });
  return errors;
}

function ChangeStatus({ order, onChanged }: { order: OrderSearchRecord; onChanged: (o: OrderSearchRecord) => void }) {
  const { session } = useSession();
  const role = session?.role ?? '';
  const privileges = effectivePrivileges(role, session?.additional_privileges ?? []);
  const options = allowedNextStatuses(order.status, { role, privileges });
  const [to, setTo] = useState<OrderStatusCode | null>(null);
  const [reasonId, setReasonId] = useState<string | null>(null);
  const [note, setNote] = useState('');
  // Completing an order at Installation installs its terminals: Operations enters their serials (decision 150).
  const needsSerials = order.status === ORDER_STATUS.INSTALLATION && to === ORDER_STATUS.COMPLETE;
  const terminals = useQuery(getOrderTerminalsQueryOptions(order.id, needsSerials));
  const terminalCount = needsSerials ? (terminals.data?.count ?? 0) : 0;
  const [typed, setTyped] = useState<Record<number, string>>({});
  const [serialsTried, setSerialsTried] = useState(false);
  const serials = Array.from({ length: terminalCount }, (_, i) => typed[i] ?? terminals.data?.serials[i] ?? '');
  const localSerialErrors = serialErrors(serials);
  const [failure, setFailure] = useState<unknown>(null);
  const needsReason = to !== null && transitionRequiresReason(to);
  const reasons = useQuery(getStatusReasonsQueryOptions(needsReason ? to : null));
  const reasonOptions = (reasons.data?.statuses.find((s) => s.status === to)?.reasons ?? []).map((r) => ({
    value: String(r.id),
    label: r.reason,
  }));
  const change = useMoveOrderStatus();
  const move = (status: OrderStatusCode) => {
    setFailure(null);
    change.mutate(
      {
        order_id: order.id,
        status,
        status_reason_id: reasonId ? Number(reasonId) : undefined,
        note: note.trim() || undefined,
        version: order.version,
        ...(terminalCount > 0 ? { terminal_serials: serials.map((v) => v.trim()) } : {}),
      },
      {
        onSuccess: (info) => {
          notifications.show({
            color: 'green',
            title: 'Status changed',
            message: `Now ${orderStatusLabel(info.order.status)}.`,
            autoClose: 5000,
          });
          setTo(null);
          setReasonId(null);
          setNote('');
          setTyped({});
          setSerialsTried(false);
          const { status: now, version, updated_at } = info.order;
          onChanged({ ...order, status: now, status_label: orderStatusLabel(now) ?? now, version, updated_at });
        },
        onError: (error) => {
          if (isVersionConflict(error)) {
            // The hook has read the order again: the panel shows the latest version.
            notifications.show({
              id: 'order-conflict',
              color: 'orange',
              title: 'Changed by someone else',
              message: ORDER_CONFLICT_MESSAGE,
              autoClose: 10_000,
            });
            return;
          }
          setFailure(error);
          notifyFailure(error);
        },
      },
    );
  };
  const serverFields = isApiError(failure) ? failure.fields : {};
  const serialError = (i: number): string | undefined =>
    (serialsTried ? localSerialErrors[i] : undefined) ?? serverFields[`terminal_serials.${i}`];
  const serialsMissing = needsSerials && (terminals.isPending || serials.some((v) => v.trim() === ''));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSerialsTried(true);
    if (Object.keys(localSerialErrors).length > 0) return;
    if (to !== null && (!needsReason || reasonId !== null) && !serialsMissing) move(to);
  };
  const failureMessage = failure ? describeError(failure) : null;
  return (
    <section aria-label="Change status">
      <Title order={3} size="h5" mb="xs">
        Change status
      </Title>
      {options.length === 0 ? (
        <Alert color="gray">
          {statusMoversText(order.status as OrderStatusCode) === null
            ? `An order in ${order.status_label} is final: it does not move to another status.`
            : `An order in ${order.status_label} is moved on by ${statusMoversText(order.status as OrderStatusCode)}; your role cannot move it.`}
        </Alert>
      ) : (
        <form onSubmit={submit} aria-label="Change status" noValidate>
          <Stack gap="xs">
            <NativeSelect
              label="New status"
              data={[
                { value: '', label: 'Choose…' },
                ...options.map((s) => ({ value: s, label: orderStatusLabel(s) ?? s })),
              ]}
              value={to ?? ''}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setTo(v === '' ? null : (v as OrderStatusCode));
                setReasonId(null);
                setFailure(null);
              }}
            />
            {needsReason && (
              <NativeSelect
                label="Reason"
                data={[{ value: '', label: reasons.isPending ? 'Loading…' : 'Choose…' }, ...reasonOptions]}
                value={reasonId ?? ''}
                onChange={(e) => setReasonId(e.currentTarget.value === '' ? null : e.currentTarget.value)}
                required
              />
            )}
            {needsSerials && terminals.isPending && <Text c="dimmed">Loading the order’s terminals…</Text>}
            {needsSerials && terminals.isError && (
              <Alert color="red" title="Could not read the order’s terminals">
                {describeError(terminals.error).message}
              </Alert>
            )}
            {terminalCount > 0 && (
              <fieldset aria-label="Terminal serial numbers" style={{ border: 0, padding: 0, margin: 0 }}>
                <Stack gap="xs">
                  <Text size="sm">Enter the serial number printed on each terminal installed.</Text>
                  {serials.map((value, i) => (
                    <TextInput
                      key={i}
                      label={`Serial number, terminal ${i + 1} of ${terminalCount}`}
                      value={value}
                      onChange={(e) => {
                        const v = e.currentTarget.value;
                        setTyped((t) => ({ ...t, [i]: v }));
                      }}
                      error={serialError(i)}
                      maxLength={64}
                      autoComplete="off"
                      required
                    />
                  ))}
                </Stack>
              </fieldset>
            )}
            <Textarea
              label="Status note"
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
              maxLength={4000}
              minRows={1}
            />
            {failureMessage && (
              <Alert color="red" title={failureMessage.title} role="alert">
                {failureMessage.message}
              </Alert>
            )}
            <Group>
              <Button
                type="submit"
                loading={change.isPending}
                disabled={to === null || (needsReason && reasonId === null) || serialsMissing}
              >
                Change status
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </section>
  );
}
