import { Fieldset, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { formatZipInput, statesFor, validateZip, zipMask } from '@pos/domain';
import { useState } from 'react';

export interface AddressValue {
  [key: string]: unknown;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country?: '' | 'US' | 'CA' | null;
}

/**
 * A postal address of the order in its country's shape (domain states, ZIP rule and mask: US '00000', Canada
 * 'S0S 0S0'). A fieldset whose legend names it, so each address's fields are found by their group.
 */
export function AddressBlock(props: {
  readonly legend: string;
  readonly value: AddressValue | null | undefined;
  readonly country: 'US' | 'CA';
  readonly onChange: (next: AddressValue) => void;
  /** Server field errors keyed by the field name (address1, city, state, zip). */
  readonly errors?: Readonly<Record<string, string | undefined>>;
}) {
  const v = props.value ?? {};
  const set = (field: keyof AddressValue, text: string) =>
    props.onChange({ ...v, country: props.country, [field]: text });
  const ca = props.country === 'CA';
  const e = props.errors ?? {};
  const [zipError, setZipError] = useState<string | null>(null);
  const checkZip = () => {
    const zip = v.zip ?? '';
    const check = validateZip(props.country, zip);
    setZipError(zip.trim() !== '' && !check.ok ? check.message : null);
  };
  return (
    <Fieldset legend={props.legend}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="Address line 1"
          required
          value={v.address1 ?? ''}
          onChange={(x) => set('address1', x.currentTarget.value)}
          error={e.address1}
        />
        <TextInput
          label="Address line 2"
          value={v.address2 ?? ''}
          onChange={(x) => set('address2', x.currentTarget.value)}
          error={e.address2}
        />
        <TextInput
          label="City"
          required
          value={v.city ?? ''}
          onChange={(x) => set('city', x.currentTarget.value)}
          error={e.city}
        />
        <NativeSelect
          label={ca ? 'Province' : 'State'}
          required
          value={v.state ?? ''}
          onChange={(x) => set('state', x.currentTarget.value)}
          error={e.state}
          data={[
            { value: '', label: ca ? 'Choose a province' : 'Choose a state' },
            ...statesFor(props.country).map((s) => ({ value: s.code, label: `${s.name} (${s.code})` })),
          ]}
        />
        <TextInput
          label={ca ? 'Postal code' : 'ZIP code'}
          required
          description={`Format ${zipMask(props.country) ?? ''}`}
          value={v.zip ?? ''}
          onChange={(x) => set('zip', formatZipInput(props.country, x.currentTarget.value))}
          onBlur={checkZip}
          error={zipError ?? e.zip}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
      </SimpleGrid>
    </Fieldset>
  );
}

/** The errors of one address out of the server's field map ('HomeAddress.zip' → zip). */
export function addressErrors(errors: Readonly<Record<string, string>>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors))
    if (key.startsWith(`${prefix}.`)) out[key.slice(prefix.length + 1)] = message;
  return out;
}
