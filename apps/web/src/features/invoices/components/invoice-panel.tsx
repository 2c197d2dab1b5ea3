import { Alert, Button, CloseButton, Group, Modal, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CREDIT_MEMO_STATUS_LABELS,
  CREDIT_MEMO_TYPE_LABELS,
  INVOICE_STATUS,
  invoiceItemLines,
  invoiceReverseRequest,
  mailTemplateLabel,
  type CreditMemoStatus,
  type CreditMemoType,
  type InvoicePage,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { MemoDialog } from '../../../components/memo-dialog';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate, formatDateTime } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { getInvoicePageQueryOptions, useDownloadInvoicePdf, useEmailInvoice, useReverseInvoice } from '../api/invoices';

/** Reverse is the customer accounts' call: it needs customer_details_edit (the server checks it again). */
const REVERSE_PRIVILEGES = ['customer_details_edit'] as const;

function showError(error: unknown) {
  const { title, message } = describeError(error);
  notifications.show({ color: 'red', title, message, autoClose: 10_000, withBorder: true });
}

function Section({ title, children }: { readonly title: string; readonly children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function SmallTable({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <Table verticalSpacing={4} fz="sm" striped>
      <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }} className="visually-hidden">
        {caption}
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {head.map((h) => (
            <Table.Th key={h} scope="col">
              {h}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((cells, i) => (
          <Table.Tr key={i}>
            {cells.map((c, k) => (
              <Table.Td key={k}>{c}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** What a history entry says, in words. */
function historyText(action: string, after: unknown): string {
  const a = (after ?? {}) as Record<string, unknown>;
  if (action === 'email') return `E-mailed to ${String(a.to ?? 'the merchant')} (${mailTemplateLabel('invoice')})`;
  if (action === 'reverse') return `Reversed${a.reason ? `: ${String(a.reason)}` : ''}`;
  if (action === 'create') return 'Created';
  return action.charAt(0).toUpperCase() + action.slice(1);
}

/**
 * One invoice (decision 114): lines by billing item, tax and total, payments, credit memos, write-offs, receipts
 * applied, the ledger's balance and the history; Download PDF, E-mail to merchant, and Reverse for users who may.
 */
export function InvoicePanel({ invoiceId, onClose }: { readonly invoiceId: number; readonly onClose: () => void }) {
  const detail = useQuery({ ...getInvoicePageQueryOptions(invoiceId), meta: { silentError: true } });
  const mayReverse = useQuery({
    ...getPermissionsQueryOptions(REVERSE_PRIVILEGES),
    select: (flags) => flags.customer_details_edit === true,
  });
  const [reversing, setReversing] = useState(false);
  const [asking, setAsking] = useState<'memo' | 'write_off' | null>(null);
  const inv = detail.data;

  const pdf = useDownloadInvoicePdf();
  const email = useEmailInvoice();
  const downloadPdf = () =>
    pdf.mutate({ invoiceId, fileName: `invoice-${inv?.invoice_number ?? invoiceId}.pdf` }, { onError: showError });
  const emailToMerchant = () =>
    email.mutate(invoiceId, {
      onSuccess: (sent) =>
        notifications.show({
          color: 'green',
          title: 'Invoice e-mailed',
          message: `Invoice ${inv?.invoice_number ?? invoiceId} was sent to ${sent.to} with its PDF attached.`,
          autoClose: 6000,
          withBorder: true,
        }),
      onError: showError,
    });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="invoice-title">
      <Group justify="space-between" align="flex-start" mb="sm">
        <Title order={2} size="h3" id="invoice-title">
          {inv ? `Invoice ${inv.invoice_number}` : `Invoice ${invoiceId}`}
        </Title>
        <CloseButton aria-label="Close the invoice" onClick={onClose} />
      </Group>
      {detail.isPending && <Text c="dimmed">Loading the invoice…</Text>}
      {detail.isError && (
        <Alert color="red" title={describeError(detail.error).title}>
          {isApiError(detail.error) && detail.error.status === 404
            ? `Invoice ${invoiceId} was not found. Check the number, or open the invoice from the list.`
            : describeError(detail.error).message}
        </Alert>
      )}
      {inv && (
        <Stack gap="md">
          <Text size="sm">
            {inv.legal_name} (customer {inv.customer_id})
            {inv.store_id !== null && ` · ${inv.doing_business_as ?? ''} (store ${inv.store_id})`} · {inv.type_label} ·{' '}
            {inv.status_label}
            {inv.overdue ? ' · overdue' : ''} · issued {formatDate(inv.issued_on)} · due {formatDate(inv.due_on)}
            {inv.period_start && ` · period ${formatDate(inv.period_start)} – ${formatDate(inv.period_end)}`}
          </Text>
          <Group gap="sm">
            <Button onClick={downloadPdf} loading={pdf.isPending}>
              Download PDF
            </Button>
            <Button
              variant="light"
              onClick={emailToMerchant}
              loading={email.isPending}
              disabled={!inv.merchant_email}
              title={inv.merchant_email ? `Send to ${inv.merchant_email}` : 'The merchant has no e-mail address'}
            >
              E-mail to merchant
            </Button>
            {inv.status !== INVOICE_STATUS.REVERSED && (
              <Button variant="light" onClick={() => setAsking('memo')}>
                New memo…
              </Button>
            )}
            {inv.status !== INVOICE_STATUS.REVERSED && inv.balance_cents > 0 && (
              <Button variant="light" color="orange" onClick={() => setAsking('write_off')}>
                Write off…
              </Button>
            )}
            {mayReverse.data === true && inv.can_reverse && (
              <Button variant="light" color="red" onClick={() => setReversing(true)}>
                Reverse
              </Button>
            )}
          </Group>
          <Balance inv={inv} />
          <Section title="Lines">
            <SmallTable
              caption="Lines"
              head={['Billing item', 'Description', 'Qty', 'Unit', 'Amount']}
              rows={[
                ...invoiceItemLines(inv.lines).map((l) => [
                  l.billing_item_name,
                  l.description,
                  l.quantity,
                  formatCents(l.unit_cents, inv.currency),
                  formatCents(l.amount_cents, inv.currency),
                ]),
                // The tax once, named for the jurisdiction (decision 149).
                ...inv.tax_lines.map((x) => [x.label, '', '', '', formatCents(x.amount_cents, inv.currency)]),
                [
                  <strong key="t">Total</strong>,
                  '',
                  '',
                  '',
                  <strong key="v">{formatCents(inv.total_cents, inv.currency)}</strong>,
                ],
              ]}
            />
            {inv.tax_registrations.map((r) => (
              <Text key={r.label} size="sm" c="dimmed">
                {r.label} {r.number}
              </Text>
            ))}
          </Section>
          {inv.credit_invoice && (
            <Section title={`Credit invoice ${inv.credit_invoice.invoice_number}`}>
              <Text size="sm">
                Issued {formatDate(inv.credit_invoice.issued_on)} by{' '}
                {inv.credit_invoice.created_by_email ?? 'the system'} — {inv.credit_invoice.reason}. It nets this
                invoice: together they come to{' '}
                {formatCents(inv.total_cents + inv.credit_invoice.total_cents, inv.currency)}.
              </Text>
              <SmallTable
                caption={`Credit invoice ${inv.credit_invoice.invoice_number}`}
                head={['Description', 'Qty', 'Unit', 'Amount']}
                rows={[
                  ...inv.credit_invoice.lines.map((l) => [
                    l.description,
                    l.quantity,
                    formatCents(l.unit_cents, inv.currency),
                    formatCents(l.amount_cents, inv.currency),
                  ]),
                  [
                    <strong key="t">Total</strong>,
                    '',
                    '',
                    <strong key="v">{formatCents(inv.credit_invoice.total_cents, inv.currency)}</strong>,
                  ],
                ]}
              />
            </Section>
          )}
          <Section title="Payments">
            {inv.transactions.length === 0 && inv.receipts.length === 0 ? (
              <Text size="sm" c="dimmed">
                No payments.
              </Text>
            ) : (
              <SmallTable
                caption="Payments"
                head={['Payment', 'Kind', 'Status', 'Amount', 'Date']}
                rows={[
                  ...inv.transactions.map((t) => [
                    `Transaction ${t.id}`,
                    t.kind,
                    t.status_label,
                    formatCents(t.amount_cents, t.currency),
                    formatDateTime(t.attempted_at),
                  ]),
                  ...inv.receipts.map((r) => [
                    `Receipt ${r.receipt_id}${r.reference ? ` (${r.reference})` : ''}`,
                    r.method,
                    'Applied',
                    formatCents(r.amount_cents, inv.currency),
                    formatDate(r.received_on),
                  ]),
                ]}
              />
            )}
          </Section>
          <Section title="Credits">
            {inv.credit_memos.length === 0 ? (
              <Text size="sm" c="dimmed">
                No credit memos.
              </Text>
            ) : (
              <SmallTable
                caption="Credit memos"
                head={['Memo', 'Type', 'Status', 'Amount', 'Reason', 'Asked by', 'Decided by']}
                rows={inv.credit_memos.map((m) => [
                  `Memo ${m.id}`,
                  CREDIT_MEMO_TYPE_LABELS[m.type as CreditMemoType] ?? m.type,
                  CREDIT_MEMO_STATUS_LABELS[m.status as CreditMemoStatus] ?? m.status,
                  formatCents(m.amount_cents, m.currency),
                  m.reason,
                  `${m.created_by_email}, ${formatDateTime(m.created_at)}`,
                  m.approved_by_email ? `${m.approved_by_email}, ${formatDateTime(m.decided_at)}` : '—',
                ])}
              />
            )}
          </Section>
          <Section title="Write-offs">
            {inv.write_offs.length === 0 ? (
              <Text size="sm" c="dimmed">
                No write-offs.
              </Text>
            ) : (
              <SmallTable
                caption="Write-offs"
                head={['Write-off', 'Status', 'Amount', 'Reason', 'By', 'Date', 'Decided by']}
                rows={inv.write_offs.map((w) => [
                  w.type === 164 ? 'Unrecoverable' : 'Write-off',
                  CREDIT_MEMO_STATUS_LABELS[(w.status ?? 'A') as CreditMemoStatus] ?? w.status,
                  formatCents(w.amount_cents, inv.currency),
                  w.reason,
                  w.created_by_email,
                  formatDate(w.created_at),
                  w.approved_by_email ? `${w.approved_by_email}, ${formatDateTime(w.decided_at)}` : '—',
                ])}
              />
            )}
          </Section>
          <Section title="Journal">
            {inv.journal.length === 0 ? (
              <Text size="sm" c="dimmed">
                Nothing posted.
              </Text>
            ) : (
              <SmallTable
                caption="Journal entries of the invoice"
                head={['Entry', 'Day', 'Account', 'Debit', 'Credit']}
                rows={inv.journal.flatMap((e) =>
                  e.lines.map((l, i) => [
                    i === 0 ? e.kind_label : '',
                    i === 0 ? formatDate(e.effective_on) : '',
                    `${l.account} ${l.account_name}`,
                    l.debit_cents ? formatCents(l.debit_cents, inv.currency) : '',
                    l.credit_cents ? formatCents(l.credit_cents, inv.currency) : '',
                  ]),
                )}
              />
            )}
          </Section>
          <Section title="History">
            {inv.history.length === 0 && !inv.billing_run ? (
              <Text size="sm" c="dimmed">
                Nothing recorded yet.
              </Text>
            ) : (
              <SmallTable
                caption="History"
                head={['When', 'Who', 'What']}
                rows={[
                  ...(inv.billing_run
                    ? [
                        [
                          formatDate(inv.billing_run.as_of),
                          inv.billing_run.requested_by,
                          `Created by billing run ${inv.billing_run.run_id} (as of ${formatDate(inv.billing_run.as_of)})`,
                        ],
                      ]
                    : []),
                  ...inv.history.map((h) => [
                    formatDateTime(h.at),
                    h.actor_email ?? h.actor_type,
                    historyText(h.action, h.after),
                  ]),
                ]}
              />
            )}
          </Section>
        </Stack>
      )}
      {inv && reversing && <ReverseDialog inv={inv} onClose={() => setReversing(false)} />}
      {inv && asking && <MemoDialog invoice={inv} kind={asking} onClose={() => setAsking(null)} />}
    </Paper>
  );
}

function Balance({ inv }: { readonly inv: InvoicePage }) {
  const money = (cents: number) => formatCents(cents, inv.currency);
  const l = inv.ledger;
  const facts: [string, string][] = [
    ['Total', money(inv.total_cents)],
    ['Paid', money(l.paid_cents)],
    ...(l.credited_cents > 0 ? [['Credited', money(l.credited_cents)] as [string, string]] : []),
    ...(l.written_off_cents > 0 ? [['Written off', money(l.written_off_cents)] as [string, string]] : []),
    ...(l.reversed_cents > 0 ? [['Reversed', money(l.reversed_cents)] as [string, string]] : []),
    ['Balance', money(inv.balance_cents)],
  ];
  return (
    <Group component="dl" gap="xl" m={0} aria-label="Balance">
      {facts.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={700}>
            {label}
          </Text>
          <Text component="dd" m={0} fw={label === 'Balance' ? 700 : undefined}>
            {value}
          </Text>
        </div>
      ))}
    </Group>
  );
}

function ReverseDialog({ inv, onClose }: { readonly inv: InvoicePage; readonly onClose: () => void }) {
  const keys = useIdempotencyKeys();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const actionKey = `reverse:${inv.id}`;
  const reverse = useReverseInvoice();

  function confirm() {
    const parsed = invoiceReverseRequest.safeParse({ reason, version: inv.version });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Say why the invoice is reversed.');
      return;
    }
    reverse.mutate(
      { customerId: inv.customer_id, invoiceId: inv.id, body: parsed.data, idempotencyKey: keys.keyFor(actionKey) },
      {
        onSuccess: (result) => {
          keys.settle(actionKey);
          const memo = result.credit_memo
            ? ` A refund credit memo of ${formatCents(result.credit_memo.amount_cents, result.credit_memo.currency)} awaits AR approval.`
            : '';
          notifications.show({
            color: 'green',
            title: 'Reversed',
            message: `Invoice ${inv.invoice_number} is reversed.${memo}`,
            autoClose: 6000,
            withBorder: true,
          });
          onClose();
        },
        onError: (e) => {
          const kept = keys.settle(actionKey, e);
          const fieldMessage = isApiError(e) ? e.fields.reason : undefined;
          if (fieldMessage) return setError(fieldMessage);
          showError(e);
          // A definite refusal: the invoice is shown as it is now (the money views were asked again).
          if (!kept) onClose();
        },
      },
    );
  }

  return (
    <Modal opened onClose={onClose} title={`Reverse invoice ${inv.invoice_number}?`} centered>
      <Stack>
        <Text>
          The invoice of {formatCents(inv.total_cents, inv.currency)} is reversed and no longer due.
          {inv.paid_cents > 0
            ? ` ${formatCents(inv.paid_cents, inv.currency)} already paid becomes a refund credit memo for AR to approve.`
            : ''}
        </Text>
        <Textarea
          label="Reason"
          description="Why is it reversed? (at least 3 characters)"
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
          <Button variant="default" onClick={onClose} disabled={reverse.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={reverse.isPending}>
            Reverse invoice
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
