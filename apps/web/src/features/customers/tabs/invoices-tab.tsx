import { Button, Group, Table, Text, Textarea } from '@mantine/core';
import {
  INVOICE_STATUS,
  INVOICE_STATUSES,
  INVOICE_STATUS_LABELS,
  INVOICE_TYPES,
  INVOICE_TYPE_LABELS,
  invoiceItemLines,
  invoiceReverseRequest,
  type Invoice,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { MemoDialog } from '../../../components/memo-dialog';
import { DataTable } from '../../../components/list/data-table';
import { ListPagination } from '../../../components/list/list-pagination';
import { isApiError } from '../../../lib/api';
import { useCreditInvoices, useInvoice, useInvoices, useReverseInvoice } from '../api/accounts-money';
import { formatCents, formatDate } from '../../../lib/format';
import { notifyError, notifySuccess } from '../lib/notify';
import type { StoreTabProps } from '../tab-props';
import { invoiceStatusLook, invoiceTypeLabel, transactionStatusLook } from './status';
import { ActionDialog } from './ui/action-dialog';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { StatusBadge } from './ui/status-badge';
import { NoStore, TabFrame } from './ui/tab-frame';
import { filterOptions, FilterSelect, LiveFilterBar } from '../../../components/list';

const PAGE_SIZE = 25;

const STATUS_OPTIONS = filterOptions('Any status', INVOICE_STATUSES, INVOICE_STATUS_LABELS);
const COLUMNS = ['Invoice', 'Type', 'Status', 'Issued', 'Due', 'Total', 'Paid', 'Balance', 'Actions'];
/** Asking for a memo or a write-off (decision 120): AR work on invoices; the server checks it again. */
const MEMO_PRIVILEGES = ['invoices', 'ar_approvals'] as const;
const TYPE_OPTIONS = filterOptions('Any type', INVOICE_TYPES, INVOICE_TYPE_LABELS);

/**
 * Invoices of the selected store: number, type and status as words (spec §4), dates and amounts; Details
 * shows the lines, payments and credit memos. With edit rights: Reverse (pending or paid invoices) after a
 * confirmation with a reason, sent with an Idempotency-Key.
 */
export function InvoicesTab({ customerId, storeId, canEdit }: StoreTabProps) {
  if (storeId === null) return <NoStore title="Invoices" />;
  return <InvoicesOfStore key={storeId} customerId={customerId} storeId={storeId} canEdit={canEdit} />;
}

function InvoicesOfStore({ customerId, storeId, canEdit }: { customerId: number; storeId: number; canEdit: boolean }) {
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const filterKey = `${status}|${type}`;
  const [paging, setPaging] = useState({ key: '', page: 1 });
  const page = paging.key === filterKey ? paging.page : 1;
  const list = useInvoices(customerId, {
    storeId,
    status: status || null,
    type: type || null,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    sort: '-issued_on',
  });
  const [dialog, setDialog] = useState<{ kind: 'detail' | 'reverse' | 'memo' | 'write_off'; invoice: Invoice } | null>(
    null,
  );
  const items = list.data?.items ?? [];
  const mayAskMemo = useQuery({
    ...getPermissionsQueryOptions(MEMO_PRIVILEGES),
    select: (flags) => flags.invoices === true || flags.ar_approvals === true,
  });

  return (
    <TabFrame title="Invoices" isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()}>
      <LiveFilterBar label="Filter invoices">
        <FilterSelect label="Status" data={STATUS_OPTIONS} value={status} onChange={setStatus} />
        <FilterSelect label="Type" data={TYPE_OPTIONS} value={type} onChange={setType} w={260} />
      </LiveFilterBar>
      <DataTable
        caption={`Invoices of store ${storeId}, newest first`}
        columns={COLUMNS}
        minWidth={980}
        rowCount={items.length}
        emptyText="No invoices match."
      >
        {items.map((inv) => (
          <Table.Tr key={inv.id}>
            <Table.Th scope="row" fw={600}>
              {inv.invoice_number}
            </Table.Th>
            <Table.Td>{invoiceTypeLabel(inv.type)}</Table.Td>
            <Table.Td>
              <StatusBadge look={invoiceStatusLook(inv.status)} />
            </Table.Td>
            <Table.Td>{formatDate(inv.issued_on)}</Table.Td>
            <Table.Td>{formatDate(inv.due_on)}</Table.Td>
            <Table.Td>{formatCents(inv.total_cents, inv.currency)}</Table.Td>
            <Table.Td>{formatCents(inv.paid_cents, inv.currency)}</Table.Td>
            <Table.Td>{formatCents(inv.balance_cents, inv.currency)}</Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Button
                  size="compact-sm"
                  variant="light"
                  aria-label={`Details of invoice ${inv.invoice_number}`}
                  onClick={() => setDialog({ kind: 'detail', invoice: inv })}
                >
                  Details
                </Button>
                {mayAskMemo.data === true && inv.status !== INVOICE_STATUS.REVERSED && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    aria-label={`New memo for invoice ${inv.invoice_number}`}
                    onClick={() => setDialog({ kind: 'memo', invoice: inv })}
                  >
                    New memo…
                  </Button>
                )}
                {mayAskMemo.data === true && inv.status !== INVOICE_STATUS.REVERSED && inv.balance_cents > 0 && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="orange"
                    aria-label={`Write off invoice ${inv.invoice_number}`}
                    onClick={() => setDialog({ kind: 'write_off', invoice: inv })}
                  >
                    Write off…
                  </Button>
                )}
                {canEdit && inv.can_reverse && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="red"
                    aria-label={`Reverse invoice ${inv.invoice_number}`}
                    onClick={() => setDialog({ kind: 'reverse', invoice: inv })}
                  >
                    Reverse
                  </Button>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        hideSinglePage
        label="Invoice pages"
        total={list.data?.total ?? 0}
        totalCapped={list.data?.total_capped ?? false}
        pageRows={list.data?.items.length ?? 0}
        pageSize={PAGE_SIZE}
        page={page}
        onChange={(p) => setPaging({ key: filterKey, page: p })}
      />
      <CreditInvoices customerId={customerId} storeId={storeId} />
      {dialog?.kind === 'detail' && (
        <InvoiceDetailDialog customerId={customerId} invoice={dialog.invoice} onClose={() => setDialog(null)} />
      )}
      {(dialog?.kind === 'memo' || dialog?.kind === 'write_off') && (
        <MemoDialog invoice={dialog.invoice} kind={dialog.kind} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'reverse' && (
        <ReverseDialog customerId={customerId} invoice={dialog.invoice} onClose={() => setDialog(null)} />
      )}
    </TabFrame>
  );
}

function ReverseDialog({
  customerId,
  invoice,
  onClose,
}: {
  customerId: number;
  invoice: Invoice;
  onClose: () => void;
}) {
  const reverse = useReverseInvoice(customerId);
  const keys = useIdempotencyKeys();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const paid = invoice.paid_cents > 0;

  function confirm() {
    const parsed = invoiceReverseRequest.safeParse({ reason, version: invoice.version });
    if (!parsed.success) {
      setError(
        parsed.error.issues.find((i) => i.path[0] === 'reason')?.message ??
          parsed.error.issues[0]?.message ??
          'Check the reason.',
      );
      return;
    }
    const actionKey = `reverse:${invoice.id}`;
    reverse.mutate(
      { invoiceId: invoice.id, body: parsed.data, idempotencyKey: keys.keyFor(actionKey) },
      {
        onSuccess: (result) => {
          keys.settle(actionKey);
          const memo = result.credit_memo
            ? ` A refund credit memo of ${formatCents(result.credit_memo.amount_cents, result.credit_memo.currency)} awaits AR approval.`
            : '';
          notifySuccess(`Invoice ${invoice.invoice_number} is reversed.${memo}`, 'Reversed');
          onClose();
        },
        onError: (e) => {
          notifyError(e);
          const kept = keys.settle(actionKey, e);
          const fieldMessage = isApiError(e) ? e.fields.reason : undefined;
          if (fieldMessage) setError(fieldMessage);
          else if (!kept) onClose();
        },
      },
    );
  }

  return (
    <ActionDialog
      opened
      title={`Reverse invoice ${invoice.invoice_number}?`}
      message={
        <Text>
          The invoice of {formatCents(invoice.total_cents, invoice.currency)} is reversed and no longer due.
          {paid
            ? ` ${formatCents(invoice.paid_cents, invoice.currency)} already paid becomes a refund credit memo for AR to approve.`
            : ''}
        </Text>
      }
      confirmLabel="Reverse invoice"
      color="red"
      busy={reverse.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
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
    </ActionDialog>
  );
}

function InvoiceDetailDialog({
  customerId,
  invoice,
  onClose,
}: {
  customerId: number;
  invoice: Invoice;
  onClose: () => void;
}) {
  const detail = useInvoice(customerId, invoice.id);
  const d = detail.data;
  return (
    <ActionDialog
      opened
      closeOnly
      title={`Invoice ${invoice.invoice_number}`}
      confirmLabel="Close"
      onConfirm={onClose}
      onClose={onClose}
    >
      <Text size="sm">
        {invoiceTypeLabel(invoice.type)} · {invoiceStatusLook(invoice.status).label} · issued{' '}
        {formatDate(invoice.issued_on)} · due {formatDate(invoice.due_on)}
        {invoice.period_start && ` · period ${formatDate(invoice.period_start)} – ${formatDate(invoice.period_end)}`}
      </Text>
      {detail.isPending && <Text c="dimmed">Loading the invoice…</Text>}
      {d && (
        <>
          <Table verticalSpacing={4} fz="sm" captionSide="top">
            <Table.Caption>Lines</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Description</Table.Th>
                <Table.Th scope="col">Qty</Table.Th>
                <Table.Th scope="col">Unit</Table.Th>
                <Table.Th scope="col">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoiceItemLines(d.lines).map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>{l.description}</Table.Td>
                  <Table.Td>{l.quantity}</Table.Td>
                  <Table.Td>{formatCents(l.unit_cents, d.currency)}</Table.Td>
                  <Table.Td>{formatCents(l.amount_cents, d.currency)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                {/* The tax once: a stored line of the tax item is not also an item line (decision 149). */}
                <Table.Td colSpan={3}>Tax</Table.Td>
                <Table.Td>{formatCents(d.tax_cents, d.currency)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" colSpan={3}>
                  Total
                </Table.Th>
                <Table.Td fw={700}>{formatCents(d.total_cents, d.currency)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {d.transactions.length > 0 && (
            <Table verticalSpacing={4} fz="sm" captionSide="top">
              <Table.Caption>Payments</Table.Caption>
              <Table.Tbody>
                {d.transactions.map((t) => (
                  <Table.Tr key={t.id}>
                    <Table.Td>{t.id}</Table.Td>
                    <Table.Td>
                      <StatusBadge look={transactionStatusLook(t.status)} />
                    </Table.Td>
                    <Table.Td>{formatCents(t.amount_cents, t.currency)}</Table.Td>
                    <Table.Td>{formatDate(t.attempted_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {d.credit_memos.length > 0 && (
            <Text size="sm">
              Credit memos:{' '}
              {d.credit_memos
                .map(
                  (m) =>
                    `${formatCents(m.amount_cents, m.currency)} (${m.status === 'P' ? 'pending approval' : m.status === 'A' ? 'approved' : 'rejected'})`,
                )
                .join(', ')}
            </Text>
          )}
        </>
      )}
    </ActionDialog>
  );
}

/**
 * The store's credit invoices (decision 152): type R nets a reversed invoice, type B credits a completed order's
 * promotion rewards (its money moves by the credit memo AR approves). Shown under the invoices, negative amounts.
 */
function CreditInvoices({ customerId, storeId }: { customerId: number; storeId: number }) {
  const credits = useCreditInvoices(customerId, storeId);
  const items = credits.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <DataTable
      caption={`Credit invoices of store ${storeId}, newest first`}
      columns={['Credit invoice', 'Type', 'Issued', 'Credits', 'Total', 'Reason']}
      minWidth={980}
      rowCount={items.length}
      emptyText="No credit invoices."
    >
      {items.map((c) => (
        <Table.Tr key={c.id}>
          <Table.Th scope="row" fw={600}>
            {c.invoice_number}
          </Table.Th>
          <Table.Td>{c.type_label}</Table.Td>
          <Table.Td>{formatDate(c.issued_on)}</Table.Td>
          <Table.Td>
            {c.reverses_invoice_number
              ? `Invoice ${c.reverses_invoice_number}`
              : c.credit_memo_id !== null
                ? `Memo ${c.credit_memo_id}`
                : '—'}
          </Table.Td>
          <Table.Td>{formatCents(c.total_cents, c.currency)}</Table.Td>
          <Table.Td>{c.reason}</Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
