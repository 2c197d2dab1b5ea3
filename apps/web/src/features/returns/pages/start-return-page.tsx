import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  Radio,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { returnBreakdown, type ReturnEligibleSale } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate } from '../../../lib/format';
import { getEligibleQueryOptions, useCreateReturn, type EligibleQuery } from '../api/returns';

const idOf = (v: string | null) => (v && /^[1-9]\d{0,9}$/.test(v) ? Number(v) : undefined);

function saleLabel(s: ReturnEligibleSale): string {
  return `${s.doing_business_as ?? s.legal_name} — ${s.invoice_number} of ${formatDate(s.issued_on)}`;
}

/** The return form of one hardware sale: terminals, reason, fee waiver, and the money it would come to. */
function ReturnForm({ sale, windowDays }: { sale: ReturnEligibleSale; windowDays: number }) {
  const navigate = useNavigate();
  const [picked, setPicked] = useState<ReadonlySet<number>>(new Set());
  const [reason, setReason] = useState('');
  const [waive, setWaive] = useState(false);
  const [waiveReason, setWaiveReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'terminals' | 'reason' | 'waive', string>>>({});
  const money = (cents: number) => formatCents(cents, sale.currency);

  const units = sale.terminals.filter((t) => picked.has(t.terminal_id)).map((t) => t.unit_cents);
  const preview = returnBreakdown({
    unit_cents: units,
    fee_waived: waive,
    open_cents: sale.open_cents,
    paid_cents: sale.paid_cents,
  });

  const create = useCreateReturn();
  function request() {
    create.mutate(
      {
        store_id: sale.store_id,
        order_id: sale.order_id,
        terminal_ids: [...picked],
        reason: reason.trim(),
        waive_fee: waive,
        fee_waived_reason: waive ? waiveReason.trim() : null,
      },
      {
        onSuccess: (r) => {
          notifications.show({
            color: 'green',
            title: `Return #${r.id} requested`,
            message: `${r.terminal_count === 1 ? 'One terminal' : `${r.terminal_count} terminals`} of ${r.doing_business_as ?? r.legal_name}. Mark it received when the hardware arrives.`,
            autoClose: 8000,
          });
          void navigate(`/viewreturns?id=${r.id}`);
        },
        onError: (error) => {
          const { title, message } = describeError(error);
          notifications.show({
            color: 'red',
            title: `The return was not requested — ${title}`,
            message: `${message} Check the terminals and the reason, then request it again.`,
            autoClose: 10_000,
          });
        },
      },
    );
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const found: typeof errors = {};
    if (picked.size === 0) found.terminals = 'Tick at least one terminal coming back.';
    if (!reason.trim()) found.reason = 'Say why the terminals come back.';
    if (waive && !waiveReason.trim()) found.waive = 'Say why the restocking fee is waived.';
    setErrors(found);
    if (Object.keys(found).length === 0) request();
  }

  return (
    <form onSubmit={submit} aria-label={`Return from ${saleLabel(sale)}`}>
      <Stack gap="sm">
        <Text size="sm">
          {sale.legal_name} (customer {sale.customer_id}) · invoice total {money(sale.total_cents)}, paid{' '}
          {money(sale.paid_cents)}, open {money(sale.open_cents)}
          {sale.card_refundable ? ' · paid by card' : ''} · returnable until {formatDate(sale.returnable_until)} (
          {windowDays} days)
        </Text>
        <Checkbox.Group
          label="Terminals coming back"
          error={errors.terminals}
          value={[...picked].map(String)}
          onChange={(v) => setPicked(new Set(v.map(Number)))}
        >
          <Stack gap={4} mt="xs">
            {sale.terminals.length === 0 && <Text size="sm">No active terminal at this store.</Text>}
            {sale.terminals.map((t) => (
              <Checkbox
                key={t.terminal_id}
                value={String(t.terminal_id)}
                disabled={t.blocked_reason !== null}
                label={`Terminal ${t.elmer_id} (serial ${t.serial_number}) — ${money(t.unit_cents)}`}
                description={t.blocked_reason ?? t.product_name ?? undefined}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Textarea
          label="Why are they coming back?"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={errors.reason}
          minRows={2}
          maw={560}
        />
        <Checkbox
          label="Waive the restocking fee"
          checked={waive}
          onChange={(e) => setWaive(e.currentTarget.checked)}
        />
        {waive && (
          <TextInput
            label="Why is the restocking fee waived?"
            value={waiveReason}
            onChange={(e) => setWaiveReason(e.currentTarget.value)}
            error={errors.waive}
            maw={560}
          />
        )}
        <Table aria-label="Refund preview" withTableBorder maw={560} fz="sm">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th scope="row">Terminals ({units.length})</Table.Th>
              <Table.Td ta="right">{money(preview.value_cents)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{waive ? 'Restocking fee (waived)' : 'Restocking fee'}</Table.Th>
              <Table.Td ta="right">− {money(preview.fee_cents)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Credit to the invoice</Table.Th>
              <Table.Td ta="right">{money(preview.credit_cents)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">
                Refund to the merchant {sale.card_refundable ? '(to the card)' : '(by check)'}
              </Table.Th>
              <Table.Td ta="right">{money(preview.refund_cents)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Group>
          <Button type="submit" loading={create.isPending}>
            Request return
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * #/returns-refund (decision 122): start a return. Find the hardware sale (recent sales inside the return window,
 * by merchant or DBA, or the store/customer in the address: ?storeid= / ?customerid=), tick the terminals, say why,
 * waive the restocking fee with a reason if need be; the preview shows terminals − fee = credit and the refund.
 */
export default function StartReturnPage() {
  const [searchParams] = useSearchParams();
  const fromAddress: EligibleQuery = {
    storeId: idOf(searchParams.get('storeid')),
    customerId: idOf(searchParams.get('customerid')),
  };
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string | null>(null);
  const [query, setQuery] = useState<EligibleQuery>(fromAddress);
  const [chosen, setChosen] = useState<string | null>(null);
  const eligible = useQuery(getEligibleQueryOptions(query));
  const sales = eligible.data?.sales ?? [];
  const sale = sales.find((s) => String(s.invoice_id) === chosen) ?? (sales.length === 1 ? sales[0] : undefined);

  function search(e: FormEvent) {
    e.preventDefault();
    const q = text.trim();
    if (q !== '' && q.length < 2) {
      setTextError('Type at least 2 characters.');
      return;
    }
    setTextError(null);
    setChosen(null);
    setQuery(q === '' ? fromAddress : { ...fromAddress, q });
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Start a return
      </Title>
      <Text size="sm">
        Terminals may come back within {eligible.data?.window_days ?? 30} days of their hardware invoice. A restocking
        fee of {formatCents(eligible.data?.restocking_fee_cents ?? 25_000, 'USD')} applies unless it is waived with a
        reason.
      </Text>
      <form onSubmit={search} aria-label="Find the hardware sale">
        <Group align="flex-start" gap="sm">
          <TextInput
            label="Merchant or DBA"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={textError}
            w={280}
          />
          <Button type="submit" mt={24}>
            Find sales
          </Button>
        </Group>
      </form>
      {eligible.isError && (
        <Alert color="red" title={describeError(eligible.error).title}>
          {describeError(eligible.error).message}
        </Alert>
      )}
      {eligible.isPending ? (
        <Text>Loading the recent hardware sales…</Text>
      ) : sales.length === 0 ? (
        <Text>No hardware sale inside the return window matches. Search by another name.</Text>
      ) : (
        <Radio.Group
          label="Hardware sale inside the return window"
          value={sale ? String(sale.invoice_id) : null}
          onChange={setChosen}
        >
          <Stack gap={4} mt="xs">
            {sales.map((s) => (
              <Radio
                key={s.invoice_id}
                value={String(s.invoice_id)}
                label={saleLabel(s)}
                description={`${s.terminals.length} active ${s.terminals.length === 1 ? 'terminal' : 'terminals'} · ${formatCents(s.total_cents, s.currency)}`}
              />
            ))}
          </Stack>
        </Radio.Group>
      )}
      {sale && (
        <Card withBorder>
          <ReturnForm key={sale.invoice_id} sale={sale} windowDays={eligible.data?.window_days ?? 30} />
        </Card>
      )}
    </Stack>
  );
}
