import { Alert, Anchor, Stack, Table, Text, Title } from '@mantine/core';
import {
  INVOICE_STATUSES,
  INVOICE_STATUS_LABELS,
  INVOICE_TEXT_MIN,
  INVOICE_TYPES,
  INVOICE_TYPE_LABELS,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  bindFilter,
  DataTable,
  DetailPane,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FilterBar,
  FilterCheck,
  FilterCurrency,
  FilterDateRange,
  FilterId,
  FilterMultiSelect,
  filterOptions,
  FilterSelect,
  FilterText,
  listCaption,
  ListError,
  ListPagination,
  notAnId,
  NoWrapCell,
  reversedRange,
  SortHeader,
  textTooShort,
  useCheckedFilters,
  useListState,
} from '../../../components/list';
import { datedFileName, downloadFile } from '../../../lib/download';
import { formatCents, formatDate } from '../../../lib/format';
import {
  exportInvoices,
  getInvoiceListQueryOptions,
  INVOICE_PAGE_SIZE,
  NO_INVOICE_FILTERS,
  type InvoiceFilters,
  type InvoiceListParams,
} from '../api/invoices';
import { InvoicePanel } from '../components/invoice-panel';

const STATUS_OPTIONS = filterOptions('Any status', INVOICE_STATUSES, INVOICE_STATUS_LABELS);
const TYPE_OPTIONS = INVOICE_TYPES.map((t) => ({ value: t, label: INVOICE_TYPE_LABELS[t] }));

/** The invoice id of `#/view-invoices?id=…`: a positive whole number, else null. */
function invoiceIdOf(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

const LIST_OPTIONS = { defaults: NO_INVOICE_FILTERS, defaultSort: '-issued_on' } as const;

/**
 * #/view-invoices (privilege `invoices`): every invoice, filtered, sorted and paged on the server, newest first;
 * balances are the ledger's (decision 112). Filters, sort, page and the open invoice are in the address
 * (`#/view-invoices?status=N&overdue=1&id=123`, issue 30): Back, reload and a copied link show the same view. The
 * open invoice's panel stands beside the list, in view.
 */
export default function InvoicesPage() {
  const list = useListState<InvoiceFilters>(LIST_OPTIONS);
  const { applied, page, sort } = list;
  const { errors, apply, clear } = useCheckedFilters(list, (d) => ({
    q: textTooShort(d.q, INVOICE_TEXT_MIN),
    customerId: notAnId(d.customerId, 'customer'),
    storeId: notAnId(d.storeId, 'store'),
    issuedTo: reversedRange(d.issuedFrom, d.issuedTo, 'The last issue date is before the first.'),
    dueTo: reversedRange(d.dueFrom, d.dueTo, 'The last due date is before the first.'),
  }));
  const field = bindFilter(list, errors);
  const idParam = list.selected;
  const openId = invoiceIdOf(idParam);

  const params: InvoiceListParams = { ...applied, page, sort: sort === LIST_OPTIONS.defaultSort ? null : sort };
  const invoices = useQuery(getInvoiceListQueryOptions(params));
  const items = invoices.data?.items ?? [];
  const total = invoices.data?.total ?? 0;
  const capped = invoices.data?.total_capped ?? false;

  const closeInvoice = () => list.select(null);
  const onSort = list.setSort;

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
    <SortHeader key="issued_on" column="issued_on" sort={sort} onSort={onSort}>
      Issued
    </SortHeader>,
    <SortHeader key="due_on" column="due_on" sort={sort} onSort={onSort}>
      Due
    </SortHeader>,
    <SortHeader key="total_cents" column="total_cents" sort={sort} onSort={onSort} numeric>
      Total
    </SortHeader>,
    <Table.Th key="balance" scope="col" ta="right">
      Balance
    </Table.Th>,
  ];

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Invoices
      </Title>
      <FilterBar label="Filter invoices" onApply={apply} onClear={clear}>
        <FilterSelect label="Status" data={STATUS_OPTIONS} w={150} {...field('status')} />
        <FilterMultiSelect label="Types" options={TYPE_OPTIONS} {...field('type')} />
        <FilterCurrency {...field('currency')} />
        <FilterId label="Customer id" {...field('customerId')} />
        <FilterId label="Store id" {...field('storeId')} />
        <FilterText label="Merchant or DBA" description={`At least ${INVOICE_TEXT_MIN} characters`} {...field('q')} />
        <FilterDateRange label="Issued" from={field('issuedFrom')} to={field('issuedTo')} />
        <FilterDateRange label="Due" from={field('dueFrom')} to={field('dueTo')} />
        <FilterCheck label="Overdue only" description="Past due with a balance" {...field('overdue')} />
      </FilterBar>
      <ExportCsvButton
        run={async () => downloadFile(datedFileName('invoices', 'csv'), await exportInvoices(params))}
        disabled={total === 0}
      />
      {idParam !== null && openId === null && (
        <Alert color="red" title="Not an invoice" withCloseButton closeButtonLabel="Dismiss" onClose={closeInvoice}>
          This address does not name an invoice. Open the invoice from the list.
        </Alert>
      )}
      <ListError error={invoices.error} />
      <DataTable
        caption={listCaption('Invoices', { isPending: invoices.isPending, total, capped })}
        columns={columns}
        minWidth={1100}
        rowCount={items.length}
        emptyText={emptyListText(invoices.isPending, 'No invoices match. Change or clear the filters.')}
        aria-busy={invoices.isFetching}
        highlightOnHover
      >
        {items.map((inv) => (
          <Table.Tr key={inv.id} aria-selected={inv.id === openId || undefined}>
            <NoWrapCell>
              <Anchor
                component={Link}
                to={list.hrefFor(inv.id)}
                fz="sm"
                aria-label={`Open invoice ${inv.invoice_number}`}
              >
                {inv.invoice_number}
              </Anchor>
            </NoWrapCell>
            <Table.Td>
              {inv.legal_name}
              <Anchor component={Link} to={`/customer?id=${inv.customer_id}`} size="xs" display="block">
                Customer {inv.customer_id}
              </Anchor>
            </Table.Td>
            <Table.Td>{inv.doing_business_as ?? '—'}</Table.Td>
            <Table.Td>{inv.type_label}</Table.Td>
            <NoWrapCell>
              {inv.status_label}
              {inv.overdue && (
                <Text component="span" size="xs" c="red" fw={700} display="block">
                  Overdue
                </Text>
              )}
            </NoWrapCell>
            <NoWrapCell>{formatDate(inv.issued_on)}</NoWrapCell>
            <NoWrapCell>{formatDate(inv.due_on)}</NoWrapCell>
            <FigureCell>{formatCents(inv.total_cents, inv.currency)}</FigureCell>
            <FigureCell>{formatCents(inv.balance_cents, inv.currency)}</FigureCell>
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
        onChange={list.setPage}
        hideSinglePage
      />
      {openId !== null && (
        <DetailPane label="Invoice" onClose={closeInvoice}>
          <InvoicePanel key={openId} invoiceId={openId} onClose={closeInvoice} />
        </DetailPane>
      )}
    </Stack>
  );
}
