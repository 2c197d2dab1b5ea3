import { Alert, Button, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import type { MerchantPaymentResult } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import {
  BankAccountFields,
  CardFields,
  EMPTY_BANK_ACCOUNT,
  type BankAccountInput,
} from '../../../components/payment-method-fields';
import { Spinner } from '../../../components/spinner';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate } from '../../../lib/format';
import { EMPTY_CARD, tokenizeCard, type CardInput } from '../../../lib/gateway';
import { newIdempotencyKey } from '../../../lib/idempotency';
import { getMerchantPaymentQueryOptions, payThroughLink, type MerchantPurpose } from '../api/merchant-payments';
import { LinkProblem } from '../../../components/link-problem';

/** A failed submit: field messages, or one message under '_' (a dead link says so, with how to get a new one). */
function submitErrors(error: unknown): Record<string, string> {
  if (isApiError(error) && error.status !== 410 && Object.keys(error.fields).length > 0) return { ...error.fields };
  return { _: describeError(error).message };
}

const OUTCOME_TEXT = { paid: 'Paid', failed: 'Declined', pending: 'Processing', skipped: 'Not charged' } as const;

/**
 * The merchant's page of a payment link (public, no sign-in): what the store owes and a new card or bank account.
 * 'payment_update': paying charges every open invoice with the new method; 'payment_instrument': the method is
 * only stored and the failed invoices are retried right away. The card number goes to the gateway from this page.
 */
export function MerchantPaymentScreen({ purpose }: { readonly purpose: MerchantPurpose }) {
  const tok = useParams().tok ?? '';
  const view = useQuery(getMerchantPaymentQueryOptions(purpose, tok));
  const [kind, setKind] = useState<'card' | 'bank'>('card');
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  const [bank, setBank] = useState<BankAccountInput>(EMPTY_BANK_ACCOUNT);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<MerchantPaymentResult | null>(null);
  // One key per attempt: a retried submit (same form) is answered once; a changed form gets a new key.
  const key = useRef<string | null>(null);

  if (view.isPending) return <Spinner busy />;
  if (view.isError) {
    return (
      <LinkProblem heading="Your payment method" announce>
        {describeError(view.error).message}
      </LinkProblem>
    );
  }
  const v = view.data;
  const money = (cents: number) => formatCents(cents, v.currency);

  if (result) {
    const failed = result.invoices.filter((i) => i.outcome !== 'paid');
    return (
      <Stack gap="md" maw={720}>
        <Title order={1} size="h2">
          {purpose === 'payment_update' ? 'Thank you' : 'Payment method saved'}
        </Title>
        <Text>
          {v.store_name}: {result.method} is now your payment method.
        </Text>
        {purpose === 'payment_update' ? (
          <>
            <Text>
              Paid now: <strong>{money(result.paid_cents)}</strong>
            </Text>
            {result.invoices.length > 0 && (
              <Table aria-label="Payment result" withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Invoice</Table.Th>
                    <Table.Th scope="col">Amount</Table.Th>
                    <Table.Th scope="col">Result</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.invoices.map((i) => (
                    <Table.Tr key={i.invoice_number}>
                      <Table.Td>{i.invoice_number}</Table.Td>
                      <Table.Td>{money(i.amount_cents)}</Table.Td>
                      <Table.Td>
                        {OUTCOME_TEXT[i.outcome]}
                        {i.outcome === 'paid' ? '' : ` — ${i.message}`}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            {failed.length > 0 &&
              (result.link_used ? (
                <Alert color="yellow">Some invoices are not paid yet; our billing team will contact you.</Alert>
              ) : (
                <Alert color="yellow">
                  <Stack gap="xs" align="flex-start">
                    <Text size="sm">Nothing was taken this time: you can try again with this link.</Text>
                    <Button
                      variant="light"
                      onClick={() => {
                        // A new try is a new request (the last one's answer is kept under its key).
                        key.current = null;
                        setResult(null);
                        void view.refetch();
                      }}
                    >
                      Try again
                    </Button>
                  </Stack>
                </Alert>
              ))}
          </>
        ) : (
          <Text>
            {result.retries_queued > 0
              ? `We will retry ${result.retries_queued} unpaid invoice${result.retries_queued === 1 ? '' : 's'} with it now.`
              : 'It will be used for your next invoices.'}
          </Text>
        )}
      </Stack>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      key.current ??= newIdempotencyKey();
      const body =
        kind === 'card'
          ? {
              kind: 'card' as const,
              card_token: (await tokenizeCard(v.tokenize_url, card)).token,
              name_on_account: card.name,
              make_default: true,
            }
          : {
              kind: 'bank' as const,
              name_on_account: bank.name,
              routing_number: bank.routing,
              institution_number: v.currency === 'CAD' ? bank.institution : undefined,
              account_number: bank.account,
              account_type: bank.accountType,
              bank_name: bank.bankName,
              make_default: true,
            };
      setResult(await payThroughLink(purpose, tok, body, key.current));
    } catch (error) {
      setErrors(submitErrors(error));
      if (!(isApiError(error) && error.status >= 500)) key.current = null;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" maw={720}>
      <Title order={1} size="h2">
        {purpose === 'payment_update'
          ? `Pay your balance — ${v.store_name}`
          : `Update your payment method — ${v.store_name}`}
      </Title>
      {v.current_method && <Text>On file: {v.current_method}</Text>}
      {v.invoices.length === 0 ? (
        <Text>Nothing is owed right now.</Text>
      ) : (
        <Table aria-label="What you owe" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Invoice</Table.Th>
              <Table.Th scope="col">Issued</Table.Th>
              <Table.Th scope="col">Due</Table.Th>
              <Table.Th scope="col">Open amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {v.invoices.map((i) => (
              <Table.Tr key={i.invoice_number}>
                <Table.Td>{i.invoice_number}</Table.Td>
                <Table.Td>{formatDate(i.issued_on)}</Table.Td>
                <Table.Td>{formatDate(i.due_on)}</Table.Td>
                <Table.Td>{money(i.open_cents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row" colSpan={3}>
                Total owed
              </Table.Th>
              <Table.Td>
                <strong>{money(v.total_owed_cents)}</strong>
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      )}
      <form
        onSubmit={(e) => void submit(e)}
        onChange={() => (key.current = null)}
        aria-label="Payment method"
        noValidate
      >
        <Stack gap="sm">
          {errors._ && (
            <Alert color="red" role="alert">
              {errors._}
            </Alert>
          )}
          <NativeSelect
            label="Pay by"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as 'card' | 'bank')}
            data={[
              { value: 'card', label: 'Card' },
              { value: 'bank', label: v.currency === 'CAD' ? 'Canadian bank account' : 'Bank account (ACH)' },
            ]}
            w={260}
          />
          {kind === 'card' ? (
            <CardFields value={card} onChange={(patch) => setCard((c) => ({ ...c, ...patch }))} errors={errors} />
          ) : (
            <BankAccountFields
              value={bank}
              onChange={(patch) => setBank((b) => ({ ...b, ...patch }))}
              country={v.currency === 'CAD' ? 'CA' : 'US'}
              errors={errors}
            />
          )}
          <Button type="submit" loading={busy} w="fit-content">
            {purpose === 'payment_update' && v.total_owed_cents > 0
              ? `Pay ${money(v.total_owed_cents)}`
              : 'Save payment method'}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
