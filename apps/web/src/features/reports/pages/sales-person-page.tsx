import { Alert, Anchor, Badge, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { routePath, type RepSalesHistory } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import {
  DataTable,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FigureHeader,
  ListPagination,
  NoWrapCell,
  useListState,
} from '../../../components/list';
import { describeError } from '../../../lib/error-message';
import { countryName, currencyLabel, formatCents, formatCount, formatMonth, humanize } from '../../../lib/format';
import {
  exportRepCustomers,
  exportRepSalesHistory,
  REP_CUSTOMERS_PAGE_SIZE,
  repCustomersQueryOptions,
  repSalesHistoryQueryOptions,
} from '../api/sales-reports';
import { ReportChart } from '../components/report-chart';
import { saveCsv } from '../components/report-parts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

function RepRecord({ rep }: { rep: RepSalesHistory['sales_person'] }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="rep-title">
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={1} size="h2" id="rep-title">
            {rep.name}
          </Title>
          <Text c="dimmed">Sales person {rep.id}</Text>
        </div>
        <Badge color={rep.active ? 'green' : 'gray'} variant="light">
          {rep.active ? 'Active' : 'Inactive'}
        </Badge>
      </Group>
      <SimpleGrid component="dl" cols={{ base: 2, sm: 3 }} spacing="sm" m={0}>
        <Fact label="E-mail">{rep.email}</Fact>
        <Fact label="Phone">{rep.phone ?? '—'}</Fact>
        <Fact label="Sales channel">{rep.sales_channel}</Fact>
        <Fact label="Agent">{rep.agent_name ?? 'No agent'}</Fact>
        <Fact label="Customers">{formatCount(rep.customers)}</Fact>
      </SimpleGrid>
    </Paper>
  );
}

function MonthlySales({ history }: { history: RepSalesHistory }) {
  const currencies = history.totals.map((t) => t.currency);
  const range = `${formatMonth(history.from_month)} – ${formatMonth(history.to_month)}`;
  return (
    <Stack gap="md" component="section" aria-label="Monthly sales">
      <Group justify="space-between">
        <Title order={2} size="h3">
          Monthly sales, {range}
        </Title>
        <ExportCsvButton
          label="Download monthly sales as CSV"
          run={() =>
            saveCsv(`sales-person-${history.sales_person.id}`, () => exportRepSalesHistory(history.sales_person.id))
          }
        />
      </Group>
      <SimpleGrid cols={{ base: 1, md: currencies.length > 1 ? 2 : 1 }}>
        {currencies.map((c) => (
          <ReportChart
            key={c}
            title={`Monthly sales of ${history.sales_person.name}`}
            currency={c}
            data={history.months
              .filter((m) => m.currency === c)
              .map((m) => ({ label: formatMonth(m.period_month), cents: m.amount_cents }))}
          />
        ))}
      </SimpleGrid>
      <Table.ScrollContainer minWidth={420}>
        <Table striped captionSide="top">
          <Table.Caption>Monthly sales of {history.sales_person.name}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Month</Table.Th>
              <Table.Th scope="col">Currency</Table.Th>
              <FigureHeader>Units</FigureHeader>
              <FigureHeader>Amount</FigureHeader>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...history.months].reverse().map((m) => (
              <Table.Tr key={`${m.period_month}-${m.currency}`}>
                <NoWrapCell>{formatMonth(m.period_month)}</NoWrapCell>
                <NoWrapCell>{m.currency}</NoWrapCell>
                <FigureCell>{formatCount(m.units)}</FigureCell>
                <FigureCell>{formatCents(m.amount_cents, m.currency)}</FigureCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            {history.totals.map((t) => (
              <Table.Tr key={t.currency}>
                <Table.Th scope="row" colSpan={2}>
                  Total ({currencyLabel(t.currency)})
                </Table.Th>
                <FigureCell fw={700}>{formatCount(t.units)}</FigureCell>
                <FigureCell fw={700}>{formatCents(t.amount_cents, t.currency)}</FigureCell>
              </Table.Tr>
            ))}
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** No filters; the sort and page of the customers are in the address (`#/sales-person/7?sort=-legal_name&page=2`). */
const CUSTOMER_LIST_OPTIONS = { defaults: {} } as const;

function RepCustomers({ id, name }: { id: number; name: string }) {
  const list = useListState<Record<never, string>>(CUSTOMER_LIST_OPTIONS);
  const sort = list.sort ?? '';
  const customers = useQuery(repCustomersQueryOptions(id, list.page, sort));
  return (
    <Stack gap="sm" component="section" aria-label="Customers of the sales person">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h3">
          Customers
        </Title>
        <NativeSelect
          size="xs"
          label="Sort customers by"
          value={sort}
          onChange={(e) => list.setSort(e.currentTarget.value)}
          data={[
            { value: '', label: 'Name, A to Z' },
            { value: '-legal_name', label: 'Name, Z to A' },
            { value: 'customer_id', label: 'Customer id, oldest first' },
            { value: '-customer_id', label: 'Customer id, newest first' },
          ]}
        />
      </Group>
      <ExportCsvButton
        label="Download customers as CSV"
        run={() => saveCsv(`sales-person-${id}-customers`, () => exportRepCustomers(id, sort))}
        disabled={customers.data?.total === 0}
      />
      <DataTable
        caption={`Customers of ${name}${customers.data ? ` — ${formatCount(customers.data.total)}` : ''}`}
        minWidth={520}
        rowCount={customers.data?.items.length ?? 0}
        emptyText={emptyListText(customers.isPending, 'No customers.')}
        aria-busy={customers.isFetching}
        columns={['Customer', 'Country', 'Currency', 'Status']}
      >
        {customers.data?.items.map((c) => (
          <Table.Tr key={c.customer_id}>
            <Table.Td>
              <Anchor component={Link} to={`${routePath('customer')}?id=${c.customer_id}`} fz="sm">
                {c.legal_name}
              </Anchor>
              <Text size="xs" c="dimmed">
                Customer {c.customer_id}
              </Text>
            </Table.Td>
            <Table.Td>{countryName(c.country)}</Table.Td>
            <NoWrapCell>{c.currency}</NoWrapCell>
            <NoWrapCell>{humanize(c.status)}</NoWrapCell>
          </Table.Tr>
        ))}
      </DataTable>
      {customers.data && (
        <ListPagination
          label="Customer pages"
          total={customers.data.total}
          pageSize={REP_CUSTOMERS_PAGE_SIZE}
          page={list.page}
          onChange={list.setPage}
          hideSinglePage
        />
      )}
    </Stack>
  );
}

/**
 * #/sales-person/{salesPersonId} (decision 129): the sales person's record, what they sold each month of the last
 * 24 (per currency: a chart, the table, CSV) and their customers, each linking to the customer page.
 */
export default function SalesPersonPage() {
  const raw = useParams().salesPersonId ?? '';
  const id = /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  const history = useQuery({
    ...repSalesHistoryQueryOptions(id ?? 0),
    enabled: id !== null,
    meta: { silentError: true },
  });

  if (id === null)
    return (
      <Alert color="red" title="Not found">
        “{raw}” is not a sales person id.
      </Alert>
    );
  if (history.isError)
    return (
      <Alert color="red" title={describeError(history.error).title}>
        {describeError(history.error).message}
      </Alert>
    );
  if (!history.data) return <Text c="dimmed">Loading the sales person…</Text>;
  return (
    <Stack gap="lg">
      <RepRecord rep={history.data.sales_person} />
      <MonthlySales history={history.data} />
      <RepCustomers id={id} name={history.data.sales_person.name} />
    </Stack>
  );
}
