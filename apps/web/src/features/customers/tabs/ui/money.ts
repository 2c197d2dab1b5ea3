import { CURRENCY_SYMBOLS, centsToDecimal, parseMoney, type CurrencyCode } from '@pos/domain';

/** What a money box shows for an amount in cents: '19.99'. */
export function centsToInput(cents: number): string {
  return centsToDecimal(cents);
}

export type AmountCheck =
  { readonly ok: true; readonly cents: number } | { readonly ok: false; readonly message: string };

/**
 * What a person typed in a money box of `currency` ('19.99', '$1,200', 'C$5') → integer cents (the domain's
 * parseMoney: no floating point). Negative amounts and another currency's symbol are refused.
 */
export function parseAmount(text: string, currency: CurrencyCode, { required = true } = {}): AmountCheck {
  if (text.trim() === '') return required ? { ok: false, message: 'Enter an amount.' } : { ok: true, cents: 0 };
  const money = parseMoney(text, currency);
  if (!money)
    return {
      ok: false,
      message: `Enter an amount in ${currency} (${CURRENCY_SYMBOLS[currency]}) with at most 2 decimals, e.g. 49.99.`,
    };
  if (money.cents < 0) return { ok: false, message: 'The amount cannot be negative.' };
  return { ok: true, cents: money.cents };
}
