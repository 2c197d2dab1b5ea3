import { assertNever } from '../util/assert-never';
import { CARD_BRAND_LABELS, paymentMethodKindOf, type PaymentMethodKind } from '../codes/payment-methods';

/*
 * How a payment method reads for people (decision 105): 'Visa ending 4242', 'Chase ending 6789', 'Bank account ending 6789',
 * 'Cash'. Never more than the last four digits. The staff screens, the merchant's pages and the contract PDF use
 * these words.
 */

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

/**
 * The last four digits of a (possibly masked) number: '************4242' → '4242', '****6789' → '6789'; '' when the
 * value does not end in four digits (a gateway reference such as 'pm_…' is not a number).
 */
export function lastFour(value: unknown): string {
  return /\d{4}$/.exec(text(value))?.[0] ?? '';
}

/** A brand as the gateway names it ('visa') → 'Visa'; another issuer's name as it is; none → 'Card'. */
export function cardBrandLabel(brand: unknown): string {
  const name = text(brand);
  if (!name) return CARD_BRAND_LABELS.unknown;
  return (CARD_BRAND_LABELS as Readonly<Record<string, string>>)[name.toLowerCase()] ?? name;
}

/** 'Visa ending 4242'. */
export function describeCard(brand: unknown, last4: unknown): string {
  return `${cardBrandLabel(brand)} ending ${lastFour(last4)}`;
}

/** 'Chase ending 6789'; without a bank name 'Bank account ending 6789' (one wording with cards, issue 30). */
export function describeBankAccount(bankName: unknown, accountLast4: unknown): string {
  return `${text(bankName) || 'Bank account'} ending ${lastFour(accountLast4)}`;
}

/** A payment method on file: a card (brand, last 4), a bank account (bank name, last 4) or cash. */
export interface PaymentMethodSummary {
  readonly kind: PaymentMethodKind;
  readonly card?: { readonly brand: string | null; readonly last4: string } | null;
  readonly bank?: { readonly bank_name: string | null; readonly account_last4: string } | null;
}

/** A payment instrument on file → 'Visa ending 4242' / 'Chase ****6789' / 'Cash'. */
export function describePaymentMethod(method: PaymentMethodSummary): string {
  switch (method.kind) {
    case 'card':
      return describeCard(method.card?.brand, method.card?.last4);
    case 'bank':
      return describeBankAccount(method.bank?.bank_name, method.bank?.account_last4);
    case 'cash':
      return 'Cash';
    default:
      return assertNever(method.kind);
  }
}

/** The fields of an order document's PaymentInstrumentInfo entry that describe its method. */
export interface OrderPaymentMethodFields {
  readonly paymentMethodTypeId?: unknown;
  readonly creditCardNumber?: unknown;
  readonly issuer?: unknown;
  readonly achAccountNumber?: unknown;
  readonly achBankName?: unknown;
  readonly paymentDescription?: unknown;
}

/**
 * The method of an order document's PaymentInstrumentInfo entry → 'Visa ending 4242' / 'Chase ****6789' / 'Cash';
 * its paymentDescription when the card or account number is not known yet; null when no method is chosen.
 */
export function describeOrderPaymentMethod(entry: OrderPaymentMethodFields | null | undefined): string | null {
  const kind = paymentMethodKindOf(entry?.paymentMethodTypeId);
  if (!entry || kind === null) return null;
  if (kind === 'cash') return 'Cash';
  if (kind === 'card' && lastFour(entry.creditCardNumber)) return describeCard(entry.issuer, entry.creditCardNumber);
  if (kind === 'bank' && lastFour(entry.achAccountNumber))
    return describeBankAccount(entry.achBankName, entry.achAccountNumber);
  return text(entry.paymentDescription) || null;
}
