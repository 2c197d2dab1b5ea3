import { Alert, Button, Group, List, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { serialNumberSchema, terminalElmerIdSchema, type Terminal, type TerminalValidation } from '@pos/domain';
import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../../components/list/data-table';
import { ListPagination } from '../../../components/list/list-pagination';
import { useRetireTerminal, useTerminals, useUpdateTerminal, useValidateTerminal } from '../api/accounts-terminals';
import { useDomainData } from '../api/customers';
import { StatusBadge } from '../components/status-badge';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../lib/notify';
import type { StoreTabProps } from '../tab-props';
import { ActionDialog } from './ui/action-dialog';
import { fieldErrorOrClose } from './ui/field-error';
import { NoStore, TabFrame } from './ui/tab-frame';

const PAGE_SIZE = 25;

const COLUMNS = [
  'Terminal id',
  'Serial number',
  'Processor serial',
  'Product',
  'Status',
  'Under transfer',
  'Installed',
  'Retired',
];

type Pending = { readonly kind: 'retire' | 'serial'; readonly terminal: Terminal } | null;

/**
 * Terminals of the selected store: id, serials, status, transfer flag, installed/retired. With edit rights:
 * Retire (with a reason), Mark/Unmark under transfer, Update processor serial. Validate (a terminal id and a
 * serial number, e.g. before a swap) is a read and open to every viewer.
 */
export function TerminalsTab({ customerId, storeId, canEdit }: StoreTabProps) {
  if (storeId === null) return <NoStore title="Terminals" />;
  return <TerminalsOfStore key={storeId} customerId={customerId} storeId={storeId} canEdit={canEdit} />;
}

function TerminalsOfStore({ customerId, storeId, canEdit }: { customerId: number; storeId: number; canEdit: boolean }) {
  const [page, setPage] = useState(1);
  const list = useTerminals(customerId, {
    storeId,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    sort: 'elmer_id',
  });
  const [pending, setPending] = useState<Pending>(null);
  const [validating, setValidating] = useState(false);
  const transfer = useUpdateTerminal(customerId);

  function toggleTransfer(t: Terminal) {
    const next = !t.under_transfer;
    transfer.mutate(
      { terminalId: t.id, body: { elmer_id: t.elmer_id, under_transfer: next, version: t.version } },
      {
        onSuccess: () =>
          notifySuccess(
            next
              ? `Terminal ${t.elmer_id} is marked under transfer.`
              : `Terminal ${t.elmer_id} is no longer under transfer.`,
          ),
      },
    );
  }

  const items = list.data?.items ?? [];
  return (
    <TabFrame
      title="Terminals"
      isPending={list.isPending}
      error={list.error}
      onRetry={() => void list.refetch()}
      actions={
        <Group gap="xs">
          <Button variant="default" size="sm" component={Link} to={`/returns-refund?storeid=${storeId}`}>
            Start a return
          </Button>
          <Button variant="default" size="sm" onClick={() => setValidating(true)}>
            Validate terminal
          </Button>
        </Group>
      }
    >
      <DataTable
        caption={`Terminals of store ${storeId}`}
        columns={canEdit ? [...COLUMNS, 'Actions'] : COLUMNS}
        minWidth={960}
        rowCount={items.length}
        emptyText="This store has no terminals."
      >
        {items.map((t) => (
          <Table.Tr key={t.id}>
            <Table.Th scope="row" fw={600}>
              {t.elmer_id}
            </Table.Th>
            <Table.Td ff="monospace">{t.serial_number}</Table.Td>
            <Table.Td ff="monospace">{t.pos_cc_processor_serial_number ?? '—'}</Table.Td>
            <Table.Td>{t.product?.name ?? '—'}</Table.Td>
            <Table.Td>
              <StatusBadge status={t.status} label={t.status_label} />
            </Table.Td>
            <Table.Td>{t.under_transfer ? 'Yes' : 'No'}</Table.Td>
            <Table.Td>{formatDate(t.installed_at)}</Table.Td>
            <Table.Td>
              {t.retired_at ? (
                <>
                  {formatDate(t.retired_at)}
                  {t.retire_reason && (
                    <Text size="xs" c="dimmed">
                      {t.retire_reason.label}
                    </Text>
                  )}
                </>
              ) : (
                '—'
              )}
            </Table.Td>
            {canEdit && (
              <Table.Td>
                {t.status !== 'retired' && (
                  <Group gap={6} wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="light"
                      color="red"
                      aria-label={`Retire terminal ${t.elmer_id}`}
                      onClick={() => setPending({ kind: 'retire', terminal: t })}
                    >
                      Retire
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="light"
                      aria-label={`${t.under_transfer ? 'Unmark' : 'Mark'} terminal ${t.elmer_id} under transfer`}
                      loading={transfer.isPending && transfer.variables?.terminalId === t.id}
                      onClick={() => toggleTransfer(t)}
                    >
                      {t.under_transfer ? 'Unmark under transfer' : 'Mark under transfer'}
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="light"
                      aria-label={`Update processor serial of terminal ${t.elmer_id}`}
                      onClick={() => setPending({ kind: 'serial', terminal: t })}
                    >
                      Update processor serial
                    </Button>
                  </Group>
                )}
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        hideSinglePage
        label="Terminal pages"
        total={list.data?.total ?? 0}
        pageSize={PAGE_SIZE}
        page={page}
        onChange={setPage}
      />
      {pending?.kind === 'retire' && (
        <RetireDialog customerId={customerId} terminal={pending.terminal} onClose={() => setPending(null)} />
      )}
      {pending?.kind === 'serial' && (
        <ProcessorSerialDialog customerId={customerId} terminal={pending.terminal} onClose={() => setPending(null)} />
      )}
      {validating && <ValidateDialog onClose={() => setValidating(false)} />}
    </TabFrame>
  );
}

function RetireDialog({
  customerId,
  terminal,
  onClose,
}: {
  customerId: number;
  terminal: Terminal;
  onClose: () => void;
}) {
  const reasons = useDomainData('retire_reason');
  const retire = useRetireTerminal(customerId);
  const [reasonId, setReasonId] = useState('');
  const [error, setError] = useState<string | null>(null);

  function confirm() {
    if (!reasonId) {
      setError('Choose why the terminal is retired.');
      return;
    }
    retire.mutate(
      { terminalId: terminal.id, body: { reason_id: Number(reasonId), version: terminal.version } },
      {
        onSuccess: () => {
          notifySuccess(`Terminal ${terminal.elmer_id} is retired.`, 'Retired');
          onClose();
        },
        onError: fieldErrorOrClose('reason_id', setError, onClose),
      },
    );
  }

  const options = [
    { value: '', label: reasons.isPending ? 'Loading reasons…' : 'Choose a reason' },
    ...(reasons.data?.items ?? []).map((r) => ({ value: String(r.id), label: r.label })),
  ];
  return (
    <ActionDialog
      opened
      title={`Retire terminal ${terminal.elmer_id}?`}
      message={`The terminal (serial ${terminal.serial_number}) stops being billed and can no longer be used. This cannot be undone here.`}
      confirmLabel="Retire terminal"
      color="red"
      busy={retire.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      <NativeSelect
        label="Reason"
        data={options}
        value={reasonId}
        onChange={(e) => {
          setReasonId(e.currentTarget.value);
          setError(null);
        }}
        error={error ?? (reasons.isError ? 'The reasons could not be loaded. Close and try again.' : undefined)}
        required
        data-autofocus
      />
    </ActionDialog>
  );
}

function ProcessorSerialDialog({
  customerId,
  terminal,
  onClose,
}: {
  customerId: number;
  terminal: Terminal;
  onClose: () => void;
}) {
  const update = useUpdateTerminal(customerId);
  const [serial, setSerial] = useState(terminal.pos_cc_processor_serial_number ?? '');
  const [error, setError] = useState<string | null>(null);

  function confirm() {
    const text = serial.trim();
    let value: string | null = null;
    if (text) {
      const parsed = serialNumberSchema.safeParse(text);
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? 'Check the serial number.');
        return;
      }
      value = parsed.data;
    }
    update.mutate(
      { terminalId: terminal.id, body: { pos_cc_processor_serial_number: value, version: terminal.version } },
      {
        onSuccess: () => {
          notifySuccess(
            value
              ? `Terminal ${terminal.elmer_id} has processor serial ${value}.`
              : `The processor serial of terminal ${terminal.elmer_id} is cleared.`,
          );
          onClose();
        },
        onError: fieldErrorOrClose('pos_cc_processor_serial_number', setError, onClose),
      },
    );
  }

  return (
    <ActionDialog
      opened
      title={`Processor serial of terminal ${terminal.elmer_id}`}
      message="The serial number of the card processor device attached to this terminal. Leave it empty to clear it."
      confirmLabel="Save processor serial"
      busy={update.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      <TextInput
        label="Processor serial number"
        value={serial}
        onChange={(e) => {
          setSerial(e.currentTarget.value);
          setError(null);
        }}
        error={error}
        autoComplete="off"
        data-autofocus
      />
    </ActionDialog>
  );
}

function ValidateDialog({ onClose }: { onClose: () => void }) {
  const validate = useValidateTerminal();
  const [elmerId, setElmerId] = useState('');
  const [serial, setSerial] = useState('');
  const [errors, setErrors] = useState<{ elmer?: string; serial?: string }>({});

  function confirm() {
    const a = terminalElmerIdSchema.safeParse(elmerId);
    const b = serialNumberSchema.safeParse(serial);
    if (!a.success || !b.success) {
      setErrors({ elmer: a.error?.issues[0]?.message, serial: b.error?.issues[0]?.message });
      return;
    }
    setErrors({});
    validate.mutate({ elmerId: a.data, serialNumber: b.data });
  }

  return (
    <ActionDialog
      opened
      title="Validate a terminal"
      message="Check whether a terminal id and a serial number may be used together, e.g. before swapping a device."
      confirmLabel="Validate"
      busy={validate.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      <TextInput
        label="Terminal id"
        value={elmerId}
        onChange={(e) => setElmerId(e.currentTarget.value)}
        error={errors.elmer}
        autoComplete="off"
        data-autofocus
      />
      <TextInput
        label="Serial number"
        value={serial}
        onChange={(e) => setSerial(e.currentTarget.value)}
        error={errors.serial}
        autoComplete="off"
      />
      {validate.isError && (
        <Alert color="red" role="alert" title="Could not validate">
          {validate.error.message}
        </Alert>
      )}
      {validate.data && <ValidationAnswer answer={validate.data} />}
    </ActionDialog>
  );
}

function ValidationAnswer({ answer }: { answer: TerminalValidation }) {
  return (
    <Alert role="status" color={answer.valid ? 'green' : 'orange'} title={answer.valid ? 'Valid' : 'Not valid'}>
      <Stack gap={4}>
        <Text size="sm">
          Terminal {answer.elmer_id} with serial {answer.serial_number}:{' '}
          {answer.valid ? 'may be used together.' : 'may not be used together.'}
        </Text>
        {answer.serial_matches && <Text size="sm">The serial number is this terminal&apos;s own.</Text>}
        {answer.serial_in_use_by && (
          <Text size="sm">The serial number belongs to terminal {answer.serial_in_use_by}.</Text>
        )}
        {answer.reasons.length > 0 && (
          <List size="sm">
            {answer.reasons.map((r) => (
              <List.Item key={r}>{r}</List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Alert>
  );
}
