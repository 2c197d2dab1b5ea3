import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  AGING_BUCKET_FIELDS,
  AGING_BUCKET_LABELS,
  AGING_BUCKETS,
  type AgingBucket,
  type AgingCustomerRow,
  type AgingTotals,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { ListPagination } from '../../../components/list/list-pagination';
import { describeError } from '../../../lib/error-message';
import { countryName, formatCents, formatDate } from '../../../lib/format';
import {
  AGING_PAGE_SIZE,
  DRILL_PAGE_SIZE,
  getAgingInvoicesQueryOptions,
  getAgingQueryOptions,
  type DrillParams,
  type PlaceFilters,
} from '../api/reports';
import { ExportCsvButton, PlaceSelects, ReportBarChart, SortHeader } from './report-parts';

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
  readonly customerName: string | null;
}

/** A bucket figure that opens the invoices behind it. */
function FigureButton(props: { cents: number; currency: string; label: string; onOpen: () => void }) {
  if (props.cents === 0) return <Text fz="sm">{formatCents(0, props.currency)}</Text>;
  return (
    <Anchor component="button" type="button" fz="sm" onClick={props.onOpen} aria-label={props.label}>
      {formatCents(props.cents, props.currency)}
    </Anchor>
  );
}

const BUCKET_COLUMNS = AGING_BUCKETS.map((b) => AGING_BUCKET_LABELS[b]);

/**
 * The AR aging tab: open balances (the ledger's) on the as-of day by days past due — totals per currency with a chart
 * each, the by-customer table (sorted and paged on the server) and, under them, the invoices behind a figure a user
 * clicks (a total or a customer's cell), each linking to its customer.
 */
export function AgingReport() {
  const [asOf, setAsOf] = useState('');
  const [place, setPlace] = useState<PlaceFilters>({ country: '', currency: '' });
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<string | null>(null);
  const [drill, setDrill] = useState<Drill | null>(null);
  const [drillPage, setDrillPage] = useState(1);

  const params = { asOf, ...place, page, sort };
  const report = useQuery(getAgingQueryOptions(params));
  const info = report.data;

  const openDrill = (d: Drill) => {
    setDrill(d);
    setDrillPage(1);
  };
  const filtersChanged = () => {
    setPage(1);
    setDrill(null);
  };

  return (
    <Stack gap="md">
      <Group align="flex-end" wrap="wrap">
        <TextInput
          type="date"
          label="As of"
          description="Ages are counted on this day (empty: today)"
          value={asOf}
          onChange={(e) => {
            setAsOf(e.currentTarget.value);
            filtersChanged();
          }}
        />
        <PlaceSelects
          value={place}
          onChange={(next) => {
            setPlace(next);
            filtersChanged();
          }}
        />
      </Group>

      {report.isError && (
        <Alert color="red" title={describeError(report.error).title}>
          {describeError(report.error).message}
        </Alert>
      )}

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
            onOpen={(bucket, currency) => openDrill({ bucket, currency, customerId: null, customerName: null })}
          />
          <DataTable
            caption={`By customer — ${info.customers.total} ${info.customers.total === 1 ? 'row' : 'rows'}`}
            minWidth={900}
            rowCount={info.customers.items.length}
            emptyText="No open balances."
            columns={[
              <SortHeader key="legal_name" column="legal_name" sort={sort} onSort={setSort}>
                Customer
              </SortHeader>,
              'Country',
              'Currency',
              ...AGING_BUCKETS.map((b) => (
                <SortHeader key={b} column={AGING_BUCKET_FIELDS[b]} sort={sort} onSort={setSort} numeric>
                  {AGING_BUCKET_LABELS[b]}
                </SortHeader>
              )),
              <SortHeader key="total" column="total_cents" sort={sort} onSort={setSort} numeric>
                Total
              </SortHeader>,
            ]}
          >
            {info.customers.items.map((c) => (
              <CustomerRow key={`${c.customer_id}-${c.currency}`} row={c} onOpen={openDrill} />
            ))}
          </DataTable>
          <ListPagination
            label="Customer pages"
            total={info.customers.total}
            pageSize={AGING_PAGE_SIZE}
            page={page}
            onChange={setPage}
            hideSinglePage
          />
          <ExportCsvButton report={{ kind: 'aging', params }} name="ar-aging" />
        </>
      )}

      {drill && (
        <DrillDown
          drill={drill}
          params={{
            asOf,
            country: place.country,
            currency: drill.currency,
            bucket: drill.bucket,
            customerId: drill.customerId,
            page: drillPage,
          }}
          onPage={setDrillPage}
          onClose={() => setDrill(null)}
        />
      )}
    </Stack>
  );
}

