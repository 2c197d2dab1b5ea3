import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CURRENCY_CODES,
  RECEIPT_METHOD_LABELS,
  RECEIPT_METHODS,
  RECEIPT_TEXT_MIN,
  type ReceiptPage,
} from '@pos/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../../components/list/data-table';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import { currencyLabel, formatCents, formatDate } from '../../../lib/format';
import {
  exportReceipts,
  getReceiptListQueryOptions,
  NO_RECEIPT_FILTERS,
  RECEIPT_PAGE_SIZE,
  receiptKeys,
  type ReceiptFilters,
  type ReceiptListParams,
} from '../api/receipts';
import { RecordReceiptDialog } from '../components/record-receipt-dialog';

const METHOD_OPTIONS = [
  { value: '', label: 'Any method' },
  ...RECEIPT_METHODS.map((m) => ({ value: m, label: RECEIPT_METHOD_LABELS[m] })),
];
const CURRENCY_OPTIONS = [
  { value: '', label: 'Any currency' },
  ...CURRENCY_CODES.map((c) => ({ value: c, label: currencyLabel(c) })),
];
const ID_PATTERN = /^\d{0,10}$/;

function SortHeader(props: { column: string; sort: string | null; onSort: (s: string) => void; children: ReactNode }) {
  const { column, sort, onSort, children } = props;
  const direction = sort === column ? 'asc' : sort === `-${column}` ? 'desc' : null;
  return (
    <Table.Th scope="col" aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}>
      <UnstyledButton onClick={() => onSort(direction === 'asc' ? `-${column}` : column)} fw={700} fz="sm">
        {children}
        <span aria-hidden="true">
          {'\u00a0'}
          {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
        </span>
      </UnstyledButton>
    </Table.Th>
  );
}

/**
 * #/view-receipts (privilege `receipts`; issue 16 point 3, decision 119): money received outside the gateway —
 * filters, server sort and paging, CSV, and "Record receipt". A receipt with money left opens its apply page
 * (#/view-receipts/{id}, privilege apply_receipt).
 */
