import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CURRENCY_CODES, type CurrencyCode } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable, FilterCurrency, FilterMonth, LiveFilterBar } from '../../../components/list';
import { describeError } from '../../../lib/error-message';
import { currencyLabel, formatCents, formatMonth, todayIso } from '../../../lib/format';
import {
  getTrialBalanceQueryOptions,
  useDownloadGeneralLedgerCsv,
  useDownloadTrialBalanceCsv,
} from '../api/accounting';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const money = { ta: 'right', style: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } } as const;

function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/**
 * #/accounting (ar_approvals; issue 28 item 5, decision 146): the trial balance of the journal for a month and
 * currency — opening, debits, credits and closing per account, with the provider's account codes — the tie-outs
 * that show the journal agrees with the books, and the downloads AR takes at month end (the trial balance and the
 * general-ledger lines of a range of days). Month and currency live in the address.
 */
export default function AccountingPage() {
  const [params, setParams] = useSearchParams();
  const month = MONTH.test(params.get('month') ?? '') ? params.get('month')! : todayIso().slice(0, 7);
  const currency: CurrencyCode = (CURRENCY_CODES as readonly string[]).includes(params.get('currency') ?? '')
    ? (params.get('currency') as CurrencyCode)
    : 'USD';
  const [from, setFrom] = useState(`${month}-01`);
  const [to, setTo] = useState(monthEnd(month));
  const query = useQuery(getTrialBalanceQueryOptions(month, currency));
  const tb = query.data;

  const set = (next: { month?: string; currency?: string }) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) p.set(k, v);
    setParams(p);
    if (next.month && MONTH.test(next.month)) {
      setFrom(`${next.month}-01`);
      setTo(monthEnd(next.month));
    }
  };

  const fail = (error: unknown) => {
    const { title, message } = describeError(error);
    notifications.show({ color: 'red', title, message });
  };
  const tbCsv = useDownloadTrialBalanceCsv();
  const glCsv = useDownloadGeneralLedgerCsv();
  const exportGl = (e: FormEvent) => {
    e.preventDefault();
    glCsv.mutate({ from, to, currency }, { onError: fail });
  };

  const broken = tb?.tie_outs.filter((t) => !t.ok) ?? [];
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Month-end accounting
      </Title>
      <LiveFilterBar label="Month and currency of the trial balance">
        <FilterMonth label="Month" value={month} onChange={(next) => set({ month: next })} />
        <FilterCurrency anyLabel={null} value={currency} onChange={(next) => set({ currency: next })} w={160} />
        <Button
          variant="default"
          onClick={() => tbCsv.mutate({ month, currency }, { onError: fail })}
          loading={tbCsv.isPending}
        >
          Download trial balance (CSV)
        </Button>
      </LiveFilterBar>

      {query.isError && (
        <Alert color="red" title="The trial balance could not be loaded">
          {describeError(query.error).message}
        </Alert>
      )}

      {tb && (
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Title order={2} size="h4">
              The journal against the books (to date)
            </Title>
            {broken.length === 0 ? (
              <Text size="sm">Every figure ties out: the journal and the books agree.</Text>
            ) : (
              <Alert color="red" title="The journal and the books differ">
                Tell the finance lead before closing the month: {broken.map((b) => b.label.toLowerCase()).join('; ')}.
              </Alert>
            )}
            <Table fz="sm" verticalSpacing={4} aria-label="Tie-outs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Check</Table.Th>
                  <Table.Th scope="col" ta="right">
                    Journal
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    Books
                  </Table.Th>
                  <Table.Th scope="col">Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tb.tie_outs.map((t) => (
                  <Table.Tr key={t.name}>
                    <Table.Td>{t.label}</Table.Td>
                    <Table.Td {...money}>{formatCents(t.journal_cents, currency)}</Table.Td>
                    <Table.Td {...money}>{formatCents(t.books_cents, currency)}</Table.Td>
                    <Table.Td>
                      <Badge color={t.ok ? 'green' : 'red'} variant="light">
                        {t.ok ? 'Ties out' : 'Differs'}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        </Paper>
      )}

      <DataTable
        caption={`Trial balance, ${formatMonth(`${month}-01`)}, ${currencyLabel(currency)}`}
        columns={[
          'Account',
          'GL code',
          'Name',
          <Table.Th key="o" scope="col" ta="right">
            Opening
          </Table.Th>,
          <Table.Th key="d" scope="col" ta="right">
            Debits
          </Table.Th>,
          <Table.Th key="c" scope="col" ta="right">
            Credits
          </Table.Th>,
          <Table.Th key="b" scope="col" ta="right">
            Closing
          </Table.Th>,
        ]}
        minWidth={760}
        rowCount={tb?.rows.length ?? 0}
        emptyText={query.isPending ? 'Loading the trial balance…' : 'Nothing posted.'}
      >
        {tb?.rows.map((r) => (
          <Table.Tr key={r.account}>
            <Table.Td>{r.account}</Table.Td>
            <Table.Td>{r.gl_account}</Table.Td>
            <Table.Td>{r.name}</Table.Td>
            <Table.Td {...money}>{formatCents(r.opening_cents, currency)}</Table.Td>
            <Table.Td {...money}>{formatCents(r.debit_cents, currency)}</Table.Td>
            <Table.Td {...money}>{formatCents(r.credit_cents, currency)}</Table.Td>
            <Table.Td {...money}>{formatCents(r.closing_cents, currency)}</Table.Td>
          </Table.Tr>
        ))}
        {tb && (
          <Table.Tr fw={700}>
            <Table.Td colSpan={4}>Total of the month</Table.Td>
            <Table.Td {...money}>{formatCents(tb.totals.debit_cents, currency)}</Table.Td>
            <Table.Td {...money}>{formatCents(tb.totals.credit_cents, currency)}</Table.Td>
            <Table.Td />
          </Table.Tr>
        )}
      </DataTable>
      <Text size="xs" c="dimmed">
        Balances are debits less credits: a negative closing is a credit balance (liabilities, revenue).
      </Text>

      <Paper withBorder p="md" component="form" onSubmit={exportGl}>
        <Stack gap="xs">
          <Title order={2} size="h4">
            General-ledger export
          </Title>
          <Text size="sm">
            One row per journal line of the days chosen, with the provider's account codes (up to a year).
          </Text>
          <Group align="end">
            <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={180} />
            <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} w={180} />
            <Button type="submit" loading={glCsv.isPending}>
              Export general ledger (CSV)
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
