import { Button, Group, Table } from '@mantine/core';
import { TRANSACTION_STATUSES, TRANSACTION_STATUS_LABELS, type Transaction, type TransactionAction } from '@pos/domain';
import { useState } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { ListPagination } from '../../../components/list/list-pagination';
import { useTransactionAction, useTransactions } from '../api/accounts-money';
import { formatCents, formatDateTime } from '../../../lib/format';
import { notifyError, notifySuccess } from '../lib/notify';
import type { StoreTabProps } from '../tab-props';
import { transactionStatusLook } from './status';
import { ActionDialog } from './ui/action-dialog';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { StatusBadge } from './ui/status-badge';
import { NoStore, TabFrame } from './ui/tab-frame';
import { filterOptions, FilterSelect, LiveFilterBar } from '../../../components/list';

const PAGE_SIZE = 25;

const STATUS_OPTIONS = filterOptions('Any status', TRANSACTION_STATUSES, TRANSACTION_STATUS_LABELS);

const COLUMNS = ['Transaction', 'Status', 'Amount', 'Kind', 'Payment method', 'Invoice', 'Attempted', 'Failure reason'];

const QUESTIONS: Readonly<
  Record<
    TransactionAction,
    { title: (t: Transaction) => string; message: (t: Transaction) => string; confirm: string; button: string }
  >
> = {
  retry: {
    title: (t) => `Retry transaction ${t.id}?`,
    message: (t) =>
      `A new charge of ${formatCents(t.amount_cents, t.currency)} is sent to ${t.instrument?.label ?? 'the payment method on file'}. This failed transaction is then marked reprocessed.`,
    confirm: 'Retry charge',
    button: 'Retry',
  },
  void: {
    title: (t) => `Void transaction ${t.id}?`,
    message: (t) =>
      `The pending charge of ${formatCents(t.amount_cents, t.currency)} is cancelled and will not be collected.`,
    confirm: 'Void transaction',
    button: 'Void',
  },
};

/**
 * Transactions of the selected store, newest first: the status letter as its word and colour (spec §4).
 * With edit rights: Retry a failed one, Void a pending one — each after a confirmation, sent with an
 * Idempotency-Key that is reused if the same action has to be sent again (decision 066).
 */
export function TransactionsTab({ customerId, storeId, canEdit }: StoreTabProps) {
  if (storeId === null) return <NoStore title="Transactions" />;
  return <TransactionsOfStore key={storeId} customerId={customerId} storeId={storeId} canEdit={canEdit} />;
}

function TransactionsOfStore({
  customerId,
  storeId,
  canEdit,
}: {
  customerId: number;
  storeId: number;
  canEdit: boolean;
}) {
  const [status, setStatus] = useState('');
  const [paging, setPaging] = useState({ status: '', page: 1 });
  const page = paging.status === status ? paging.page : 1;
  const list = useTransactions(customerId, {
    storeId,
    status: status || null,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    sort: '-attempted_at',
  });
  const [pending, setPending] = useState<{ tx: Transaction; action: TransactionAction } | null>(null);
  const act = useTransactionAction(customerId);
  const keys = useIdempotencyKeys();
  const items = list.data?.items ?? [];

  function confirm() {
    if (!pending) return;
    const { tx, action } = pending;
    const actionKey = `${action}:${tx.id}`;
    act.mutate(
      { txId: tx.id, body: { action, version: tx.version }, idempotencyKey: keys.keyFor(actionKey) },
      {
        onSuccess: (result) => {
          keys.settle(actionKey);
          setPending(null);
          if (action === 'void') notifySuccess(`Transaction ${tx.id} is void.`, 'Voided');
          else if (result.new_transaction) {
            const look = transactionStatusLook(result.new_transaction.status);
            notifySuccess(`The new charge ${result.new_transaction.id} is ${look.label.toLowerCase()}.`, 'Retried');
          } else notifySuccess(`Transaction ${tx.id} was retried.`, 'Retried');
        },
        onError: (e) => {
          notifyError(e);
          // A refusal (e.g. 409: the transaction changed meanwhile) closes the question and the list reloads;
          // after a lost answer the question stays, and confirming again resends the same key.
          if (!keys.settle(actionKey, e)) setPending(null);
        },
      },
    );
  }

  const question = pending ? QUESTIONS[pending.action] : null;
  return (
    <TabFrame title="Transactions" isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()}>
      <LiveFilterBar label="Filter transactions">
        <FilterSelect label="Status" data={STATUS_OPTIONS} value={status} onChange={setStatus} w={220} />
      </LiveFilterBar>
      <DataTable
        caption={`Transactions of store ${storeId}, newest first`}
        columns={canEdit ? [...COLUMNS, 'Actions'] : COLUMNS}
        minWidth={980}
        rowCount={items.length}
        emptyText="No transactions match."
      >
        {items.map((t) => (
          <Table.Tr key={t.id}>
            <Table.Th scope="row" fw={600}>
              {t.id}
            </Table.Th>
            <Table.Td>
              <StatusBadge look={transactionStatusLook(t.status)} />
            </Table.Td>
            <Table.Td>{formatCents(t.amount_cents, t.currency)}</Table.Td>
            <Table.Td>{t.kind}</Table.Td>
            <Table.Td>{t.instrument?.label ?? '—'}</Table.Td>
            <Table.Td>{t.invoice_number ?? '—'}</Table.Td>
            <Table.Td>{formatDateTime(t.attempted_at)}</Table.Td>
            <Table.Td>{t.failure_reason ?? '—'}</Table.Td>
            {canEdit && (
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  {t.actions.map((action) => (
                    <Button
                      key={action}
                      size="compact-sm"
                      variant="light"
                      color={action === 'void' ? 'red' : undefined}
                      aria-label={`${QUESTIONS[action].button} transaction ${t.id}`}
                      onClick={() => setPending({ tx: t, action })}
                    >
                      {QUESTIONS[action].button}
                    </Button>
                  ))}
                </Group>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        hideSinglePage
        label="Transaction pages"
        total={list.data?.total ?? 0}
        totalCapped={list.data?.total_capped ?? false}
        pageRows={list.data?.items.length ?? 0}
        pageSize={PAGE_SIZE}
        page={page}
        onChange={(p) => setPaging({ status, page: p })}
      />
      <ActionDialog
        opened={pending !== null}
        title={pending && question ? question.title(pending.tx) : ''}
        message={pending && question ? question.message(pending.tx) : ''}
        confirmLabel={question?.confirm ?? ''}
        color={pending?.action === 'void' ? 'red' : undefined}
        busy={act.isPending}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      />
    </TabFrame>
  );
}
