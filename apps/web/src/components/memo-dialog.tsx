import { Alert, Button, Checkbox, Group, Modal, NativeSelect, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CREDIT_MEMO_TYPE,
  CREDIT_MEMO_TYPE_LABELS,
  FEES,
  REFUND_METHOD_LABELS,
  WRITE_OFF_TYPE,
  WRITE_OFF_TYPE_LABELS,
  memoCreateRequest,
  parseMoney,
  writeOffCreateRequest,
  type CreditMemoType,
  type CurrencyCode,
  type RefundMethod,
} from '@pos/domain';
import { useState } from 'react';
import { useRequestMemo, useRequestWriteOff } from '../api/memos';
import { isApiError } from '../lib/api';
import { describeError } from '../lib/error-message';
import { formatCents } from '../lib/format';
import { useIdempotencyKeys } from '../lib/idempotency';

/** The invoice a memo or write-off is asked for (the invoices screen's panel, the customer page's Invoices tab). */
export interface MemoInvoice {
  readonly id: number;
  readonly customer_id: number;
  readonly invoice_number: string;
  readonly currency: CurrencyCode | string;
  readonly total_cents: number;
  readonly balance_cents: number;
}

type Fields = Partial<Record<'type' | 'amount_cents' | 'refund_method' | 'reason' | 'note', string>>;

function fieldsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Fields {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = String(i.path[0] ?? 'reason');
    out[key] ??= i.message;
  }
  return out;
}

function toastError(error: unknown) {
  const { title, message } = describeError(error);
  notifications.show({ color: 'red', title, message, autoClose: 10_000, withBorder: true });
}

const THRESHOLD = formatCents(FEES.CREDIT_THRESHOLD_CENTS, 'USD');

/**
 * "New memo…" (credit, refund, adjustment) or "Write off…" for one invoice (issue 16, decision 120). Nothing moves
 * until someone with AR approvals approves it on #/approvals; over the credit threshold that must be someone else.
 */
