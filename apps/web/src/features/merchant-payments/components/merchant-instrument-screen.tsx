import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import type { MerchantPaymentResult } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { LinkProblem, linkProblemText } from '../../../components/link-problem';
import { Spinner } from '../../../components/spinner';
import { isApiError } from '../../../lib/api';
import { newIdempotencyKey } from '../../../lib/idempotency';
import { getMerchantPaymentQueryOptions, payThroughLink } from '../api/merchant-payments';
import { EMPTY_NEW_METHOD, NewMethodFields, newMethodRequest, submitErrors, type NewMethod } from './new-method-fields';
import { OwedTable } from './owed-table';

/**
 * The merchant's page of a payment-method link (public, no sign-in; decision 118): a new card or bank account is
 * stored and the failed payments are retried with it right away — which the page says before the merchant saves.
 */
export function MerchantInstrumentScreen() {
  const tok = useParams().tok ?? '';
  const view = useQuery(getMerchantPaymentQueryOptions('payment_instrument', tok));
  const [method, setMethod] = useState<NewMethod>(EMPTY_NEW_METHOD);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<MerchantPaymentResult | null>(null);
  // One key per attempt: a retried submit (same form) is answered once; a changed form gets a new key.
  const key = useRef<string | null>(null);

  if (view.isPending) return <Spinner busy />;
  if (view.isError) {
    return (
      <LinkProblem heading="Your payment method" announce>
        {linkProblemText(view.error)}
      </LinkProblem>
    );
  }
  const v = view.data;

  if (result) {
    return (
      <Stack gap="md" maw={720}>
        <Title order={1} size="h2">
          Payment method saved
        </Title>
        <Text>
          {v.store_name}: {result.method} is now your payment method.
        </Text>
        <Text>
          {result.retries_queued > 0
            ? `We will retry ${result.retries_queued} unpaid invoice${result.retries_queued === 1 ? '' : 's'} with it now.`
            : 'It will be used for your next invoices.'}
        </Text>
      </Stack>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      key.current ??= newIdempotencyKey();
      setResult(await payThroughLink('payment_instrument', tok, await newMethodRequest(method, v, true), key.current));
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
        {`Update your payment method — ${v.store_name}`}
      </Title>
      {v.current_method && <Text>On file: {v.current_method}</Text>}
      <OwedTable view={v} />
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
          <NewMethodFields value={method} onChange={setMethod} currency={v.currency} errors={errors} />
          {v.total_owed_cents > 0 && (
            <Text size="sm">Saving it also retries your failed payments with it right away.</Text>
          )}
          <Button type="submit" loading={busy} w="fit-content">
            Save payment method
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
