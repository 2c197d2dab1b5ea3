import { Alert, Badge, Button, Card, Group, List, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  RETURN_STATUS_LABELS,
  type ReturnAction,
  type ReturnDetail,
  type ReturnRefundMethod,
  type ReturnStatus,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable } from '../../../components/list/data-table';
import { isVersionConflict } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate, formatDateTime } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { getReturnQueryOptions, useChangeReturnStatus, useRefundReturn } from '../api/returns';

/** What the panel offers (the server checks every call again; decision 122). */
const PANEL_PRIVILEGES = ['customer_details_edit', 'ar_approvals'] as const;

const STEP_LABELS: Readonly<Record<ReturnAction, string>> = {
  receive: 'Mark received',
  inspect: 'Mark inspected',
  reject: 'Reject return',
};

/** The money of a return: terminals − restocking fee = credit; what goes back. */
export function ReturnBreakdown({ r }: { r: ReturnDetail }) {
  const money = (cents: number) => formatCents(cents, r.currency);
  const rows: [string, string][] = [
    [`Terminals (${r.terminal_count})`, money(r.value_cents)],
    [
      r.fee_waived_reason ? `Restocking fee (waived: ${r.fee_waived_reason})` : 'Restocking fee',
      `− ${money(Math.min(r.restocking_fee_cents, r.value_cents))}`,
    ],
    ['Credit to the invoice', money(r.credit_cents)],
    [
      r.status === 'refunded'
        ? `Paid back ${r.refund_method === 'check' ? 'by check' : 'to the card'}`
        : 'To pay back (what the merchant paid beyond what is still owed)',
      money(r.status === 'refunded' ? r.refund_cents : r.refund_preview_cents),
    ],
  ];
  return (
    <Table aria-label={`Refund of return #${r.id}`} withTableBorder maw={560} fz="sm">
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th scope="row">{k}</Table.Th>
            <Table.Td ta="right">{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Requested → Received → Inspected → Refunded (or Rejected), each with its date. */
function Steps({ r }: { r: ReturnDetail }) {
  const steps: { status: ReturnStatus; at: string | null }[] = [
    { status: 'requested', at: r.created_at },
    { status: 'received', at: r.received_at },
    { status: 'inspected', at: r.inspected_at },
    r.status === 'rejected' ? { status: 'rejected', at: r.decided_at } : { status: 'refunded', at: r.decided_at },
  ];
  return (
    <List type="ordered" aria-label="Return steps" size="sm">
      {steps.map((s) => (
        <List.Item key={s.status} aria-current={r.status === s.status ? 'step' : undefined}>
          <Text span fw={r.status === s.status ? 700 : 400}>
            {RETURN_STATUS_LABELS[s.status]}
          </Text>
          {s.at ? ` — ${formatDateTime(s.at)}` : ''}
        </List.Item>
      ))}
    </List>
  );
}

/**
 * One return (decision 122): its steps, terminals, the hardware invoice and the money; the next step's buttons —
 * Mark received (its terminals are retired), Mark inspected, Refund to the card or by check, or Reject with a reason.
 * The server decides who may (a refusal says so in a toast).
 */
export function ReturnPanel({ id, onClose }: { id: number; onClose?: () => void }) {
  const one = useQuery(getReturnQueryOptions(id));
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [refundMethod, setRefundMethod] = useState<ReturnRefundMethod | null>(null);
  const keys = useIdempotencyKeys();
  const granted = useQuery(getPermissionsQueryOptions(PANEL_PRIVILEGES)).data;
  const mayHandle = granted?.customer_details_edit === true;
  const mayRefund = granted?.ar_approvals === true;

  const fail = (what: string) => (error: unknown) => {
    const { title, message } = describeError(error);
    notifications.show({
      color: 'red',
      title: `${what} did not go through — ${title}`,
      message: isVersionConflict(error)
        ? 'Someone changed this return meanwhile. It is shown as it is now; check it and try again.'
        : `${message} The return is shown as it is now.`,
      autoClose: 10_000,
    });
  };
  const step = useChangeReturnStatus();
  const refund = useRefundReturn();

  function move(input: { action: ReturnAction; version: number; reason?: string }) {
    step.mutate(
      { id, ...input },
      {
        onSuccess: (r) => {
          setRejecting(false);
          setReason('');
          notifications.show({
            color: 'green',
            title: `Return #${id}: ${RETURN_STATUS_LABELS[r.status]}`,
            message:
              input.action === 'receive'
                ? `${r.terminal_count === 1 ? 'Its terminal is' : `Its ${r.terminal_count} terminals are`} retired and left the store's terminal list.`
                : input.action === 'inspect'
                  ? 'Ready for the refund step.'
                  : 'The return is rejected; the merchant is not credited.',
            autoClose: 6000,
          });
        },
        onError: fail(STEP_LABELS[input.action]),
      },
    );
  }

  function refundBy(method: ReturnRefundMethod, version: number) {
    const action = `refund:${id}:${method}`;
    refund.mutate(
      { id, method, version, idempotencyKey: keys.keyFor(action) },
      {
        onSuccess: (r) => {
          keys.settle(action);
          notifications.show({
            color: 'green',
            title: `Return #${id} refunded`,
            message:
              r.refund_cents > 0
                ? `${formatCents(r.credit_cents, r.currency)} credited to invoice ${r.invoice_number ?? ''}; ${formatCents(r.refund_cents, r.currency)} paid back ${r.refund_method === 'check' ? 'by check (send the check)' : 'to the card'}.`
                : `${formatCents(r.credit_cents, r.currency)} credited to invoice ${r.invoice_number ?? ''}; nothing was paid, so nothing goes back.`,
            autoClose: 10_000,
          });
        },
        onError: (error) => {
          keys.settle(action, error);
          fail('The refund')(error);
        },
      },
    );
  }

  if (one.isPending) return <Text>Loading return #{id}…</Text>;
  if (one.isError)
    return (
      <Alert color="red" title={describeError(one.error).title}>
        {describeError(one.error).message}
      </Alert>
    );
  const r = one.data;
  const busy = step.isPending || refund.isPending;
  const open = r.status === 'requested' || r.status === 'received' || r.status === 'inspected';
  const canReject = open && (mayHandle || mayRefund);
  const noCard = r.refund_preview_cents > 0 && !r.invoice?.card_refundable;

  return (
    <Card withBorder component="section" aria-labelledby={`return-${id}-title`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3" id={`return-${id}-title`}>
            Return #{r.id} — {r.legal_name}
          </Title>
          <Group gap="xs">
            <Badge color={r.status === 'rejected' ? 'red' : r.status === 'refunded' ? 'green' : 'blue'}>
              {RETURN_STATUS_LABELS[r.status]}
            </Badge>
            {onClose && (
              <Button variant="subtle" size="xs" onClick={onClose}>
                Close return
              </Button>
            )}
          </Group>
        </Group>
        <Text size="sm">
          {r.doing_business_as ?? 'Store'} (store {r.store_id ?? '—'}) · requested by {r.created_by_email} · reason:{' '}
          {r.reason}
        </Text>
        {r.invoice && (
          <Text size="sm">
            Hardware invoice {r.invoice.invoice_number} of {formatDate(r.invoice.issued_on)}: total{' '}
            {formatCents(r.invoice.total_cents, r.currency)}, paid {formatCents(r.invoice.paid_cents, r.currency)}, open{' '}
            {formatCents(r.invoice.open_cents, r.currency)}
            {r.invoice.card_refundable ? ' · paid by card' : ''}
          </Text>
        )}
        <Steps r={r} />
        {r.decision_reason && <Text size="sm">Decision: {r.decision_reason}</Text>}
        <DataTable
          caption={`Terminals of return #${r.id}`}
          columns={['Terminal id', 'Serial number', 'Status', 'Price on the invoice']}
          minWidth={480}
          rowCount={r.terminals.length}
          emptyText="No terminals recorded (an older return)."
        >
          {r.terminals.map((t) => (
            <Table.Tr key={t.terminal_id}>
              <Table.Td>{t.elmer_id}</Table.Td>
              <Table.Td>{t.serial_number}</Table.Td>
              <Table.Td>{t.status}</Table.Td>
              <Table.Td>{formatCents(t.unit_cents, r.currency)}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
        <ReturnBreakdown r={r} />
        {r.status === 'inspected' && r.needs_second_person && (
          <Text size="sm" c="dimmed">
            The credit is above {formatCents(100_000, r.currency)}: someone other than {r.created_by_email} refunds it.
          </Text>
        )}
        <Group gap="xs" role="group" aria-label={`Next step of return #${r.id}`}>
          {r.status === 'requested' && mayHandle && (
            <Button disabled={busy} onClick={() => move({ action: 'receive', version: r.version })}>
              Mark received
            </Button>
          )}
          {r.status === 'received' && mayHandle && (
            <Button disabled={busy} onClick={() => move({ action: 'inspect', version: r.version })}>
              Mark inspected
            </Button>
          )}
          {r.status === 'inspected' && mayRefund && (
            <>
              <Button disabled={busy || noCard} onClick={() => setRefundMethod('gateway')}>
                Refund to card
              </Button>
              <Button variant="light" disabled={busy} onClick={() => setRefundMethod('check')}>
                Refund by check
              </Button>
            </>
          )}
          {canReject && !rejecting && (
            <Button variant="subtle" color="red" disabled={busy} onClick={() => setRejecting(true)}>
              Reject…
            </Button>
          )}
        </Group>
        {granted && open && !canReject && (
          <Text size="sm" c="dimmed">
            The next step is for Customer Service (receive, inspect) or AR (refund); your role may follow the return.
          </Text>
        )}
        {granted && r.status === 'inspected' && !mayRefund && mayHandle && (
          <Text size="sm" c="dimmed">
            Inspected: AR refunds it (privilege ar_approvals).
          </Text>
        )}
        {noCard && r.status === 'inspected' && mayRefund && (
          <Text size="sm" c="dimmed">
            The invoice was not paid by a card charge the gateway can refund: refund by check.
          </Text>
        )}
        {rejecting && (
          <Stack gap="xs" maw={560}>
            <Textarea
              label="Why is the return rejected?"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={reasonError}
              minRows={2}
            />
            <Group gap="xs">
              <Button
                color="red"
                loading={step.isPending}
                onClick={() => {
                  if (!reason.trim()) {
                    setReasonError('Say why the return is rejected.');
                    return;
                  }
                  setReasonError(null);
                  move({ action: 'reject', version: r.version, reason: reason.trim() });
                }}
              >
                Reject return
              </Button>
              <Button variant="default" onClick={() => setRejecting(false)}>
                Keep the return
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        opened={refundMethod !== null}
        title={`Refund return #${r.id}`}
        message={
          refundMethod === 'gateway'
            ? `Credit ${formatCents(r.credit_cents, r.currency)} to the invoice and pay ${formatCents(r.refund_preview_cents, r.currency)} back to the card?`
            : `Credit ${formatCents(r.credit_cents, r.currency)} to the invoice and pay ${formatCents(r.refund_preview_cents, r.currency)} back by check?`
        }
        confirmLabel={refundMethod === 'gateway' ? 'Refund to the card' : 'Refund by check'}
        busy={refund.isPending}
        onClose={() => setRefundMethod(null)}
        onConfirm={() => {
          if (refundMethod) refundBy(refundMethod, r.version);
          setRefundMethod(null);
        }}
      />
    </Card>
  );
}
