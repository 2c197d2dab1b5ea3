import {
  addressSchema,
  fieldsFromZodError,
  formatZipInput,
  MERCHANT_COUNTRIES,
  isMerchantCountry,
  type Address,
  type CountryCode,
} from '@pos/domain';

/** What the address form edits (every field a string; the country is fixed by the record). */
export interface AddressDraft {
  readonly address1: string;
  readonly address2: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly country: CountryCode;
}

export type AddressField = keyof AddressDraft;

export interface AddressLike {
  readonly address1?: string | null;
  readonly address2?: string | null;
  readonly city?: string | null;
  readonly state?: string | null;
  readonly zip?: string | null;
  readonly country?: string | null;
}

export function addressDraft(address: AddressLike | null | undefined, country: CountryCode): AddressDraft {
  return {
    address1: address?.address1 ?? '',
    address2: address?.address2 ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zip: address?.zip ?? '',
    country,
  };
}

/** 'ZIP code' in the US, 'Postal code' elsewhere. */
export function zipLabel(country: string): string {
  return country === 'US' ? 'ZIP code' : 'Postal code';
}

/** 'State' in the US, 'Province' in Canada. */
export function stateLabel(country: string): string {
  return country === 'CA' ? 'Province' : 'State';
}

/** The mask as a hint: '00000' → 'e.g. 12345', 'S0S 0S0' → 'e.g. S0S 0S0'. */
export function zipHint(country: string): string | null {
  if (!isMerchantCountry(country)) return null;
  const mask = MERCHANT_COUNTRIES[country].zipMask;
  return country === 'US' ? `5 digits (${mask})` : `Letter-digit-letter digit-letter-digit (${mask})`;
}

/**
 * Typing into the ZIP box: when everything typed fits the country's mask it is shown masked ('s0s0s0' →
 * 'S0S 0S0'); when something does not fit (a US ZIP in a Canadian box) the text is left as typed, so the
 * validation message can say why instead of the box silently swallowing keys.
 */
export function typeZip(country: string, input: string): string {
  const masked = formatZipInput(country, input);
  const alnum = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return alnum(masked) === alnum(input) ? masked : input.slice(0, 10);
}

export type AddressCheck =
  | { readonly ok: true; readonly address: Address }
  | { readonly ok: false; readonly fields: Partial<Record<AddressField, string>> };

/** The domain's address rule (required fields, the country's ZIP rule and state list). */
export function checkAddress(draft: AddressDraft): AddressCheck {
  const parsed = addressSchema.safeParse({ ...draft, address2: draft.address2.trim() ? draft.address2 : undefined });
  if (parsed.success) return { ok: true, address: parsed.data };
  return { ok: false, fields: fieldsFromZodError(parsed.error) as Partial<Record<AddressField, string>> };
}

/** Server field errors for an address ('address.zip' or 'zip') → the form's fields. */
export function addressFieldsFromServer(
  fields: Readonly<Record<string, string>>,
  prefix = 'address',
): Partial<Record<AddressField, string>> {
  const out: Partial<Record<AddressField, string>> = {};
  for (const [key, message] of Object.entries(fields)) {
    const name = key.startsWith(`${prefix}.`) ? key.slice(prefix.length + 1) : key;
    if (['address1', 'address2', 'city', 'state', 'zip', 'country'].includes(name)) out[name as AddressField] = message;
  }
  return out;
}
