import { isCurrencyCode, type CurrencyCode } from '@pos/domain';

/** The currency a look-up shows its prices in: the address's, else USD (the §7 default). */
export function lookupCurrency(value: string): CurrencyCode {
  return isCurrencyCode(value) ? value : 'USD';
}