export default function ReceiptsPage() {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ReceiptFilters>(NO_RECEIPT_FILTERS);
  const [applied, setApplied] = useState<ReceiptFilters>(NO_RECEIPT_FILTERS);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof ReceiptFilters, string>>>({});
  const [recording, setRecording] = useState(false);
  const [recorded, setRecorded] = useState<ReceiptPage | null>(null);

  const params: ReceiptListParams = { ...applied, page, sort };
  const list = useQuery(getReceiptListQueryOptions(params));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const capped = list.data?.total_capped ?? false;

  const exportCsv = useMutation({
    mutationFn: () => exportReceipts(params),
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName('receipts', 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
    },
  });

  const set =
    <K extends keyof ReceiptFilters>(key: K) =>
    (value: ReceiptFilters[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));

  function apply(e: FormEvent) {
    e.preventDefault();
    const found: Partial<Record<keyof ReceiptFilters, string>> = {};
    const q = draft.q.trim();
    if (q !== '' && q.length < RECEIPT_TEXT_MIN) found.q = `Type at least ${RECEIPT_TEXT_MIN} characters.`;
    if (!ID_PATTERN.test(draft.customerId.trim())) found.customerId = 'A customer id is a number.';
    if (draft.receivedFrom && draft.receivedTo && draft.receivedFrom > draft.receivedTo)
      found.receivedTo = 'The last day is before the first.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setApplied(draft);
    setPage(1);
  }
  function clear() {
    setDraft(NO_RECEIPT_FILTERS);
    setApplied(NO_RECEIPT_FILTERS);
    setErrors({});
    setPage(1);
  }
  const onSort = (s: string) => {
    setSort(s);
    setPage(1);
  };

  function onRecorded(p: ReceiptPage) {
    setRecording(false);
    setRecorded(p);
    void queryClient.invalidateQueries({ queryKey: receiptKeys.all });
    const r = p.receipt;
    notifications.show({
      color: 'green',
      title: 'Receipt recorded',
      message: `Receipt ${r.id}: ${formatCents(r.amount_cents, r.currency)} from ${r.legal_name}${
        r.fee_invoice_number ? `; fee invoice ${r.fee_invoice_number} raised` : ''
      }.`,
    });
  }

  const columns = [
    <SortHeader key="id" column="id" sort={sort} onSort={onSort}>
      Receipt
    </SortHeader>,
    <SortHeader key="received_on" column="received_on" sort={sort ?? '-received_on'} onSort={onSort}>
      Received
    </SortHeader>,
    <SortHeader key="customer" column="customer" sort={sort} onSort={onSort}>
      Merchant
    </SortHeader>,
    'Method',
    'Reference',
    <SortHeader key="amount_cents" column="amount_cents" sort={sort} onSort={onSort}>
      Amount
    </SortHeader>,
    <SortHeader key="unapplied_cents" column="unapplied_cents" sort={sort} onSort={onSort}>
      Left to apply
    </SortHeader>,
    'Action',
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Receipts
        </Title>
        <Button onClick={() => setRecording(true)}>Record receipt</Button>
      </Group>
      {recorded && (
        <Alert
          color="green"
          title={`Receipt ${recorded.receipt.id} recorded`}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setRecorded(null)}
        >
          {formatCents(recorded.receipt.amount_cents, recorded.receipt.currency)} from {recorded.receipt.legal_name}
          {recorded.receipt.fee_invoice_number ? ` — fee invoice ${recorded.receipt.fee_invoice_number}` : ''}.{' '}
          <Anchor component={Link} to={`/view-receipts/${recorded.receipt.id}`}>
            Apply receipt {recorded.receipt.id} to invoices
          </Anchor>
        </Alert>
      )}
      <form onSubmit={apply} aria-label="Filter receipts">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <NativeSelect
            label="Method"
            data={METHOD_OPTIONS}
            value={draft.method}
            onChange={(e) => set('method')(e.currentTarget.value)}
            w={200}
          />
          <NativeSelect
            label="Currency"
            data={CURRENCY_OPTIONS}
            value={draft.currency}
            onChange={(e) => set('currency')(e.currentTarget.value)}
            w={150}
          />
          <TextInput
            label="Customer id"
            inputMode="numeric"
            value={draft.customerId}
            onChange={(e) => set('customerId')(e.currentTarget.value)}
            error={errors.customerId}
            w={120}
          />
          <TextInput
            label="Reference, merchant or DBA"
            description={`At least ${RECEIPT_TEXT_MIN} characters`}
            value={draft.q}
            onChange={(e) => set('q')(e.currentTarget.value)}
            error={errors.q}
            w={240}
          />
        </Group>
        <Group align="flex-start" gap="sm" wrap="wrap" mt="sm">
          <TextInput
            label="Received from"
            type="date"
            value={draft.receivedFrom}
            onChange={(e) => set('receivedFrom')(e.currentTarget.value)}
          />
          <TextInput
            label="Received to"
            type="date"
            value={draft.receivedTo}
            onChange={(e) => set('receivedTo')(e.currentTarget.value)}
            error={errors.receivedTo}
          />
          <Checkbox
            label="Not fully applied"
            description="Money left to apply"
            checked={draft.unapplied}
            onChange={(e) => set('unapplied')(e.currentTarget.checked)}
            mt={28}
          />
          <Group gap="xs" mt={24}>
            <Button type="submit">Apply filters</Button>
            <Button variant="subtle" onClick={clear}>
              Clear filters
            </Button>
          </Group>
        </Group>
      </form>
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => exportCsv.mutate()}
          loading={exportCsv.isPending}
          disabled={total === 0}
        >
          Export CSV
        </Button>
      </Group>
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
      <DataTable
        caption={
          list.isPending
            ? 'Receipts (loading…)'
            : `Receipts — ${formatTotal(total, capped)} ${total === 1 && !capped ? 'match' : 'matches'}`
        }
        columns={columns}
        minWidth={1000}
        rowCount={items.length}
        emptyText={list.isPending ? 'Loading…' : 'No receipts match. Change or clear the filters, or record one.'}
        highlightOnHover
      >
        {items.map((r) => (
          <Table.Tr key={r.id}>
            <Table.Td>{r.id}</Table.Td>
            <Table.Td>{formatDate(r.received_on)}</Table.Td>
            <Table.Td>
              {r.legal_name}
              <Text component="span" size="xs" c="dimmed" display="block">
                Customer {r.customer_id}
                {r.doing_business_as ? ` · ${r.doing_business_as}` : ''}
              </Text>
            </Table.Td>
            <Table.Td>
              {r.method_label}
              {r.upload_id !== null && (
                <Text component="span" size="xs" c="dimmed" display="block">
                  Check image on file
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {r.reference ?? '—'}
              {r.fee_invoice_number && (
                <Text component="span" size="xs" c="dimmed" display="block">
                  Fee invoice {r.fee_invoice_number}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{formatCents(r.amount_cents, r.currency)}</Table.Td>
            <Table.Td>{formatCents(r.unapplied_cents, r.currency)}</Table.Td>
            <Table.Td>
              <Anchor component={Link} to={`/view-receipts/${r.id}`} fz="sm">
                {r.unapplied_cents > 0 ? `Apply receipt ${r.id}` : `Open receipt ${r.id}`}
              </Anchor>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Receipt pages"
        total={total}
        totalCapped={capped}
        pageRows={items.length}
        pageSize={RECEIPT_PAGE_SIZE}
        page={page}
        onChange={setPage}
        hideSinglePage
      />
      <RecordReceiptDialog opened={recording} onClose={() => setRecording(false)} onRecorded={onRecorded} />
    </Stack>
  );
}
