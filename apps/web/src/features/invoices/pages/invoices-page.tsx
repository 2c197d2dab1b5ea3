import {
  Alert,
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
  INVOICE_STATUSES,
  INVOICE_STATUS_LABELS,
  INVOICE_TEXT_MIN,
  INVOICE_TYPES,
  INVOICE_TYPE_LABELS,
} from '@pos/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../../components/data-table';
import { formatTotal, ListPagination } from '../../../components/list-pagination';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import { currencyLabel, formatCents, formatDate } from '../../../lib/format';
import {
  exportInvoices,
  getInvoiceListQueryOptions,
  INVOICE_PAGE_SIZE,
  NO_INVOICE_FILTERS,
  type InvoiceFilters,
  type InvoiceListParams,
} from '../api/invoices';
import { InvoicePanel } from '../components/invoice-panel';

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...INVOICE_STATUSES.map((s) => ({ value: s, label: INVOICE_STATUS_LABELS[s] })),
];
const TYPE_OPTIONS = [
  { value: '', label: 'Any type' },
  ...INVOICE_TYPES.map((t) => ({ value: t, label: INVOICE_TYPE_LABELS[t] })),
];
const CURRENCY_OPTIONS = [
  { value: '', label: 'Any currency' },
  ...CURRENCY_CODES.map((c) => ({ value: c, label: currencyLabel(c) })),
];

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

