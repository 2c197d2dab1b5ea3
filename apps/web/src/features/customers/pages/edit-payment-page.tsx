import { Alert, Button, Code, Group, NativeSelect, Paper, Radio, Stack, Table, Text, Title } from '@mantine/core';
import { describePaymentMethod, type PaymentInstrument } from '@pos/domain';
import { useState } from 'react';
import { formatDate } from '../../../lib/format';
import { useInstruments } from '../api/accounts-payment';
import { useTerminals } from '../api/accounts-terminals';
import { useSendPaymentUpdateLink } from '../api/actions';
import { BankForm, CardForm } from '../components/instrument-forms';
import { notifySuccess } from '../lib/notify';
import { EditPageFrame, type EditPageContext } from '../tabs/ui/edit-page-frame';

/**
 * #/editpayment?customer=…&store=… (customer_details_edit): the payment methods on file, a new card (tokenized
 * by the payment gateway from the browser — our API gets the token, never the number) or bank account (with a
 * check or ACH/CAD image), and the merchant's payment-update link (decision 067).
 */
export default function EditPaymentPage() {
  return (
    <EditPageFrame
      title="Edit payment method"
      intro="Add a card or a bank account for the store, or send the merchant a link to do it themselves."
    >
      {(context) => (
        <EditPayment key={`${context.customer.customer_id}:${context.store?.store_id ?? 0}`} {...context} />
      )}
    </EditPageFrame>
  );
}

function EditPayment({ customer, store, country }: EditPageContext) {
  const customerId = customer.customer_id;
  const storeId = store?.store_id ?? null;
  const [method, setMethod] = useState<'card' | 'bank'>('card');
  const [saved, setSaved] = useState<PaymentInstrument | null>(null);
  const onSaved = (instrument: PaymentInstrument) => {
    setSaved(instrument);
    notifySuccess(
      `${describePaymentMethod(instrument)} is saved${instrument.is_default ? ' as the default payment method' : ''}.`,
      'Payment method saved',
    );
  };

  return (
    <Stack gap="lg">
      <OnFile customerId={customerId} storeId={storeId} />
      {saved && (
        <Alert color="green" role="status" title="Saved">
          {describePaymentMethod(saved)}
          {saved.card && `, expires ${String(saved.card.exp_month).padStart(2, '0')}/${saved.card.exp_year}`}
          {saved.is_default && ' — now the default payment method'}
        </Alert>
      )}
      <Paper withBorder p="md" component="section" aria-labelledby="new-method-title">
        <Stack gap="md">
          <Title order={2} size="h4" id="new-method-title">
            New payment method
          </Title>
          <Radio.Group
            label="Payment method"
            value={method}
            onChange={(v) => setMethod(v === 'bank' ? 'bank' : 'card')}
          >
            <Group mt={4}>
              <Radio value="card" label="Card" />
              <Radio value="bank" label="Bank account" />
            </Group>
          </Radio.Group>
          {method === 'card' ? (
            <CardForm customerId={customerId} storeId={storeId} onSaved={onSaved} />
          ) : (
            <BankForm customerId={customerId} storeId={storeId} country={country} onSaved={onSaved} />
          )}
        </Stack>
      </Paper>
      {storeId !== null && <SendLink customerId={customerId} storeId={storeId} />}
    </Stack>
  );
}

function OnFile({ customerId, storeId }: { customerId: number; storeId: number | null }) {
  const list = useInstruments(customerId, { storeId });
  const items = list.data?.items ?? [];
  return (
    <section aria-label="Payment methods on file">
      <Table striped verticalSpacing="xs" fz="sm" captionSide="top">
        <Table.Caption>Payment methods on file</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Method</Table.Th>
            <Table.Th scope="col">Name on account</Table.Th>
            <Table.Th scope="col">Expires / type</Table.Th>
            <Table.Th scope="col">Default</Table.Th>
            <Table.Th scope="col">Added</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.isPending && (
            <Table.Tr>
              <Table.Td colSpan={5}>Loading…</Table.Td>
            </Table.Tr>
          )}
          {!list.isPending && items.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}>
                <Text c="dimmed" size="sm">
                  No payment method on file.
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {items.map((i) => (
            <Table.Tr key={i.id}>
              <Table.Th scope="row">{describePaymentMethod(i)}</Table.Th>
              <Table.Td>{i.name_on_account ?? '—'}</Table.Td>
              <Table.Td>
                {i.card
                  ? `${String(i.card.exp_month).padStart(2, '0')}/${i.card.exp_year}${i.card.expired ? ' (expired)' : ''}`
                  : i.bank
                    ? (i.bank.account_type ?? '—')
                    : '—'}
              </Table.Td>
              <Table.Td>{i.is_default ? 'Default' : '—'}</Table.Td>
              <Table.Td>{formatDate(i.created_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </section>
  );
}

function SendLink({ customerId, storeId }: { customerId: number; storeId: number }) {
  const terminals = useTerminals(customerId, { storeId, limit: 100, offset: 0, sort: 'elmer_id' });
  const live = (terminals.data?.items ?? []).filter((t) => t.status !== 'retired');
  const [chosen, setChosen] = useState('');
  const send = useSendPaymentUpdateLink();
  const elmerId = chosen || live[0]?.elmer_id || '';

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="send-link-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="send-link-title">
            Send the merchant a payment-update link
          </Title>
          <Text size="sm" c="dimmed">
            E-mails the store&apos;s contact a link to enter the payment method themselves (valid 7 days; an earlier
            link stops working).
          </Text>
        </div>
        {terminals.isSuccess && live.length === 0 ? (
          <Text size="sm">The link is sent for a terminal of the store, and this store has no terminal in use.</Text>
        ) : (
          <Group align="flex-end">
            <NativeSelect
              label="Terminal"
              data={live.map((t) => ({ value: t.elmer_id, label: `${t.elmer_id} (serial ${t.serial_number})` }))}
              value={elmerId}
              onChange={(e) => setChosen(e.currentTarget.value)}
              w={280}
            />
            <Button
              variant="default"
              loading={send.isPending}
              disabled={!elmerId}
              onClick={() => send.mutate({ elmer_id: elmerId })}
            >
              Send payment-update link
            </Button>
          </Group>
        )}
        {send.isSuccess && (
          <Text role="status" size="sm">
            Queued as job <Code>{send.data.jobId}</Code>: the merchant receives the e-mail shortly.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
