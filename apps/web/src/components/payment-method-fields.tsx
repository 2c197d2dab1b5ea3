import { Group, NativeSelect, Radio, SimpleGrid, TextInput } from '@mantine/core';
import { BANK_ACCOUNT_TYPES, type BankListItem, type MerchantCountryCode } from '@pos/domain';
import type { ChangeEvent } from 'react';
import type { CardInput } from '../lib/gateway';

/*
 * Card and bank-account entry (decision 105), the same on the edit-payment page, the order flow's payment steps
 * and the merchant's re-authorization page. Controlled: `value` in, a patch of what changed out. Errors are keyed
 * by the API's field names — the gateway's (number, exp_month, exp_year, cvc, name) and the bank account's
 * (name_on_account, bank_name, routing_number, institution_number, account_number, account_type).
 */

export type FieldErrors = Readonly<Record<string, string | undefined>>;

/**
 * A card: name, number, expiry and security code. The number goes to the payment gateway only (lib/gateway.ts
 * tokenizeCard); our API gets the token.
 */
export function CardFields({
  value,
  onChange,
  errors = {},
  disabled,
}: {
  readonly value: CardInput;
  readonly onChange: (patch: Partial<CardInput>) => void;
  readonly errors?: FieldErrors;
  readonly disabled?: boolean;
}) {
  const field = (key: keyof CardInput) => ({
    value: value[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => onChange({ [key]: e.currentTarget.value }),
    disabled,
    required: true,
  });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextInput
        label="Name on card"
        autoComplete="cc-name"
        error={errors.name_on_account ?? errors.name}
        {...field('name')}
      />
      <TextInput
        label="Card number"
        autoComplete="cc-number"
        inputMode="numeric"
        error={errors.number}
        {...field('number')}
      />
      <TextInput
        label="Expiry month"
        autoComplete="cc-exp-month"
        inputMode="numeric"
        placeholder="MM"
        maxLength={2}
        error={errors.exp_month}
        {...field('expMonth')}
      />
      <TextInput
        label="Expiry year"
        autoComplete="cc-exp-year"
        inputMode="numeric"
        placeholder="YYYY"
        maxLength={4}
        error={errors.exp_year}
        {...field('expYear')}
      />
      <TextInput
        label="Security code"
        autoComplete="cc-csc"
        inputMode="numeric"
        maxLength={4}
        error={errors.cvc}
        {...field('cvc')}
      />
    </SimpleGrid>
  );
}

export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

export interface BankAccountInput {
  readonly name: string;
  /** The bank chosen from the list (when the form offers one), else ''. */
  readonly bankId: string;
  readonly bankName: string;
  /** US: the 9-digit ABA routing number; Canada: the 5-digit transit number. */
  readonly routing: string;
  /** Canada only: the 3-digit institution number. */
  readonly institution: string;
  readonly account: string;
  readonly accountType: BankAccountType;
}

export const EMPTY_BANK_ACCOUNT: BankAccountInput = {
  name: '',
  bankId: '',
  bankName: '',
  routing: '',
  institution: '',
  account: '',
  accountType: 'checking',
};

/**
 * A bank account: ACH for a US merchant (routing number), transit and institution numbers for a Canadian one.
 * With `banks`, the bank is chosen from the list and fills in its routing (or institution) number; without, its
 * name is typed. `accountOnFile` ('****6789') shows that an account number is kept and need not be typed again.
 */
export function BankAccountFields({
  value,
  onChange,
  country,
  errors = {},
  banks,
  banksLoading = false,
  accountOnFile,
}: {
  readonly value: BankAccountInput;
  readonly onChange: (patch: Partial<BankAccountInput>) => void;
  readonly country: MerchantCountryCode;
  readonly errors?: FieldErrors;
  readonly banks?: readonly BankListItem[];
  readonly banksLoading?: boolean;
  readonly accountOnFile?: string | null;
}) {
  const canada = country === 'CA';
  const text = (key: keyof BankAccountInput) => ({
    value: value[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => onChange({ [key]: e.currentTarget.value }),
    autoComplete: 'off',
  });
  const chooseBank = (id: string) => {
    const bank = banks?.find((b) => String(b.id) === id);
    onChange({
      bankId: id,
      bankName: bank?.name ?? '',
      ...(bank && !canada && bank.routing_number ? { routing: bank.routing_number } : {}),
      ...(bank && canada && bank.institution_number ? { institution: bank.institution_number } : {}),
    });
  };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextInput label="Name on account" required error={errors.name_on_account} {...text('name')} />
      {banks ? (
        <NativeSelect
          label="Bank"
          required
          data={[
            { value: '', label: banksLoading ? 'Loading banks…' : 'Choose a bank' },
            ...banks.map((b) => ({ value: String(b.id), label: b.name })),
          ]}
          value={value.bankId}
          onChange={(e) => chooseBank(e.currentTarget.value)}
          error={errors.bank_name}
        />
      ) : (
        <TextInput label="Bank name" required error={errors.bank_name} {...text('bankName')} />
      )}
      <TextInput
        label={canada ? 'Transit number' : 'Routing number'}
        description={canada ? '5 digits' : '9-digit ABA number'}
        inputMode="numeric"
        required
        error={errors.routing_number}
        {...text('routing')}
      />
      {canada && (
        <TextInput
          label="Institution number"
          description="3 digits"
          inputMode="numeric"
          required
          error={errors.institution_number}
          {...text('institution')}
        />
      )}
      <TextInput
        label="Account number"
        description={
          accountOnFile
            ? `${accountOnFile} is on file; type a number only to replace it`
            : '4–17 digits; stored encrypted, shown only as its last four'
        }
        inputMode="numeric"
        required={!accountOnFile}
        error={errors.account_number}
        {...text('account')}
      />
      <Radio.Group
        label="Account type"
        value={value.accountType}
        onChange={(v) => onChange({ accountType: v === 'savings' ? 'savings' : 'checking' })}
        error={errors.account_type}
      >
        <Group mt={4}>
          {BANK_ACCOUNT_TYPES.map((t) => (
            <Radio key={t} value={t} label={t === 'checking' ? 'Checking' : 'Savings'} />
          ))}
        </Group>
      </Radio.Group>
    </SimpleGrid>
  );
}