/** The invoice id of `#/view-invoices?id=…`: a positive whole number, else null. */
function invoiceIdOf(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

const ID_PATTERN = /^\d{0,10}$/;

/**
 * #/view-invoices (privilege `invoices`): every invoice, filtered, sorted and paged on the server, newest first;
 * balances are the ledger's (decision 112). An invoice opens in a panel below the list, its id in the address
 * (`#/view-invoices?id=123`), so a link opens it.
 */
export default function InvoicesPage() {
  const [draft, setDraft] = useState<InvoiceFilters>(NO_INVOICE_FILTERS);
  const [applied, setApplied] = useState<InvoiceFilters>(NO_INVOICE_FILTERS);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof InvoiceFilters, string>>>({});
  const [searchParams, setSearchParams] = useSearchParams();
  const idParam = searchParams.get('id');
  const openId = invoiceIdOf(idParam);

  const params: InvoiceListParams = { ...applied, page, sort };
  const list = useQuery(getInvoiceListQueryOptions(params));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const capped = list.data?.total_capped ?? false;

  const exportCsv = useMutation({
    mutationFn: () => exportInvoices(params),
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName('invoices', 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
    },
  });

  const set =
    <K extends keyof InvoiceFilters>(key: K) =>
    (value: InvoiceFilters[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));

  function apply(e: FormEvent) {
    e.preventDefault();
    const found: Partial<Record<keyof InvoiceFilters, string>> = {};
    const q = draft.q.trim();
    if (q !== '' && q.length < INVOICE_TEXT_MIN) found.q = `Type at least ${INVOICE_TEXT_MIN} characters.`;
    if (!ID_PATTERN.test(draft.customerId.trim())) found.customerId = 'A customer id is a number.';
    if (!ID_PATTERN.test(draft.storeId.trim())) found.storeId = 'A store id is a number.';
    if (draft.issuedFrom && draft.issuedTo && draft.issuedFrom > draft.issuedTo)
      found.issuedTo = 'The last issue date is before the first.';
    if (draft.dueFrom && draft.dueTo && draft.dueFrom > draft.dueTo)
      found.dueTo = 'The last due date is before the first.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setApplied(draft);
    setPage(1);
  }
  function clear() {
    setDraft(NO_INVOICE_FILTERS);
    setApplied(NO_INVOICE_FILTERS);
    setErrors({});
    setPage(1);
  }
  const onSort = (s: string) => {
    setSort(s);
    setPage(1);
  };
  const openInvoice = (id: number) => setSearchParams({ id: String(id) });
  const closeInvoice = () => setSearchParams({});

  const columns = [
    <SortHeader key="invoice_number" column="invoice_number" sort={sort} onSort={onSort}>
      Invoice
    </SortHeader>,
    <SortHeader key="customer_id" column="customer_id" sort={sort} onSort={onSort}>
      Merchant
    </SortHeader>,
    'Store (DBA)',
    'Type',
    <SortHeader key="status" column="status" sort={sort} onSort={onSort}>
      Status
    </SortHeader>,
    <SortHeader key="issued_on" column="issued_on" sort={sort ?? '-issued_on'} onSort={onSort}>
      Issued
    </SortHeader>,
    <SortHeader key="due_on" column="due_on" sort={sort} onSort={onSort}>
      Due
    </SortHeader>,
    <SortHeader key="total_cents" column="total_cents" sort={sort} onSort={onSort}>
      Total
    </SortHeader>,
    'Balance',
  ];

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Invoices
      </Title>
      <form onSubmit={apply} aria-label="Filter invoices">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <NativeSelect
            label="Status"
            data={STATUS_OPTIONS}
            value={draft.status}
            onChange={(e) => set('status')(e.currentTarget.value)}
            w={150}
          />
          <NativeSelect
            label="Type"
            data={TYPE_OPTIONS}
            value={draft.type}
            onChange={(e) => set('type')(e.currentTarget.value)}
            w={220}
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
            label="Store id"
            inputMode="numeric"
            value={draft.storeId}
            onChange={(e) => set('storeId')(e.currentTarget.value)}
            error={errors.storeId}
            w={120}
          />
          <TextInput
            label="Merchant or DBA"
            description={`At least ${INVOICE_TEXT_MIN} characters`}
            value={draft.q}
            onChange={(e) => set('q')(e.currentTarget.value)}
            error={errors.q}
            w={220}
          />
        </Group>
        <Group align="flex-start" gap="sm" wrap="wrap" mt="sm">
          <TextInput
            label="Issued from"
            type="date"
            value={draft.issuedFrom}
            onChange={(e) => set('issuedFrom')(e.currentTarget.value)}
          />
          <TextInput
            label="Issued to"
            type="date"
            value={draft.issuedTo}
            onChange={(e) => set('issuedTo')(e.currentTarget.value)}
            error={errors.issuedTo}
          />
          <TextInput
            label="Due from"
            type="date"
            value={draft.dueFrom}
            onChange={(e) => set('dueFrom')(e.currentTarget.value)}
          />
          <TextInput
            label="Due to"
            type="date"
            value={draft.dueTo}
            onChange={(e) => set('dueTo')(e.currentTarget.value)}
            error={errors.dueTo}
          />
          <Checkbox
            label="Overdue only"
            description="Past due with a balance"
            checked={draft.overdue}
            onChange={(e) => set('overdue')(e.currentTarget.checked)}
            mt={28}
          />
          <Group gap="xs" mt={24}>
            <Button type="submit">Apply</Button>
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
      {idParam !== null && openId === null && (
        <Alert color="red" title="Not an invoice" withCloseButton closeButtonLabel="Dismiss" onClose={closeInvoice}>
          This address does not name an invoice. Open the invoice from the list.
        </Alert>
      )}
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
      <DataTable
        caption={
          list.isPending
            ? 'Invoices (loading…)'
            : `Invoices — ${formatTotal(total, capped)} ${total === 1 && !capped ? 'match' : 'matches'}`
        }
        columns={columns}
        minWidth={1100}
        rowCount={items.length}
        emptyText={list.isPending ? 'Loading…' : 'No invoices match. Change or clear the filters.'}
        highlightOnHover
      >
        {items.map((inv) => (
          <Table.Tr key={inv.id}>
            <Table.Td>
              <UnstyledButton
                onClick={() => openInvoice(inv.id)}
                c="blue"
                fz="sm"
                aria-label={`Open invoice ${inv.invoice_number}`}
              >
                {inv.invoice_number}
              </UnstyledButton>
            </Table.Td>
            <Table.Td>
              {inv.legal_name}
              <Text component="span" size="xs" c="dimmed" display="block">
                Customer {inv.customer_id}
              </Text>
            </Table.Td>
            <Table.Td>{inv.doing_business_as ?? '—'}</Table.Td>
            <Table.Td>{inv.type_label}</Table.Td>
            <Table.Td>
              {inv.status_label}
              {inv.overdue && (
                <Text component="span" size="xs" c="red" fw={700} display="block">
                  Overdue
                </Text>
              )}
            </Table.Td>
            <Table.Td>{formatDate(inv.issued_on)}</Table.Td>
            <Table.Td>{formatDate(inv.due_on)}</Table.Td>
            <Table.Td>{formatCents(inv.total_cents, inv.currency)}</Table.Td>
            <Table.Td>{formatCents(inv.balance_cents, inv.currency)}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Invoice pages"
        total={total}
        totalCapped={capped}
        pageRows={items.length}
        pageSize={INVOICE_PAGE_SIZE}
        page={page}
        onChange={setPage}
        hideSinglePage
      />
      {openId !== null && <InvoicePanel key={openId} invoiceId={openId} onClose={closeInvoice} />}
    </Stack>
  );
}
