import { Alert, Button, Checkbox, NativeSelect, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/error-message';
import { tokenizeCard } from '../../../lib/gateway';
import { usePageCountry } from '../../../lib/header-state';
import { CONFIRMATION_KEY, getReauthorize, reauthorize } from '../api/contracts';
import { DEAD_LINK_MESSAGE, isDeadLink, submitErrors } from '../lib/link-errors';

/**
 * #/contract/reauthorize/{tok} (public): the merchant confirms the payment method of an order — a card (tokenized by
 * the gateway from this page; the number never reaches our API) or a bank account — and authorizes the payments.
 */
export default function ContractReauthorizePage() {
  const tok = useParams().tok ?? '';
  const navigate = useNavigate();
  const view = useQuery({
    queryKey: ['reauthorize', tok],
    queryFn: ({ signal }) => getReauthorize(tok, signal),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  const [kind, setKind] = useState<'card' | 'bank'>('card');
  const [f, setF] = useState({
    name: '',
    number: '',
    expMonth: '',
    expYear: '',
    cvc: '',
    routing: '',
    institution: '',
    account: '',
    accountType: 'checking',
    bank: '',
  });
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  usePageCountry(view.data?.country);

  if (view.isPending) return <Spinner busy />;
  if (view.isError) {
    return (
      <Alert color="red" title="This link does not work" maw={640}>
        {isDeadLink(view.error) ? DEAD_LINK_MESSAGE : describeError(view.error).message}
      </Alert>
    );
  }
  const v = view.data;
  const ca = v.country === 'CA';
  const input = (label: string, key: keyof typeof f, error?: string) => (
    <TextInput
      label={label}
      value={f[key]}
      onChange={(e) => setF({ ...f, [key]: e.currentTarget.value })}
      error={error}
    />
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!consent) return setErrors({ consent: 'Tick the box to authorize the payments.' });
    setBusy(true);
    setErrors({});
    try {
      let result;
      if (kind === 'card') {
        const token = await tokenizeCard(v.tokenize_url, {
          number: f.number,
          exp_month: f.expMonth,
          exp_year: f.expYear,
          cvc: f.cvc,
          name: f.name,
        });
        result = await reauthorize(tok, {
          kind: 'card',
          card_token: token.token,
          name_on_account: f.name,
          consent: true,
        });
      } else {
        result = await reauthorize(tok, {
          kind: 'bank',
          name_on_account: f.name,
          routing_number: f.routing,
          institution_number: ca ? f.institution : undefined,
          account_number: f.account,
          account_type: f.accountType as 'checking' | 'savings',
          bank_name: f.bank,
          consent: true,
        });
      }
      sessionStorage.setItem(
        CONFIRMATION_KEY,
        JSON.stringify({
          reference: v.unified_order_id,
          signer: f.name,
          at: result.authorized_at,
          method: result.method,
        }),
      );
      void navigate('/confirmation');
    } catch (error) {
      setErrors(submitErrors(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" maw={720}>
      <Title order={1} size="h2">
        Confirm the payment method — order {v.unified_order_id}
      </Title>
      <Text>
        {v.merchant_name} · {v.store_name}
        {v.current_method ? ` · on file: ${v.current_method}` : ''}
      </Text>
      <form onSubmit={(e) => void submit(e)} aria-label="Payment method" noValidate>
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
              { value: 'bank', label: ca ? 'Canadian bank account' : 'Bank account (ACH)' },
            ]}
            w={260}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {input(kind === 'card' ? 'Name on card' : 'Name on account', 'name', errors.name_on_account)}
            {kind === 'card' ? (
              <>
                {input('Card number', 'number', errors.number)}
                {input('Expiry month', 'expMonth', errors.exp_month)}
                {input('Expiry year', 'expYear', errors.exp_year)}
                {input('Security code', 'cvc', errors.cvc)}
              </>
            ) : (
              <>
                {input('Bank name', 'bank', errors.bank_name)}
                {input(ca ? 'Transit number' : 'Routing number', 'routing', errors.routing_number)}
                {ca && input('Institution number', 'institution', errors.institution_number)}
                {input('Account number', 'account', errors.account_number)}
                <NativeSelect
                  label="Account type"
                  value={f.accountType}
                  onChange={(e) => setF({ ...f, accountType: e.currentTarget.value })}
                  data={[
                    { value: 'checking', label: 'Checking' },
                    { value: 'savings', label: 'Savings' },
                  ]}
                />
              </>
            )}
          </SimpleGrid>
          <Checkbox
            label="I authorize these payments for my order."
            checked={consent}
            onChange={(e) => setConsent(e.currentTarget.checked)}
            error={errors.consent}
          />
          <Button type="submit" loading={busy} w="fit-content">
            Confirm payment method
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