export function MemoDialog({
  invoice,
  kind,
  onClose,
  onDone,
}: {
  readonly invoice: MemoInvoice;
  readonly kind: 'memo' | 'write_off';
  readonly onClose: () => void;
  /** After the request was recorded and the dialog closed (the money views are refreshed by the request itself). */
  readonly onDone?: () => void | Promise<void>;
}) {
  const keys = useIdempotencyKeys();
  const currency = invoice.currency as CurrencyCode;
  const [type, setType] = useState<CreditMemoType>(CREDIT_MEMO_TYPE.CREDIT);
  const [writeOffType, setWriteOffType] = useState<string>(String(WRITE_OFF_TYPE.WRITE_OFF));
  const [amount, setAmount] = useState('');
  const [raises, setRaises] = useState(false);
  const [refundMethod, setRefundMethod] = useState<RefundMethod>('gateway');
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Fields>({});
  const actionKey = `${kind}:${invoice.id}`;

  const memo = useRequestMemo();
  const writeOff = useRequestWriteOff();
  const save = kind === 'write_off' ? writeOff : memo;

  function sent(message: string) {
    keys.settle(actionKey);
    notifications.show({ color: 'green', title: 'Sent for approval', message, autoClose: 6000, withBorder: true });
    onClose();
    return onDone?.();
  }
  function refused(e: unknown) {
    keys.settle(actionKey, e);
    if (isApiError(e) && Object.keys(e.fields).length > 0) return setErrors(e.fields as Fields);
    toastError(e);
  }

  function send() {
    if (kind === 'write_off') {
      writeOff.mutate(
        {
          customerId: invoice.customer_id,
          body: { invoice_id: invoice.id, type: Number(writeOffType), reason, note },
          idempotencyKey: keys.keyFor(actionKey),
        },
        {
          onSuccess: (w) =>
            sent(
              `Write-off of ${formatCents(w.amount_cents, w.currency)} on invoice ${invoice.invoice_number} waits for approval.`,
            ),
          onError: refused,
        },
      );
      return;
    }
    const parsedAmount = parseMoney(amount, currency);
    const cents = parsedAmount ? Math.abs(parsedAmount.cents) : 0;
    memo.mutate(
      {
        body: {
          customer_id: invoice.customer_id,
          invoice_id: invoice.id,
          type,
          amount_cents: type === CREDIT_MEMO_TYPE.ADJUSTMENT && raises ? -cents : cents,
          reason,
          note,
          ...(type === CREDIT_MEMO_TYPE.REFUND ? { refund_method: refundMethod } : {}),
        },
        idempotencyKey: keys.keyFor(actionKey),
      },
      {
        onSuccess: (m) =>
          sent(
            `${m.type_label} memo of ${formatCents(Math.abs(m.amount_cents), m.currency)} on invoice ${invoice.invoice_number} waits for approval${m.needs_second_approver ? ' by another AR approver' : ''}.`,
          ),
        onError: refused,
      },
    );
  }

  function submit() {
    const local: Fields = {};
    if (kind === 'memo') {
      const parsed = parseMoney(amount, currency);
      if (!parsed || parsed.cents === 0) local.amount_cents = 'Enter an amount above zero, e.g. 1,500.00.';
      const check = memoCreateRequest.safeParse({
        customer_id: invoice.customer_id,
        invoice_id: invoice.id,
        type,
        amount_cents: parsed ? Math.abs(parsed.cents) || 1 : 1,
        reason,
        note,
        ...(type === CREDIT_MEMO_TYPE.REFUND ? { refund_method: refundMethod } : {}),
      });
      if (!check.success) Object.assign(local, fieldsOf(check.error.issues), local);
    } else {
      const check = writeOffCreateRequest.safeParse({
        invoice_id: invoice.id,
        type: Number(writeOffType),
        reason,
        note,
      });
      if (!check.success) Object.assign(local, fieldsOf(check.error.issues));
    }
    setErrors(local);
    if (Object.keys(local).length === 0) send();
  }

  const clear = (field: keyof Fields) => setErrors((e) => ({ ...e, [field]: undefined }));
  const title =
    kind === 'memo' ? `New memo for invoice ${invoice.invoice_number}` : `Write off invoice ${invoice.invoice_number}`;

  return (
    <Modal opened onClose={onClose} title={title} centered>
      <Stack>
        <Text size="sm">
          Total {formatCents(invoice.total_cents, currency)} · balance {formatCents(invoice.balance_cents, currency)}.
          Nothing changes until it is approved in Approvals; over {THRESHOLD} another AR approver must approve it.
        </Text>
        {kind === 'memo' ? (
          <>
            <NativeSelect
              label="Memo type"
              value={type}
              onChange={(e) => setType(e.currentTarget.value as CreditMemoType)}
              data={Object.values(CREDIT_MEMO_TYPE).map((v) => ({ value: v, label: CREDIT_MEMO_TYPE_LABELS[v] }))}
              error={errors.type}
            />
            <TextInput
              label="Amount"
              description={
                type === CREDIT_MEMO_TYPE.ADJUSTMENT
                  ? 'Lowers the balance unless "Raises the balance" is ticked.'
                  : type === CREDIT_MEMO_TYPE.REFUND
                    ? 'At most what was paid on the invoice.'
                    : 'Lowers the balance.'
              }
              value={amount}
              onChange={(e) => {
                setAmount(e.currentTarget.value);
                clear('amount_cents');
              }}
              error={errors.amount_cents}
              inputMode="decimal"
              required
              data-autofocus
            />
            {type === CREDIT_MEMO_TYPE.ADJUSTMENT && (
              <Checkbox
                label="Raises the balance"
                checked={raises}
                onChange={(e) => setRaises(e.currentTarget.checked)}
              />
            )}
            {type === CREDIT_MEMO_TYPE.REFUND && (
              <NativeSelect
                label="Refund method"
                value={refundMethod}
                onChange={(e) => setRefundMethod(e.currentTarget.value as RefundMethod)}
                data={(Object.keys(REFUND_METHOD_LABELS) as RefundMethod[]).map((v) => ({
                  value: v,
                  label: REFUND_METHOD_LABELS[v],
                }))}
                error={errors.refund_method}
              />
            )}
          </>
        ) : (
          <>
            <NativeSelect
              label="Write-off type"
              value={writeOffType}
              onChange={(e) => setWriteOffType(e.currentTarget.value)}
              data={Object.values(WRITE_OFF_TYPE).map((v) => ({
                value: String(v),
                label: `${v} ${WRITE_OFF_TYPE_LABELS[v]}`,
              }))}
              error={errors.type}
            />
            <Text size="sm">
              Writes off the open balance, {formatCents(invoice.balance_cents, currency)}; the invoice is then not
              charged or retried again.
            </Text>
          </>
        )}
        <TextInput
          label="Reason"
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            clear('reason');
          }}
          error={errors.reason}
          required
          maxLength={500}
        />
        <Textarea
          label="Note"
          description="For the approver: what was agreed, with whom."
          value={note}
          onChange={(e) => {
            setNote(e.currentTarget.value);
            clear('note');
          }}
          error={errors.note}
          required
          rows={3}
          maxLength={2000}
        />
        {save.isError && !isApiError(save.error) && <Alert color="red">{describeError(save.error).message}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            {kind === 'memo' ? 'Send memo for approval' : 'Send write-off for approval'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
