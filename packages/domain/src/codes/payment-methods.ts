import { assertNever } from '../util/assert-never';
import { OTHER_IDS } from './billing';

/**
 * How a merchant pays (decision 105). The same three kinds everywhere: a payment instrument on file
 * (`payment_instruments.kind`), an order document's PaymentInstrumentInfo entry (`paymentMethodTypeId` 1/2/3 with
 * `paymentMethodCode` CC, ACH or CAD, CASH) and a merchant's re-authorization.
 */
export const PAYMENT_METHOD_KINDS = ['card', 'bank', 'cash'] as const;
export type PaymentMethodKind = (typeof PAYMENT_METHOD_KINDS)[number];

/** paymentMethodTypeId of an order document's method: card 1, bank 2, cash 3 (spec §9: cash payment method id 3). */
export const PAYMENT_METHOD_TYPE_IDS = {
  card: 1,
  bank: 2,
  cash: OTHER_IDS.CASH_PAYMENT_METHOD_ID,
} as const satisfies Record<PaymentMethodKind, number>;
export type PaymentMethodTypeId = (typeof PAYMENT_METHOD_TYPE_IDS)[PaymentMethodKind];

/** paymentMethodCode: a card; a US bank account (ACH); a Canadian bank account (CAD); cash or check. */
export const PAYMENT_METHOD_CODE = {
  CARD: 'CC',
  ACH: 'ACH',
  CAD: 'CAD',
  CASH: 'CASH',
} as const;
export type PaymentMethodCode = (typeof PAYMENT_METHOD_CODE)[keyof typeof PAYMENT_METHOD_CODE];

/** The kind of a paymentMethodTypeId (a number, or its text as legacy documents carry it); null for none or unknown. */
export function paymentMethodKindOf(typeId: unknown): PaymentMethodKind | null {
  if (typeId === null || typeId === undefined || typeId === '') return null;
  const id = Number(typeId);
  return PAYMENT_METHOD_KINDS.find((kind) => PAYMENT_METHOD_TYPE_IDS[kind] === id) ?? null;
}

/** The paymentMethodCode of a kind: a bank account is ACH in the US and CAD in Canada. */
export function paymentMethodCodeFor(kind: PaymentMethodKind, country: string | null | undefined): PaymentMethodCode {
  switch (kind) {
    case 'card':
      return PAYMENT_METHOD_CODE.CARD;
    case 'bank':
      return country === 'CA' ? PAYMENT_METHOD_CODE.CAD : PAYMENT_METHOD_CODE.ACH;
    case 'cash':
      return PAYMENT_METHOD_CODE.CASH;
    default:
      return assertNever(kind);
  }
}

/** Card brands as the payment gateway names them. */
export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'unknown'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const CARD_BRAND_LABELS: Readonly<Record<CardBrand, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  unknown: 'Card',
};
