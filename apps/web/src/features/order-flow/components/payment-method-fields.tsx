import { Fieldset, NativeSelect, SimpleGrid, Text, TextInput } from '@mantine/core';
import type { OrderDocument } from '@pos/domain';

export type MethodEntry = NonNullable<OrderDocument['PaymentInstrumentInfo']>[number];
export type MethodKind = 'card' | 'bank' | 'cash' | '';

/** What the browser holds of a card until the gateway tokenizes it (never in the document, never sent to /api). */
export interface CardInput {
  number: string;
  expMonth: string;
  expYear: string;
  cvc: string;
}
export const EMPTY_CARD: CardInput = { number: '', expMonth: '', expYear: '', cvc: '' };

export const METHOD_TYPE_IDS = { card: 1, bank: 2, cash: 3 } as const;

export function methodKindOf(entry: MethodEntry | undefined): MethodKind {
  const id = Number(entry?.paymentMethodTypeId);
  return id === 1 ? 'card' : id === 2 ? 'bank' : id === 3 ? 'cash' : '';
}

/** A description of the method already on the order ("visa ending 4242", "Bank ****6789", "Cash"). */
export function methodOnFile(entry: MethodEntry | undefined): string | null {
  const kind = methodKindOf(entry);
  if (kind === 'cash') return 'Cash';
  if (kind === 'card' && (entry?.creditCardNumber || entry?.processorSetupIntent))
    return `${entry?.issuer ?? 'Card'} ending ${String(entry?.creditCardNumber ?? '').slice(-4) || '(new card)'}`;
  if (kind === 'bank' && entry?.achAccountNumber)
    return `${entry.achBankName ?? 'Bank account'} ${entry.achAccountNumber}`;
  return null;
}

/**
 * The payment method of one plan: card (tokenized by the gateway on save), bank account — ACH for a US merchant,
 * transit + institution for a Canadian one —, or cash. `legend` names the group ("Hardware payment method").
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
  const kind = methodKindOf(entry);
  const e = props.errors ?? {};
  const set = (patch: Partial<MethodEntry>) => props.onChange({ ...(entry ?? {}), ...patch } as MethodEntry);
  const onFile = methodOnFile(entry);
  return (
    <Fieldset legend={props.legend}>
      <NativeSelect
        label="Payment method"
        value={kind}
        error={e.paymentMethodTypeId}
        onChange={(x) => {
          const k = x.currentTarget.value as MethodKind;
          set({
            paymentMethodTypeId: k ? METHOD_TYPE_IDS[k] : null,
            paymentMethodCode:
              k === 'card' ? 'CC' : k === 'bank' ? (country === 'CA' ? 'CAD' : 'ACH') : k === 'cash' ? 'CASH' : null,
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
      {onFile && (
        <Text size="sm" mt="xs">
          On file: {onFile}
        </Text>
      )}
      {kind === 'card' && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="sm">
          <TextInput
            label="Name on card"
            value={entry?.nameOnAccount ?? ''}
            onChange={(x) => set({ nameOnAccount: x.currentTarget.value })}
          />
          <TextInput
            label="Card number"
            autoComplete="cc-number"
            inputMode="numeric"
            value={props.card.number}
            onChange={(x) => props.onCard({ ...props.card, number: x.currentTarget.value })}
            error={e.number}
          />
          <TextInput
            label="Expiry month"
            placeholder="MM"
            value={props.card.expMonth}
            onChange={(x) => props.onCard({ ...props.card, expMonth: x.currentTarget.value })}
            error={e.exp_month}
          />
          <TextInput
            label="Expiry year"
            placeholder="YYYY"
            value={props.card.expYear}
            onChange={(x) => props.onCard({ ...props.card, expYear: x.currentTarget.value })}
            error={e.exp_year}
          />
          <TextInput
            label="Security code"
            autoComplete="cc-csc"
            value={props.card.cvc}
            onChange={(x) => props.onCard({ ...props.card, cvc: x.currentTarget.value })}
            error={e.cvc}
          />
        </SimpleGrid>
      )}
      {kind === 'bank' && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="sm">
          <TextInput
            label="Name on account"
            value={entry?.nameOnAccount ?? ''}
            onChange={(x) => set({ nameOnAccount: x.currentTarget.value })}
          />
          <TextInput
            label="Bank name"
            value={entry?.achBankName ?? ''}
            onChange={(x) => set({ achBankName: x.currentTarget.value })}
          />
          <TextInput
            label={country === 'CA' ? 'Transit number' : 'Routing number'}
            value={entry?.achRoutingNumber ?? ''}
            onChange={(x) => set({ achRoutingNumber: x.currentTarget.value })}
            error={e.achRoutingNumber}
          />
          {country === 'CA' && (
            <TextInput
              label="Institution number"
              value={entry?.achInstitutionNumber ?? ''}
              onChange={(x) => set({ achInstitutionNumber: x.currentTarget.value })}
              error={e.achInstitutionNumber}
            />
          )}
          <TextInput
            label="Account number"
            value={String(entry?.achAccountNumber ?? '').startsWith('*') ? '' : (entry?.achAccountNumber ?? '')}
            placeholder={
              String(entry?.achAccountNumber ?? '').startsWith('*') ? `${entry?.achAccountNumber} on file` : undefined
            }
            onChange={(x) => set({ achAccountNumber: x.currentTarget.value })}
            error={e.achAccountNumber}
          />
          <NativeSelect
            label="Account type"
            value={entry?.achAccountType ?? 'checking'}
            onChange={(x) => set({ achAccountType: x.currentTarget.value })}
            data={[
              { value: 'checking', label: 'Checking' },
              { value: 'savings', label: 'Savings' },
            ]}
          />
        </SimpleGrid>
      )}
    </Fieldset>
  );
}
