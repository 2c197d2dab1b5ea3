import { Fieldset, NativeSelect, Stack, Text } from '@mantine/core';
import {
  describeOrderPaymentMethod,
  PAYMENT_METHOD_TYPE_IDS,
  paymentMethodCodeFor,
  paymentMethodKindOf,
  type OrderDocument,
  type PaymentMethodKind,
} from '@pos/domain';
import {
  BankAccountFields,
  CardFields,
  type BankAccountInput,
  type FieldErrors,
} from '../../../components/payment-method-fields';
import type { CardInput } from '../../../lib/gateway';

export type MethodEntry = NonNullable<OrderDocument['PaymentInstrumentInfo']>[number];

/** Where each bank-account field lives in the order document's method entry. */
const BANK_ENTRY_FIELD = {
  name: 'nameOnAccount',
  bankName: 'achBankName',
  routing: 'achRoutingNumber',
  institution: 'achInstitutionNumber',
  account: 'achAccountNumber',
  accountType: 'achAccountType',
} as const satisfies Partial<Record<keyof BankAccountInput, keyof MethodEntry>>;

const str = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/**
 * The payment method of one plan: card (tokenized by the gateway on save), bank account — ACH for a US merchant,
 * transit + institution for a Canadian one —, or cash. `legend` names the group ("Hardware payment method"). The
 * name on the card is kept in the entry; the card itself (`card`) only in the page until the gateway tokenizes it.
 * `errors` are keyed by the entry's fields (achRoutingNumber…) and the gateway's (number, exp_month…).
 */
export function PaymentMethodFields(props: {
  readonly legend: string;
  readonly country: 'US' | 'CA';
  readonly entry: MethodEntry | undefined;
  readonly onChange: (next: MethodEntry) => void;
  readonly card: CardInput;
  readonly onCard: (next: CardInput) => void;
  readonly errors?: Readonly<Record<string, string>>;
}) {
  const { entry, country } = props;
  const kind = paymentMethodKindOf(entry?.paymentMethodTypeId);
  const e = props.errors ?? {};
  const set = (patch: Partial<MethodEntry>) => props.onChange({ ...(entry ?? {}), ...patch } as MethodEntry);
  const onFile = describeOrderPaymentMethod(entry);
  const account = str(entry?.achAccountNumber);
  const masked = account.startsWith('*');

  const bank: BankAccountInput = {
    name: str(entry?.nameOnAccount),
    bankId: '',
    bankName: str(entry?.achBankName),
    routing: str(entry?.achRoutingNumber),
    institution: str(entry?.achInstitutionNumber),
    account: masked ? '' : account,
    accountType: entry?.achAccountType === 'savings' ? 'savings' : 'checking',
  };
  const bankErrors: FieldErrors = {
    name_on_account: e.nameOnAccount,
    bank_name: e.achBankName,
    routing_number: e.achRoutingNumber,
    institution_number: e.achInstitutionNumber,
    account_number: e.achAccountNumber,
    account_type: e.achAccountType,
  };
  const changeBank = (patch: Partial<BankAccountInput>) => {
    const next: Partial<Record<keyof MethodEntry, string>> = {};
    for (const [key, field] of Object.entries(BANK_ENTRY_FIELD)) {
      const value = patch[key as keyof typeof BANK_ENTRY_FIELD];
      if (value !== undefined) next[field] = value;
    }
    set(next);
  };
  const changeCard = ({ name, ...rest }: Partial<CardInput>) => {
    if (name !== undefined) set({ nameOnAccount: name });
    if (Object.keys(rest).length > 0) props.onCard({ ...props.card, ...rest });
  };

  return (
    <Fieldset legend={props.legend}>
      <Stack gap="sm">
        <NativeSelect
          label="Payment method"
          value={kind ?? ''}
          error={e.paymentMethodTypeId}
          onChange={(x) => {
            const k = (x.currentTarget.value || null) as PaymentMethodKind | null;
            set({
              paymentMethodTypeId: k ? PAYMENT_METHOD_TYPE_IDS[k] : null,
              paymentMethodCode: k ? paymentMethodCodeFor(k, country) : null,
            });
          }}
          data={[
            { value: '', label: 'Choose a payment method' },
            { value: 'card', label: 'Credit or debit card' },
            { value: 'bank', label: country === 'CA' ? 'Canadian bank account (CAD)' : 'Bank account (ACH)' },
            { value: 'cash', label: 'Cash or check' },
          ]}
          w={320}
        />
        {onFile && <Text size="sm">On file: {onFile}</Text>}
        {kind === 'card' && (
          <CardFields
            value={{ ...props.card, name: str(entry?.nameOnAccount) }}
            onChange={changeCard}
            errors={{ ...e, name_on_account: e.nameOnAccount ?? e.name }}
          />
        )}
        {kind === 'bank' && (
          <BankAccountFields
            value={bank}
            onChange={changeBank}
            country={country}
            errors={bankErrors}
            accountOnFile={masked ? account : null}
          />
        )}
      </Stack>
    </Fieldset>
  );
}
