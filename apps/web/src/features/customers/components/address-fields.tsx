import { NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { statesFor } from '@pos/domain';
import { countryName } from '../../../lib/format';
import { stateLabel, typeZip, zipHint, zipLabel, type AddressDraft, type AddressField } from '../lib/address';

export interface AddressFieldsProps {
  readonly value: AddressDraft;
  readonly onChange: (next: AddressDraft) => void;
  readonly errors?: Partial<Record<AddressField, string>>;
  /** Called when a field loses focus (forms validate the ZIP then). */
  readonly onBlurField?: (field: AddressField) => void;
  readonly disabled?: boolean;
}

/**
 * A postal address in the country's shape: its state or province list (domain states), its ZIP rule and
 * mask (US 5 digits, Canada 'S0S 0S0'). The country itself is shown, not edited (a store does not move
 * countries; decision 061).
 */
export function AddressFields({ value, onChange, errors = {}, onBlurField, disabled }: AddressFieldsProps) {
  const set = (field: AddressField, text: string) => onChange({ ...value, [field]: text });
  const states = statesFor(value.country);
  return (
    <Stack gap="sm">
      <TextInput
        label="Address line 1"
        required
        value={value.address1}
        onChange={(e) => set('address1', e.currentTarget.value)}
        onBlur={() => onBlurField?.('address1')}
        error={errors.address1}
        autoComplete="address-line1"
        disabled={disabled}
      />
      <TextInput
        label="Address line 2"
        value={value.address2}
        onChange={(e) => set('address2', e.currentTarget.value)}
        error={errors.address2}
        autoComplete="address-line2"
        disabled={disabled}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput
          label="City"
          required
          value={value.city}
          onChange={(e) => set('city', e.currentTarget.value)}
          onBlur={() => onBlurField?.('city')}
          error={errors.city}
          autoComplete="address-level2"
          disabled={disabled}
        />
        {states.length > 0 ? (
          <NativeSelect
            label={stateLabel(value.country)}
            required
            value={value.state}
            onChange={(e) => set('state', e.currentTarget.value)}
            error={errors.state}
            data={[
              { value: '', label: `Choose a ${stateLabel(value.country).toLowerCase()}` },
              ...states.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` })),
            ]}
            disabled={disabled}
          />
        ) : (
          <TextInput
            label="State"
            required
            value={value.state}
            onChange={(e) => set('state', e.currentTarget.value)}
            error={errors.state}
            disabled={disabled}
          />
        )}
        <TextInput
          label={zipLabel(value.country)}
          required
          description={zipHint(value.country)}
          value={value.zip}
          onChange={(e) => set('zip', typeZip(value.country, e.currentTarget.value))}
          onBlur={() => onBlurField?.('zip')}
          error={errors.zip}
          autoComplete="postal-code"
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          disabled={disabled}
        />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        Country: {countryName(value.country)}
      </Text>
      {errors.country && (
        <Text size="sm" c="red" role="alert">
          {errors.country}
        </Text>
      )}
    </Stack>
  );
}
