import { Alert, Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { parseMoney, type CurrencyCode } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { DataTable } from '../../../components/list/data-table';
import { apiUrl, isApiError, isVersionConflict } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate, formatDateTime } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { getReceiptQueryOptions, useApplyReceipt, useUnapplyReceipt } from '../api/receipts';

/** The receipt id of `#/view-receipts/{id}`: a positive whole number, else null. */
function receiptIdOf(value: string | undefined): number | null {
  return value !== undefined && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

/**
 * #/view-receipts/{id} (privilege apply_receipt; issue 16 point 3, decision 119): the receipt, the customer's open
 * invoices in its currency with their balances and an amount to apply to each (a running "Left to apply"), and the
 * applications made so far, each with Un-apply. The server refuses anything over the receipt or an invoice.
 */
export default function ApplyReceiptPage() {
  const { applyReceipt: param } = useParams();
  const receiptId = receiptIdOf(param);
  if (receiptId === null)
    return (
      <Alert color="red" title="Not a receipt">
        This address does not name a receipt. Open the receipt from{' '}
        <Anchor component={Link} to="/view-receipts">
          the receipts list
        </Anchor>
        .
      </Alert>
    );
  return <ApplyReceipt key={receiptId} receiptId={receiptId} />;
}

function ApplyReceipt({ receiptId }: { receiptId: number }) {
  const query = useQuery(getReceiptQueryOptions(receiptId));
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const keys = useIdempotencyKeys();
  const applying = useApplyReceipt();
  const unapplying = useUnapplyReceipt();

  if (query.isPending) return <Text>Loading receipt {receiptId}…</Text>;
  if (query.isError) {
    const { title, message } = describeError(query.error);
    return (
      <Alert color="red" title={title}>
        {message}
      </Alert>
    );
  }
  const data = query.data;
  const r = data.receipt;
  const currency = r.currency as CurrencyCode;

  const parsed = data.open_invoices.map((inv) => {
    const text = (amounts[inv.invoice_id] ?? '').trim();
    const money = text === '' ? null : parseMoney(text, currency);
    return { inv, text, cents: money?.cents ?? null };
  });
  const entered = parsed.reduce((s, p) => s + (p.cents !== null && p.cents > 0 ? p.cents : 0), 0);
  const left = r.unapplied_cents - entered;

  function fail(error: unknown) {
    const { title, message } = describeError(error);
    // The refusal's refresh has read the receipt again (every money view is asked after a change, done or not).
    if (isVersionConflict(error)) {
      notifications.show({
        color: 'orange',
        title,
        message: 'The receipt was changed by someone else; it has been reloaded. Check the amounts and apply again.',
        autoClose: 10000,
      });
      return;
    }
    notifications.show({ color: 'red', title, message, autoClose: 8000 });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const found: Record<string, string> = {};
    const applications: Array<{ invoice_id: number; amount_cents: number }> = [];
    parsed.forEach((p) => {
      if (p.text === '') return;
      if (p.cents === null || p.cents <= 0) found[`inv-${p.inv.invoice_id}`] = 'Enter an amount such as 25.00.';
      else if (p.cents > p.inv.open_cents)
        found[`inv-${p.inv.invoice_id}`] = `At most ${formatCents(p.inv.open_cents, currency)} is open.`;
      else applications.push({ invoice_id: p.inv.invoice_id, amount_cents: p.cents });
    });
    if (Object.keys(found).length === 0 && applications.length === 0)
      found.form = 'Enter an amount for at least one invoice.';
    if (left < 0) found.form = `That is ${formatCents(-left, currency)} more than is left on the receipt.`;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const action = `apply:${r.version}`;
    applying.mutate(
      {
        receiptId,
        customerId: r.customer_id,
        body: { version: r.version, applications },
        idempotencyKey: keys.keyFor(action),
      },
      {
        onSuccess: (page) => {
          keys.settle(action);
          setAmounts({});
          notifications.show({
            color: 'green',
            title: 'Receipt applied',
            message: `${formatCents(entered, currency)} applied to ${applications.length} ${
              applications.length === 1 ? 'invoice' : 'invoices'
            }; ${formatCents(page.receipt.unapplied_cents, currency)} left on the receipt.`,
          });
        },
        onError: (error) => {
          keys.settle(action, error);
          if (isApiError(error)) {
            const mapped: Record<string, string> = {};
            for (const [field, message] of Object.entries(error.fields)) {
              const m = /^applications\.(\d+)\./.exec(field);
              const app = m ? applications[Number(m[1])] : undefined;
              mapped[app ? `inv-${app.invoice_id}` : 'form'] = message;
            }
            setErrors(mapped);
          }
          fail(error);
        },
      },
    );
  }

  function unapply(allocationId: number, invoiceNumber: string) {
    const action = `unapply:${allocationId}`;
    unapplying.mutate(
      { receiptId, customerId: r.customer_id, allocationId, version: r.version, idempotencyKey: keys.keyFor(action) },
      {
        onSuccess: (page) => {
          keys.settle(action);
          notifications.show({
            color: 'green',
            title: 'Application removed',
            message: `Invoice ${invoiceNumber} is open again for what was applied; ${formatCents(
              page.receipt.unapplied_cents,
              currency,
            )} left on the receipt.`,
          });
        },
        onError: (error) => {
          keys.settle(action, error);
          fail(error);
        },
      },
    );
  }

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/view-receipts" fz="sm">
        ← All receipts
      </Anchor>
      <Title order={1} size="h2">
        Apply receipt {r.id}
      </Title>
      <Table variant="vertical" withTableBorder maw={640} aria-label="Receipt">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={200}>Merchant</Table.Th>
            <Table.Td>
              {r.legal_name} (customer {r.customer_id}){r.doing_business_as ? ` · ${r.doing_business_as}` : ''}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Method</Table.Th>
            <Table.Td>
              {r.method_label}
              {r.reference ? ` ${r.reference}` : ''}
              {r.upload_id !== null && (
                <>
                  {' · '}
                  <Anchor href={apiUrl('/api/uploads/{id}/{token}', { id: r.upload_id })} download>
                    Download the check image
                  </Anchor>
                </>
              )}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Received</Table.Th>
            <Table.Td>{formatDate(r.received_on)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Amount</Table.Th>
            <Table.Td>{formatCents(r.amount_cents, currency)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Applied</Table.Th>
            <Table.Td>{formatCents(r.applied_cents, currency)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Unapplied</Table.Th>
            <Table.Td aria-label="Unapplied">{formatCents(r.unapplied_cents, currency)}</Table.Td>
          </Table.Tr>
          {r.fee_invoice_number && (
            <Table.Tr>
              <Table.Th>Cash/check fee</Table.Th>
              <Table.Td>Invoice {r.fee_invoice_number}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>

      <form onSubmit={submit} aria-label="Apply to invoices" noValidate>
        <Stack gap="sm">
          <DataTable
            caption={`Open invoices of ${r.legal_name} in ${currency}`}
            columns={['Invoice', 'Store', 'Issued', 'Due', 'Total', 'Balance', 'Amount to apply']}
            minWidth={900}
            rowCount={data.open_invoices.length}
            emptyText="This merchant has no open invoices in this currency."
          >
            {parsed.map(({ inv, text }) => (
              <Table.Tr key={inv.invoice_id}>
                <Table.Td>{inv.invoice_number}</Table.Td>
                <Table.Td>{inv.doing_business_as ?? (inv.store_id ? `Store ${inv.store_id}` : '—')}</Table.Td>
                <Table.Td>{formatDate(inv.issued_on)}</Table.Td>
                <Table.Td>{formatDate(inv.due_on)}</Table.Td>
                <Table.Td>{formatCents(inv.total_cents, currency)}</Table.Td>
                <Table.Td>{formatCents(inv.open_cents, currency)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" align="flex-start">
                    <TextInput
                      aria-label={`Amount to apply to ${inv.invoice_number}`}
                      inputMode="decimal"
                      placeholder="0.00"
                      value={text}
                      onChange={(e) => {
                        const v = e.currentTarget.value;
                        setAmounts((a) => ({ ...a, [inv.invoice_id]: v }));
                      }}
                      error={errors[`inv-${inv.invoice_id}`]}
                      w={130}
                    />
                    <Button
                      variant="subtle"
                      size="xs"
                      mt={4}
                      aria-label={`Apply the most possible to ${inv.invoice_number}`}
                      disabled={left <= 0 && text === ''}
                      onClick={() => {
                        const others = entered - (parseMoney(text, currency)?.cents ?? 0);
                        const most = Math.min(inv.open_cents, Math.max(0, r.unapplied_cents - others));
                        setAmounts((a) => ({ ...a, [inv.invoice_id]: (most / 100).toFixed(2) }));
                      }}
                    >
                      Max
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          <Group justify="space-between">
            <Text fw={700} c={left < 0 ? 'red' : undefined} aria-live="polite">
              Left to apply: {formatCents(left, currency)}
            </Text>
            <Button type="submit" loading={applying.isPending} disabled={r.unapplied_cents === 0}>
              Apply
            </Button>
          </Group>
          {errors.form && (
            <Alert color="red" title="Check the amounts">
              {errors.form}
            </Alert>
          )}
        </Stack>
      </form>

      <DataTable
        caption="Applied to invoices"
        columns={['Invoice', 'Amount', 'Applied by', 'When', 'Action']}
        minWidth={700}
        rowCount={data.allocations.length}
        emptyText="Nothing applied yet."
      >
        {data.allocations.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>{a.invoice_number}</Table.Td>
            <Table.Td>{formatCents(a.amount_cents, currency)}</Table.Td>
            <Table.Td>{a.allocated_by_email}</Table.Td>
            <Table.Td>{formatDateTime(a.allocated_at)}</Table.Td>
            <Table.Td>
              <Button
                variant="default"
                size="xs"
                loading={unapplying.isPending && unapplying.variables.allocationId === a.id}
                onClick={() => unapply(a.id, a.invoice_number)}
                aria-label={`Un-apply ${formatCents(a.amount_cents, currency)} from ${a.invoice_number}`}
              >
                Un-apply
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </Stack>
  );
}
