import { CURRENCY_SYMBOLS, DEFAULT_CURRENCY, isCurrencyCode, type CurrencyCode } from '../codes/currencies';

/** Money is integer cents plus a currency (architecture: "Money"). */
export interface Money {
  readonly cents: number;
  readonly currency: CurrencyCode;
}

const DECIMAL = /^([+-])?(\d*)(?:\.(\d{1,2}))?$/;

/**
 * Exact conversion of a decimal amount to integer cents, without floating-point arithmetic:
 * '19.99' → 1999, '-12.5' → -1250, '.5' → 50, 7 → 700, 19.99 → 1999.
 * Numbers are converted through their shortest decimal form, so 0.1 + 0.2 (0.30000000000000004) is
 * refused rather than rounded. Throws RangeError for anything else: more than 2 decimals, grouping
 * commas, currency symbols, exponents, or an amount beyond Number.MAX_SAFE_INTEGER cents.
 */
export function toCents(amount: string | number): number {
  if (typeof amount === 'number' && !Number.isFinite(amount)) {
    throw new RangeError(`Not a finite amount: ${amount}`);
  }
  const text = typeof amount === 'number' ? String(amount) : amount.trim();
  const m = DECIMAL.exec(text);
  if (!m || ((m[2] ?? '') === '' && m[3] === undefined)) {
    throw new RangeError(`Not a decimal amount with at most 2 decimals: '${String(amount)}'`);
  }
  const whole = m[2] === '' || m[2] === undefined ? '0' : m[2];
  const fraction = (m[3] ?? '').padEnd(2, '0');
  const cents = Number(whole) * 100 + Number(fraction);
  if (!Number.isSafeInteger(cents) || whole.length > 16) {
    throw new RangeError(`Amount out of range: '${String(amount)}'`);
  }
  return m[1] === '-' && cents !== 0 ? -cents : cents;
}

/** Integer cents → plain decimal string for payloads: 1999 → '19.99', -5 → '-0.05'. */
export function centsToDecimal(cents: number): string {
  assertCents(cents);
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  return `${cents < 0 ? '-' : ''}${whole}.${fraction}`;
}

function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Cents must be a safe integer, got ${cents}`);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Display form: '$1,234.56', 'C$1,234.56', '-$12.00'. */
export function formatMoney(cents: number, currency: CurrencyCode = DEFAULT_CURRENCY): string {
  assertCents(cents);
  const abs = Math.abs(cents);
  const whole = groupThousands(String(Math.floor(abs / 100)));
  const fraction = String(abs % 100).padStart(2, '0');
  return `${cents < 0 ? '-' : ''}${CURRENCY_SYMBOLS[currency]}${whole}.${fraction}`;
}

/**
 * Parse what a person typed or what formatMoney printed: optional sign, optional symbol ('$' → USD,
 * 'C$' → CAD; none → `currency`), digits with correctly placed thousands commas, at most 2 decimals.
 * '-$12.00', '$-12', '(…)' is not accepted. Returns null when the text is not an amount.
 * A symbol that contradicts an explicitly passed `currency` also gives null.
 */
export function parseMoney(text: string, currency?: CurrencyCode): Money | null {
  const m = /^([+-])?\s*(C\$|\$)?\s*([+-])?(\d{1,3}(?:,\d{3})+|\d*)(\.\d{1,2})?$/i.exec(text.trim());
  if (!m) return null;
  const [, sign1, symbol, sign2, digits = '', fraction = ''] = m;
  if (sign1 && sign2) return null;
  if (digits === '' && fraction === '') return null;
  const fromSymbol: CurrencyCode | undefined =
    symbol === undefined ? undefined : symbol.toUpperCase() === 'C$' ? 'CAD' : 'USD';
  if (fromSymbol && currency && fromSymbol !== currency) return null;
  const sign = sign1 ?? sign2 ?? '';
  try {
    const cents = toCents(`${sign}${digits.replace(/,/g, '')}${fraction}`);
    return { cents, currency: fromSymbol ?? currency ?? DEFAULT_CURRENCY };
  } catch {
    return null;
  }
}

/** Sum amounts of one currency; throws when currencies differ. */
export function addMoney(a: Money, b: Money): Money {
  if (a.currency !== b.currency) {
    throw new RangeError(`Cannot add ${a.currency} and ${b.currency}`);
  }
  const cents = a.cents + b.cents;
  assertCents(cents);
  return { cents, currency: a.currency };
}

export function money(amount: string | number, currency: string = DEFAULT_CURRENCY): Money {
  if (!isCurrencyCode(currency)) throw new RangeError(`Unknown currency ${currency}`);
  return { cents: toCents(amount), currency };
}
