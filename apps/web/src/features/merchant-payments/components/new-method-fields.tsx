import { NativeSelect, Stack } from '@mantine/core';
import type { MerchantPaymentRequest, MerchantPaymentView } from '@pos/domain';
import {
  BankAccountFields,
  CardFields,
  EMPTY_BANK_ACCOUNT,
  type BankAccountInput,
  type FieldErrors,
} from '../../../components/payment-method-fields';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { EMPTY_CARD, tokenizeCard, type CardInput } from '../../../lib/gateway';

/** A new card or bank account as the merchant's page holds it until it is sent (the card number never is). */
export interface NewMethod {
  readonly kind: 'card' | 'bank';
  readonly card: CardInput;
  readonly bank: BankAccountInput;
}
export const EMPTY_NEW_METHOD: NewMethod = { kind: 'card', card: EMPTY_CARD, bank: EMPTY_BANK_ACCOUNT };

/** A card (number, expiry, code — sent to the gateway only) or a bank account, chosen by the merchant. */
export function NewMethodFields({
  value,
  onChange,
  currency,
  errors,
}: {
  readonly value: NewMethod;
  readonly onChange: (next: NewMethod) => void;
  readonly currency: MerchantPaymentView['currency'];
  readonly errors: FieldErrors;
}) {
  return (
    <Stack gap="sm">
      <NativeSelect
        label="Card or bank account"
        value={value.kind}
        onChange={(e) => onChange({ ...value, kind: e.currentTarget.value === 'bank' ? 'bank' : 'card' })}
        data={[
          { value: 'card', label: 'Card' },
          { value: 'bank', label: currency === 'CAD' ? 'Canadian bank account' : 'Bank account (ACH)' },
        ]}
        maw={260}
      />
      {value.kind === 'card' ? (
        <CardFields
          value={value.card}
          onChange={(patch) => onChange({ ...value, card: { ...value.card, ...patch } })}
          errors={errors}
        />
      ) : (
        <BankAccountFields
          value={value.bank}
          onChange={(patch) => onChange({ ...value, bank: { ...value.bank, ...patch } })}
          country={currency === 'CAD' ? 'CA' : 'US'}
          errors={errors}
        />
      )}
    </Stack>
  );
}

/** The request for a new method: a card is tokenized at the gateway first (our API gets the token only). */
export async function newMethodRequest(
  method: NewMethod,
  view: MerchantPaymentView,
  makeDefault: boolean,
): Promise<MerchantPaymentRequest> {
  if (method.kind === 'card')
    return {
      kind: 'card',
      card_token: (await tokenizeCard(view.tokenize_url, method.card)).token,
      name_on_account: method.card.name,
      make_default: makeDefault,
    };
  const bank = method.bank;
  return {
    kind: 'bank',
    name_on_account: bank.name,
    routing_number: bank.routing,
    institution_number: view.currency === 'CAD' ? bank.institution : undefined,
    account_number: bank.account,
    account_type: bank.accountType,
    bank_name: bank.bankName,
    make_default: makeDefault,
  };
}

/** A failed submit: field messages, or one message under '_' (a dead link says so, with how to get a new one). */
export function submitErrors(error: unknown): Record<string, string> {
  if (isApiError(error) && error.status !== 410 && Object.keys(error.fields).length > 0) return { ...error.fields };
  return { _: describeError(error).message };
}
