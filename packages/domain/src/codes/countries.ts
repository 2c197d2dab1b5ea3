/**
 * Countries.
 * - MERCHANT_COUNTRIES (spec §3): the countries merchants are in, with their ZIP rules and whether a
 *   customer is created at the payment processor. Zip masks use the input-mask convention
 *   '0' = digit, 'S' = letter.
 * - COUNTRIES (spec §9): the country options of the product (codes as the spec gives them, PAK/MEX/DR
 *   included although they are not ISO 3166 alpha-2).
 */
export const MERCHANT_COUNTRIES = {
  US: {
    code: 'US',
    name: 'United States',
    zipLength: 5,
    zipMask: '00000',
    createsProcessorCustomer: true,
  },
  CA: {
    code: 'CA',
    name: 'Canada',
    zipLength: 7,
    zipMask: 'S0S 0S0',
    createsProcessorCustomer: false,
  },
} as const;
export type MerchantCountryCode = keyof typeof MERCHANT_COUNTRIES;
export const MERCHANT_COUNTRY_CODES: readonly MerchantCountryCode[] = ['US', 'CA'];
export function isMerchantCountry(value: unknown): value is MerchantCountryCode {
  return typeof value === 'string' && (MERCHANT_COUNTRY_CODES as readonly string[]).includes(value);
}
/** Whether a customer of this country gets a customer at the payment processor (§3: the US does, Canada does not). */
export function createsProcessorCustomer(country: string | null | undefined): boolean {
  return isMerchantCountry(country) && MERCHANT_COUNTRIES[country].createsProcessorCustomer;
}
/** Canadian stores are the "Canadian-store variant" of §1 (flag image, CAD, no processor customer). */
export function isCanadian(country: string | null | undefined): boolean {
  return country === 'CA';
}

export const COUNTRY = {
  US: 'US',
  GT: 'GT',
  CA: 'CA',
  IN: 'IN',
  PA: 'PA',
  PAK: 'PAK',
  MEX: 'MEX',
  DR: 'DR',
} as const;
export type CountryCode = (typeof COUNTRY)[keyof typeof COUNTRY];
export const COUNTRY_NAMES: Readonly<Record<CountryCode, string>> = {
  US: 'United States',
  GT: 'Guatemala',
  CA: 'Canada',
  IN: 'India',
  PA: 'Panama',
  PAK: 'Pakistan',
  MEX: 'Mexico',
  DR: 'Dominican Republic',
};
/** §9 list, in the spec's order, as `{ code, name }` options. */
export const COUNTRIES: readonly { readonly code: CountryCode; readonly name: string }[] = (
  Object.values(COUNTRY) as CountryCode[]
).map((code) => ({ code, name: COUNTRY_NAMES[code] }));
export function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(COUNTRY_NAMES, value);
}
