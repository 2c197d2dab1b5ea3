/** Currencies (spec §9): US is USD ($), CA is CAD (C$); default USD. */
export const CURRENCY = {
  USD: 'USD',
  CAD: 'CAD',
} as const;
export type CurrencyCode = (typeof CURRENCY)[keyof typeof CURRENCY];
export const CURRENCY_CODES = ['USD', 'CAD'] as const satisfies readonly CurrencyCode[];
export const CURRENCY_SYMBOLS: Readonly<Record<CurrencyCode, string>> = {
  USD: '$',
  CAD: 'C$',
};
export const DEFAULT_CURRENCY: CurrencyCode = CURRENCY.USD;

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return typeof value === 'string' && (CURRENCY_CODES as readonly string[]).includes(value);
}

/** CA → CAD; every other country (and none) → USD. */
export function currencyForCountry(country: string | null | undefined): CurrencyCode {
  return country === 'CA' ? CURRENCY.CAD : DEFAULT_CURRENCY;
}
