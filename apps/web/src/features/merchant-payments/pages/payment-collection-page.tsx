import { Alert, Button, Checkbox, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import type { PaymentCollectionOutput } from '@pos/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useParams } from 'react-router';
import { useGatewayConfig } from '../../../api/payment-gateway';
import { CardFields } from '../../../components/payment-method-fields';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate } from '../../../lib/format';
import { EMPTY_CARD, tokenizeCard, type CardInput } from '../../../lib/gateway';
import { newIdempotencyKey } from '../../../lib/idempotency';
import { addCollectionCard, collectNow, getPaymentCollectionQueryOptions } from '../api/merchant-payments';
import { refreshMoneyViews } from '../../../api/money-views';

const NEW_CARD = 'new';
const OUTCOME_TEXT = { paid: 'Paid', failed: 'Declined', pending: 'Processing', skipped: 'Not charged' } as const;

/**
 * #/customer/payment/{paymentPlanId}/collection (collect_payment): the plan's customer and store, its past-due
 * invoices to pick, a payment method on file or a new card; "Collect now" queues the collection and shows what
 * became of each invoice.
 */
export default function PaymentCollectionPage() {
  const paymentPlanId = Number(useParams().paymentPlanId);
  const queryClient = useQueryClient();
  const view = useQuery({ ...getPaymentCollectionQueryOptions(paymentPlanId), enabled: paymentPlanId > 0 });
  const gateway = useGatewayConfig();
  const [picked, setPicked] = useState<Set<number> | null>(null);
  const [method, setMethod] = useState<string>('');
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<PaymentCollectionOutput | null>(null);
  const key = useRef<string | null>(null);

  if (!(paymentPlanId > 0)) return <Alert color="red">This is not a payment plan id.</Alert>;
  if (view.isPending) return <Spinner busy />;
  if (view.isError) return <Alert color="red">{describeError(view.error).message}</Alert>;
  const v = view.data;
  const money = (cents: number) => formatCents(cents, v.currency);
  const selected = picked ?? new Set(v.past_due.map((i) => i.invoice_id));
  const chosen = method || String(v.instruments.find((i) => i.is_default)?.id ?? v.instruments[0]?.id ?? NEW_CARD);
  const total = v.past_due.filter((i) => selected.has(i.invoice_id)).reduce((s, i) => s + i.open_cents, 0);
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setPicked(next);
    key.current = null;
  };
  const numberOf = new Map(v.past_due.map((i) => [i.invoice_id, i.invoice_number]));

  const collect = async () => {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      let instrumentId: number;
      if (chosen === NEW_CARD) {
        if (!gateway.data) throw new Error('The payment gateway is not available; try again in a minute.');
        const token = await tokenizeCard(gateway.data.tokenize_url, card);
        const added = await addCollectionCard(
          paymentPlanId,
          { kind: 'card', card_token: token.token, name_on_account: card.name },
          newIdempotencyKey(),
        );
        instrumentId = added.id;
        setMethod(String(added.id));
        setCard(EMPTY_CARD);
      } else {
        instrumentId = Number(chosen);
      }
      key.current ??= newIdempotencyKey();
      const out = await collectNow(
        { customer_id: v.customer_id, invoice_ids: [...selected], payment_instrument_id: instrumentId },
        key.current,
      );
      key.current = null;
      setResult(out);
      setPicked(null);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['payment-collection', paymentPlanId] }),
        refreshMoneyViews(queryClient),
      ]);
    } catch (e) {
      const d = describeError(e);
      setError(d.message);
      if (e && typeof e === 'object' && 'fields' in e)
        setFields({ ...(e as { fields: Record<string, string> }).fields });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" maw={900}>
      <Title order={1} size="h2">
        Collect payment — {v.customer_name}
      </Title>
      <Text>
        Plan {v.plan_name} (#{v.payment_plan_id}){v.store_name ? ` · store ${v.store_name}` : ''}
      </Text>
      {result && (
        <Alert
          color={result.invoices.every((i) => i.outcome === 'paid') ? 'green' : 'yellow'}
          title="Collection result"
        >
          <Table aria-label="Collection result">
            <Table.Tbody>
              {result.invoices.map((i) => (
                <Table.Tr key={i.invoice_id}>
                  <Table.Td>{i.invoice_number ?? numberOf.get(i.invoice_id) ?? i.invoice_id}</Table.Td>
                  <Table.Td>
                    {OUTCOME_TEXT[i.outcome]}
                    {i.reason ? ` — ${i.reason}` : ''}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {v.past_due.length === 0 ? (
        <Text>No past-due invoices.</Text>
      ) : (
        <Table aria-label="Past-due invoices" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Collect</Table.Th>
              <Table.Th scope="col">Invoice</Table.Th>
              <Table.Th scope="col">Issued</Table.Th>
              <Table.Th scope="col">Due</Table.Th>
              <Table.Th scope="col">Open amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {v.past_due.map((i) => (
              <Table.Tr key={i.invoice_id}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Collect ${i.invoice_number}`}
                    checked={selected.has(i.invoice_id)}
                    onChange={() => toggle(i.invoice_id)}
                  />
                </Table.Td>
                <Table.Td>{i.invoice_number}</Table.Td>
                <Table.Td>{formatDate(i.issued_on)}</Table.Td>
                <Table.Td>{formatDate(i.due_on)}</Table.Td>
                <Table.Td>{money(i.open_cents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row" colSpan={4}>
                Selected total
              </Table.Th>
              <Table.Td>
                <strong>{money(total)}</strong>
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      )}
      {v.past_due.length > 0 && (
        <>
          <NativeSelect
            label="Charge"
            value={chosen}
            onChange={(e) => {
              setMethod(e.currentTarget.value);
              key.current = null;
            }}
            data={[
              ...v.instruments.map((i) => ({
                value: String(i.id),
                label: `${i.description}${i.is_default ? ' (default)' : ''}`,
              })),
              { value: NEW_CARD, label: 'A new card' },
            ]}
            w={360}
          />
          {chosen === NEW_CARD && (
            <CardFields value={card} onChange={(patch) => setCard((c) => ({ ...c, ...patch }))} errors={fields} />
          )}
          <Button onClick={() => void collect()} loading={busy} disabled={selected.size === 0} w="fit-content">
            Collect now{selected.size > 0 ? ` (${money(total)})` : ''}
          </Button>
        </>
      )}
    </Stack>
  );
}
