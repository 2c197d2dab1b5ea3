import { Alert, Button, Checkbox, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  BankAccountFields,
  CardFields,
  EMPTY_BANK_ACCOUNT,
  type BankAccountInput,
} from '../../../components/payment-method-fields';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/error-message';
import { EMPTY_CARD, tokenizeCard, type CardInput } from '../../../lib/gateway';
import { usePageCountry } from '../../../lib/header-state';
import { CONFIRMATION_KEY, getReauthorizeQueryOptions, reauthorize } from '../api/contracts';
import { DEAD_LINK_MESSAGE, isDeadLink, submitErrors } from '../lib/link-errors';
import { LinkProblem } from '../../../components/link-problem';

/**
 * #/contract/reauthorize/{tok} (public): the merchant confirms the payment method of an order — a card (tokenized by
 * the gateway from this page; the number never reaches our API) or a bank account — and authorizes the payments.
 */
export default function ContractReauthorizePage() {
  const tok = useParams().tok ?? '';
  const navigate = useNavigate();
  const view = useQuery(getReauthorizeQueryOptions(tok));
  const [kind, setKind] = useState<'card' | 'bank'>('card');
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  const [bank, setBank] = useState<BankAccountInput>(EMPTY_BANK_ACCOUNT);
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  usePageCountry(view.data?.country);

  if (view.isPending) return <Spinner busy />;
  if (view.isError) {
    return (
      <LinkProblem heading="Confirm the payment method">
        {isDeadLink(view.error) ? DEAD_LINK_MESSAGE : describeError(view.error).message}
      </LinkProblem>
    );
  }
  const v = view.data;
  const ca = v.country === 'CA';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!consent) return setErrors({ consent: 'Tick the box to authorize the payments.' });
    setBusy(true);
    setErrors({});
    try {
      let result;
      if (kind === 'card') {
        const token = await tokenizeCard(v.tokenize_url, card);
        result = await reauthorize(tok, {
          kind: 'card',
          card_token: token.token,
          name_on_account: card.name,
          consent: true,
        });
      } else {
        result = await reauthorize(tok, {
          kind: 'bank',
          name_on_account: bank.name,
          routing_number: bank.routing,
          institution_number: ca ? bank.institution : undefined,
          account_number: bank.account,
          account_type: bank.accountType,
          bank_name: bank.bankName,
          consent: true,
        });
      }
      sessionStorage.setItem(
        CONFIRMATION_KEY,
        JSON.stringify({
          reference: v.unified_order_id,
          signer: kind === 'card' ? card.name : bank.name,
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
          {kind === 'card' ? (
            <CardFields value={card} onChange={(patch) => setCard((c) => ({ ...c, ...patch }))} errors={errors} />
          ) : (
            <BankAccountFields
              value={bank}
              onChange={(patch) => setBank((b) => ({ ...b, ...patch }))}
              country={ca ? 'CA' : 'US'}
              errors={errors}
            />
          )}
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