function TotalsTable(props: {
  totals: readonly AgingTotals[];
  onOpen: (bucket: AgingBucket, currency: string) => void;
}) {
  return (
    <DataTable
      caption="Totals per currency"
      minWidth={760}
      rowCount={props.totals.length}
      emptyText="No open balances."
      columns={['Currency', ...BUCKET_COLUMNS, 'Total', 'Invoices']}
    >
      {props.totals.map((t) => (
        <Table.Tr key={t.currency}>
          <Table.Th scope="row">{t.currency}</Table.Th>
          {AGING_BUCKETS.map((b) => (
            <Table.Td key={b} ta="right">
              <FigureButton
                cents={t[AGING_BUCKET_FIELDS[b]]}
                currency={t.currency}
                label={`${formatCents(t[AGING_BUCKET_FIELDS[b]], t.currency)}: ${t.currency} invoices ${bucketPhrase(b)}`}
                onOpen={() => props.onOpen(b, t.currency)}
              />
            </Table.Td>
          ))}
          <Table.Td ta="right" fw={700}>
            {formatCents(t.total_cents, t.currency)}
          </Table.Td>
          <Table.Td ta="right">{t.invoice_count}</Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}

function CustomerRow(props: { row: AgingCustomerRow; onOpen: (d: Drill) => void }) {
  const c = props.row;
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={400}>
        <Anchor href={`#/customer?id=${c.customer_id}`} fz="sm">
          {c.legal_name}
        </Anchor>
      </Table.Th>
      <Table.Td>{countryName(c.country)}</Table.Td>
      <Table.Td>{c.currency}</Table.Td>
      {AGING_BUCKETS.map((b) => (
        <Table.Td key={b} ta="right">
          <FigureButton
            cents={c[AGING_BUCKET_FIELDS[b]]}
            currency={c.currency}
            label={`${formatCents(c[AGING_BUCKET_FIELDS[b]], c.currency)}: ${c.legal_name}'s ${c.currency} invoices ${bucketPhrase(b)}`}
            onOpen={() =>
              props.onOpen({ bucket: b, currency: c.currency, customerId: c.customer_id, customerName: c.legal_name })
            }
          />
        </Table.Td>
      ))}
      <Table.Td ta="right" fw={700}>
        {formatCents(c.total_cents, c.currency)}
      </Table.Td>
    </Table.Tr>
  );
}

function DrillDown(props: { drill: Drill; params: DrillParams; onPage: (p: number) => void; onClose: () => void }) {
  const { drill, params } = props;
  const list = useQuery(getAgingInvoicesQueryOptions(params));
  const heading = drillHeading(drill.bucket);
  const who = drill.customerName ? `${drill.customerName}, ${drill.currency}` : drill.currency;
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
        {list.isError && (
          <Alert color="red" title={describeError(list.error).title}>
            {describeError(list.error).message}
          </Alert>
        )}
        <DataTable
          caption={`${heading} — ${who}`}
          minWidth={800}
          rowCount={list.data?.items.length ?? 0}
          emptyText={list.isPending ? 'Loading…' : 'No invoices.'}
          columns={['Invoice', 'Customer', 'Store', 'Due', 'Days past due', 'Open balance']}
        >
          {list.data?.items.map((i) => (
            <Table.Tr key={i.invoice_id}>
              <Table.Th scope="row" fw={400}>
                {i.invoice_number}
              </Table.Th>
              <Table.Td>
                <Anchor href={`#/customer?id=${i.customer_id}`} fz="sm">
                  {i.legal_name}
                </Anchor>
              </Table.Td>
              <Table.Td>{i.doing_business_as ?? (i.store_id === null ? '—' : `Store ${i.store_id}`)}</Table.Td>
              <Table.Td>{formatDate(i.due_on)}</Table.Td>
              <Table.Td ta="right">{i.days_past_due > 0 ? i.days_past_due : 'Not yet due'}</Table.Td>
              <Table.Td ta="right">{formatCents(i.open_cents, i.currency)}</Table.Td>
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
        <ExportCsvButton
          report={{ kind: 'aging-invoices', params }}
          name="ar-aging-invoices"
          label="Export these invoices (CSV)"
        />
      </Stack>
    </Paper>
  );
}
