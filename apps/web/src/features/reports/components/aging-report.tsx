import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import {
  AGING_BUCKET_FIELDS,
  AGING_BUCKET_LABELS,
  AGING_BUCKETS,
  CURRENCY_CODES,
  type AgingBucket,
  type AgingCustomerRow,
  type AgingTotals,
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
  FigureHeader,
  FilterBar,
  FilterDate,
  ListError,
  ListPagination,
  NoWrapCell,
  SortHeader,
  useListState,
  useNestedListState,
} from '../../../components/list';
import { countryName, formatCents, formatDate } from '../../../lib/format';
import {
  AGING_PAGE_SIZE,
  DRILL_PAGE_SIZE,
  exportReport,
  getAgingInvoicesQueryOptions,
  getAgingQueryOptions,
  type AgingParams,
  type DrillParams,
} from '../api/reports';
import { PlaceSelects, ReportBarChart, saveCsv, useMayOpenInvoices } from './report-parts';

/** 'Invoices 31–60 days past due', 'Invoices not yet due', 'Invoices over 90 days past due'. */
export function drillHeading(bucket: AgingBucket): string {
  if (bucket === 'current') return 'Invoices not yet due';
  if (bucket === '90+') return 'Invoices over 90 days past due';
  return `Invoices ${AGING_BUCKET_LABELS[bucket]} past due`;
}

/** How a bucket reads inside a sentence: 'not yet due', '31–60 days past due'. */
function bucketPhrase(bucket: AgingBucket): string {
  return drillHeading(bucket).replace(/^Invoices /, '');
}

interface Drill {
  readonly bucket: AgingBucket;
  readonly currency: string;
  readonly customerId: number | null;
}

/** The open drill-down in the address: `drill=31-60.CAD` (a total) or `drill=1-30.USD.100005` (a customer's cell). */
function drillKey(d: Drill): string {
  return [d.bucket, d.currency, ...(d.customerId === null ? [] : [d.customerId])].join('.');
}
function drillOf(key: string | null): Drill | null {
  const [bucket, currency, customer, ...rest] = key?.split('.') ?? [];
  if (rest.length > 0 || !AGING_BUCKETS.some((b) => b === bucket)) return null;
  if (!CURRENCY_CODES.some((c) => c === currency)) return null;
  if (customer !== undefined && !/^[1-9]\d{0,9}$/.test(customer)) return null;
  return { bucket: bucket as AgingBucket, currency: currency!, customerId: customer ? Number(customer) : null };
}

interface AgingFilters {
  /** YYYY-MM-DD or '' for today. */
  readonly asOf: string;
  readonly country: string;
  readonly currency: string;
}
const LIST_OPTIONS = {
  defaults: { asOf: '', country: '', currency: '' } as AgingFilters,
  keys: { asOf: 'as_of' },
  selectedKey: 'drill',
  nestedKeys: ['drill_page'],
} as const;
const DRILL_LIST = { pageKey: 'drill_page', sortKey: 'drill_sort' } as const;

/** A bucket figure: a link that opens the invoices behind it (beside the report). */
function FigureLink(props: { cents: number; currency: string; label: string; to: string }) {
  if (props.cents === 0) return <>{formatCents(0, props.currency)}</>;
  return (
    <Anchor component={Link} to={props.to} fz="sm" aria-label={props.label}>
      {formatCents(props.cents, props.currency)}
    </Anchor>
  );
}

const BUCKET_COLUMNS = AGING_BUCKETS.map((b) => <FigureHeader key={b}>{AGING_BUCKET_LABELS[b]}</FigureHeader>);

/**
 * The AR aging tab: open balances (the ledger's) on the as-of day by days past due — totals per currency with a chart
 * each, the by-customer table (sorted and paged on the server) and, beside them, the invoices behind a figure a user
 * clicks (a total or a customer's cell), each linking to its customer. The as-of day, country, currency, sort, page
 * and the open figure are in the address (`#/reports?tab=aging&currency=CAD&drill=31-60.CAD`).
 */
