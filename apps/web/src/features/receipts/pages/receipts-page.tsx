import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { RECEIPT_METHOD_LABELS, RECEIPT_METHODS, RECEIPT_TEXT_MIN, type ReceiptPage } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  bindFilter,
  DataTable,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FilterBar,
  FilterCheck,
  FilterCurrency,
  FilterDateRange,
  FilterId,
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
import { formatCents, formatDate } from '../../../lib/format';
import {
  exportReceipts,
  getReceiptListQueryOptions,
  NO_RECEIPT_FILTERS,
  RECEIPT_PAGE_SIZE,
  type ReceiptFilters,
  type ReceiptListParams,
} from '../api/receipts';
import { RecordReceiptDialog } from '../components/record-receipt-dialog';

const METHOD_OPTIONS = filterOptions('Any method', RECEIPT_METHODS, RECEIPT_METHOD_LABELS);

/** The list's state in the address: `#/view-receipts?method=cash&unapplied=1&sort=amount_cents&page=2`. */
const LIST_OPTIONS = {
  defaults: NO_RECEIPT_FILTERS,
  keys: { customerId: 'customer_id', receivedFrom: 'received_from', receivedTo: 'received_to' },
  defaultSort: '-received_on',
} as const;

/**
 * #/view-receipts (privilege `receipts`; issue 16 point 3, decision 119): money received outside the gateway —
 * filters, server sort and paging, CSV, and "Record receipt". A receipt with money left opens its apply page
 * (#/view-receipts/{id}, privilege apply_receipt). Filters, sort and page are in the address (issue 30): Back,
 * reload and a copied link show the same view.
 */
export default function ReceiptsPage() {
  const list = useListState<ReceiptFilters>(LIST_OPTIONS);
  const { applied, page, sort } = list;
  const { errors, apply, clear } = useCheckedFilters(list, (d) => ({
    q: textTooShort(d.q, RECEIPT_TEXT_MIN),
    customerId: notAnId(d.customerId, 'customer'),
    receivedTo: reversedRange(d.receivedFrom, d.receivedTo, 'The last day is before the first.'),
  }));
  const field = bindFilter(list, errors);
  const [recording, setRecording] = useState(false);
  const [recorded, setRecorded] = useState<ReceiptPage | null>(null);

  const params: ReceiptListParams = { ...applied, page, sort: sort === LIST_OPTIONS.defaultSort ? null : sort };
  const receipts = useQuery(getReceiptListQueryOptions(params));
  const items = receipts.data?.items ?? [];
  const total = receipts.data?.total ?? 0;
  const capped = receipts.data?.total_capped ?? false;

  const onSort = list.setSort;

  function onRecorded(p: ReceiptPage) {
    setRecording(false);
    setRecorded(p);
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
    <SortHeader key="received_on" column="received_on" sort={sort} onSort={onSort}>
      Received
    </SortHeader>,
    <SortHeader key="customer" column="customer" sort={sort} onSort={onSort}>
      Merchant
    </SortHeader>,
    'Method',
    'Reference',
    <SortHeader key="amount_cents" column="amount_cents" sort={sort} onSort={onSort} numeric>
      Amount
    </SortHeader>,
    <SortHeader key="unapplied_cents" column="unapplied_cents" sort={sort} onSort={onSort} numeric>
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
      <FilterBar label="Filter receipts" onApply={apply} onClear={clear} applyLabel="Apply filters">
        <FilterSelect label="Method" data={METHOD_OPTIONS} {...field('method')} />
        <FilterCurrency {...field('currency')} />
        <FilterId label="Customer id" {...field('customerId')} />
        <FilterText
          label="Reference, merchant or DBA"
          description={`At least ${RECEIPT_TEXT_MIN} characters`}
          w={240}
          {...field('q')}
        />
        <FilterDateRange label="Received" from={field('receivedFrom')} to={field('receivedTo')} />
        <FilterCheck label="Not fully applied" description="Money left to apply" {...field('unapplied')} />
      </FilterBar>
      <ExportCsvButton run={(ctx) => exportReceipts(params, ctx)} disabled={total === 0} />
      <ListError error={receipts.error} />
      <DataTable
        caption={listCaption('Receipts', { isPending: receipts.isPending, total, capped })}
        columns={columns}
        minWidth={1000}
        rowCount={items.length}
        emptyText={emptyListText(receipts.isPending, 'No receipts match. Change or clear the filters, or record one.')}
        highlightOnHover
      >
        {items.map((r) => (
          <Table.Tr key={r.id}>
            <NoWrapCell>
              <Anchor component={Link} to={`/view-receipts/${r.id}`} fz="sm" aria-label={`Receipt ${r.id}`}>
                {r.id}
              </Anchor>
            </NoWrapCell>
            <NoWrapCell>{formatDate(r.received_on)}</NoWrapCell>
            <Table.Td>
              {r.legal_name}
              <Text component="span" size="xs" c="dimmed" display="block">
                <Anchor component={Link} to={`/customer?id=${r.customer_id}`} inherit>
                  Customer {r.customer_id}
                </Anchor>
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
                  Fee invoice{' '}
                  {r.fee_invoice_id !== null ? (
                    <Anchor component={Link} to={`/view-invoices?id=${r.fee_invoice_id}`} inherit>
                      {r.fee_invoice_number}
                    </Anchor>
                  ) : (
                    r.fee_invoice_number
                  )}
                </Text>
              )}
            </Table.Td>
            <FigureCell>{formatCents(r.amount_cents, r.currency)}</FigureCell>
            <FigureCell>{formatCents(r.unapplied_cents, r.currency)}</FigureCell>
            <NoWrapCell>
              <Anchor component={Link} to={`/view-receipts/${r.id}`} fz="sm">
                {r.unapplied_cents > 0 ? `Apply receipt ${r.id}` : `Open receipt ${r.id}`}
              </Anchor>
            </NoWrapCell>
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
        onChange={list.setPage}
        hideSinglePage
      />
      <RecordReceiptDialog opened={recording} onClose={() => setRecording(false)} onRecorded={onRecorded} />
    </Stack>
  );
}