export function AgingReport() {
  const list = useListState<AgingFilters>(LIST_OPTIONS);
  const { applied, draft, page, sort } = list;
  const drill = drillOf(list.selected);
  const drillList = useNestedListState(DRILL_LIST);

  const params: AgingParams = { ...applied, page, sort };
  const report = useQuery(getAgingQueryOptions(params));
  const info = report.data;
  const hrefFor = (d: Drill) => list.hrefFor(drillKey(d));
  const closeDrill = () => list.select(null);

  return (
    <Stack gap="md">
      <FilterBar label="AR aging filters" onApply={() => list.apply()} onClear={list.clear}>
        <FilterDate
          label="As of"
          description="Ages are counted on this day (empty: today)"
          {...bindFilter(list)('asOf')}
        />
        <PlaceSelects value={draft} onChange={(next) => list.setDraft((d) => ({ ...d, ...next }))} />
      </FilterBar>
      <ExportCsvButton
        run={() => saveCsv('ar-aging', () => exportReport({ kind: 'aging', params }))}
        disabled={!info}
      />
      <ListError error={report.error} />

      {info && (
        <>
          <Text c="dimmed" fz="sm">
            Open balances as of {formatDate(info.as_of)}. USD and CAD are shown apart, never added together.
          </Text>
          {info.totals.length > 0 && (
            <SimpleGrid cols={{ base: 1, md: info.totals.length }}>
              {info.totals.map((t) => (
                <Paper key={t.currency} withBorder p="sm">
                  <Text fw={700} fz="sm">
                    {t.currency} open balance by age: {formatCents(t.total_cents, t.currency)}
                  </Text>
                  <ReportBarChart
                    currency={t.currency}
                    dataKey="bucket"
                    data={AGING_BUCKETS.map((b) => ({
                      bucket: AGING_BUCKET_LABELS[b],
                      Open: t[AGING_BUCKET_FIELDS[b]],
                    }))}
                    series={[{ name: 'Open', color: 'blue.6' }]}
                  />
                </Paper>
              ))}
            </SimpleGrid>
          )}
          <TotalsTable
            totals={info.totals}
            hrefFor={(bucket, currency) => hrefFor({ bucket, currency, customerId: null })}
          />
          <DataTable
            caption={`By customer — ${info.customers.total} ${info.customers.total === 1 ? 'row' : 'rows'}`}
            minWidth={900}
            rowCount={info.customers.items.length}
            emptyText="No open balances."
            columns={[
              <SortHeader key="legal_name" column="legal_name" sort={sort} onSort={list.setSort}>
                Customer
              </SortHeader>,
              'Country',
              'Currency',
              ...AGING_BUCKETS.map((b) => (
                <SortHeader key={b} column={AGING_BUCKET_FIELDS[b]} sort={sort} onSort={list.setSort} numeric descFirst>
                  {AGING_BUCKET_LABELS[b]}
                </SortHeader>
              )),
              <SortHeader key="total" column="total_cents" sort={sort} onSort={list.setSort} numeric descFirst>
                Total
              </SortHeader>,
            ]}
          >
            {info.customers.items.map((c) => (
              <CustomerRow key={`${c.customer_id}-${c.currency}`} row={c} hrefFor={hrefFor} />
            ))}
          </DataTable>
          <ListPagination
            label="Customer pages"
            total={info.customers.total}
            pageSize={AGING_PAGE_SIZE}
            page={page}
            onChange={list.setPage}
            hideSinglePage
          />
        </>
      )}

      {drill && (
        <DetailPane label={drillHeading(drill.bucket)} onClose={closeDrill}>
          <DrillDown
            key={drillKey(drill)}
            drill={drill}
            customerName={info?.customers.items.find((c) => c.customer_id === drill.customerId)?.legal_name ?? null}
            params={{
              asOf: applied.asOf,
              country: applied.country,
              currency: drill.currency,
              bucket: drill.bucket,
              customerId: drill.customerId,
              page: drillList.page,
            }}
            onPage={drillList.setPage}
            onClose={closeDrill}
          />
        </DetailPane>
      )}
    </Stack>
  );
}

function TotalsTable(props: {
  totals: readonly AgingTotals[];
  hrefFor: (bucket: AgingBucket, currency: string) => string;
}) {
  return (
    <DataTable
      caption="Totals per currency"
      minWidth={760}
      rowCount={props.totals.length}
      emptyText="No open balances."
      columns={[
        'Currency',
        ...BUCKET_COLUMNS,
        <FigureHeader key="total">Total</FigureHeader>,
        <FigureHeader key="invoices">Invoices</FigureHeader>,
      ]}
    >
      {props.totals.map((t) => (
        <Table.Tr key={t.currency}>
          <Table.Th scope="row">{t.currency}</Table.Th>
          {AGING_BUCKETS.map((b) => (
            <FigureCell key={b}>
              <FigureLink
                cents={t[AGING_BUCKET_FIELDS[b]]}
                currency={t.currency}
                label={`${formatCents(t[AGING_BUCKET_FIELDS[b]], t.currency)}: ${t.currency} invoices ${bucketPhrase(b)}`}
                to={props.hrefFor(b, t.currency)}
              />
            </FigureCell>
          ))}
          <FigureCell fw={700}>{formatCents(t.total_cents, t.currency)}</FigureCell>
          <FigureCell>{t.invoice_count}</FigureCell>
        </Table.Tr>
      ))}
    </DataTable>
  );
}

function CustomerRow(props: { row: AgingCustomerRow; hrefFor: (d: Drill) => string }) {
  const c = props.row;
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={400}>
        <Anchor href={`#/customer?id=${c.customer_id}`} fz="sm">
          {c.legal_name}
        </Anchor>
      </Table.Th>
      <Table.Td>{countryName(c.country)}</Table.Td>
      <NoWrapCell>{c.currency}</NoWrapCell>
      {AGING_BUCKETS.map((b) => (
        <FigureCell key={b}>
          <FigureLink
            cents={c[AGING_BUCKET_FIELDS[b]]}
            currency={c.currency}
            label={`${formatCents(c[AGING_BUCKET_FIELDS[b]], c.currency)}: ${c.legal_name}'s ${c.currency} invoices ${bucketPhrase(b)}`}
            to={props.hrefFor({ bucket: b, currency: c.currency, customerId: c.customer_id })}
          />
        </FigureCell>
      ))}
      <FigureCell fw={700}>{formatCents(c.total_cents, c.currency)}</FigureCell>
    </Table.Tr>
  );
}

function DrillDown(props: {
  drill: Drill;
  /** The customer of a customer's cell, when the report's page shows it. */
  customerName: string | null;
  params: DrillParams;
  onPage: (p: number) => void;
  onClose: () => void;
}) {
  const { drill, params } = props;
  const list = useQuery(getAgingInvoicesQueryOptions(params));
  const mayOpenInvoices = useMayOpenInvoices();
  const heading = drillHeading(drill.bucket);
  // A link to a customer's figure names the customer from its invoices when the report's page does not show it.
  const customerName =
    drill.customerId === null
      ? null
      : (props.customerName ?? list.data?.items[0]?.legal_name ?? `Customer ${drill.customerId}`);
  const who = customerName ? `${customerName}, ${drill.currency}` : drill.currency;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="aging-drill-heading">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="aging-drill-heading">
            {heading}
          </Title>
          <Button variant="subtle" onClick={props.onClose}>
            Close invoices
          </Button>
        </Group>
        <Text fz="sm" c="dimmed">
          {who}
          {list.data &&
            list.data.totals.map((t) => ` — ${t.count} open, ${formatCents(t.open_cents, t.currency)}`).join('')}
        </Text>
        <ExportCsvButton
          run={() => saveCsv('ar-aging-invoices', () => exportReport({ kind: 'aging-invoices', params }))}
          label="Export these invoices (CSV)"
          disabled={(list.data?.total ?? 0) === 0}
        />
        <ListError error={list.error} />
        <DataTable
          caption={`${heading} — ${who}`}
          minWidth={700}
          rowCount={list.data?.items.length ?? 0}
          emptyText={emptyListText(list.isPending, 'No invoices.')}
          columns={[
            'Invoice',
            'Customer',
            'Store',
            'Due',
            <FigureHeader key="days">Days past due</FigureHeader>,
            <FigureHeader key="open">Open balance</FigureHeader>,
          ]}
        >
          {list.data?.items.map((i) => (
            <Table.Tr key={i.invoice_id}>
              <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
                {mayOpenInvoices ? (
                  <Anchor component={Link} to={`/view-invoices?id=${i.invoice_id}`} fz="sm">
                    {i.invoice_number}
                  </Anchor>
                ) : (
                  i.invoice_number
                )}
              </Table.Th>
              <Table.Td>
                <Anchor href={`#/customer?id=${i.customer_id}`} fz="sm">
                  {i.legal_name}
                </Anchor>
              </Table.Td>
              <Table.Td>{i.doing_business_as ?? (i.store_id === null ? '—' : `Store ${i.store_id}`)}</Table.Td>
              <NoWrapCell>{formatDate(i.due_on)}</NoWrapCell>
              <FigureCell>{i.days_past_due > 0 ? i.days_past_due : 'Not yet due'}</FigureCell>
              <FigureCell>{formatCents(i.open_cents, i.currency)}</FigureCell>
            </Table.Tr>
          ))}
        </DataTable>
        <ListPagination
          label="Invoice pages"
          total={list.data?.total ?? 0}
          pageSize={DRILL_PAGE_SIZE}
          page={params.page}
          onChange={props.onPage}
          hideSinglePage
        />
      </Stack>
    </Paper>
  );
}
