/*
 * The merchant records an order document names (issue 27 item 2, decision 142). The §3 document is written by the
 * client, so every id in it is a claim: onboarding turns the order into records under the customer and the store it
 * names, and the payment entries become that customer's payment methods. The server checks each reference below against
 * the session's owner rules (store-scope.ts) on every save and submit of an agent-scoped session.
 *
 * Owned references (what this file lists):
 * - `additionalInfo.customerID` — the existing customer the order is for (onboarding attaches the order to it);
 * - `additionalInfo.billingCustomerID`, `billingCustomerId` — the customer billed (the same kind of id);
 * - `StoreInfo.customerStoreId` — the existing store (onboarding puts the terminals and plans under it); it must be a
 *   store of the customer above;
 * - `PaymentInstrumentInfo[i].paymentProcessorReference` — a card at the gateway (onboarding makes it the customer's
 *   payment method, and the billing run charges it);
 * - `PaymentInstrumentInfo[i].achAccountNumberEncrypted` — a bank account the server sealed for this order.
 *
 * Not owned (catalogue or codes, the same for every caller): `PaymentPlanInfo[i].paymentPlanId` (the §9 plan type:
 * 1 upfront, 2 installments, 4 monthly, 5 yearly — never a customer's plan), `PaymentInstrumentInfo[i].paymentPlanId`
 * and `paymentMethodTypeId` (types), billing items, bundles and their price options, products, promotions.
 * External system numbers (`orgId`, `ofa_id`, `oasisId`, …) name nothing in our tables.
 */

/** A record an order document names, with the request path of the field that names it. */
export type OrderDocumentReference =
  | { readonly kind: 'customer'; readonly path: string; readonly id: number }
  | { readonly kind: 'store'; readonly path: string; readonly id: number }
  | { readonly kind: 'card'; readonly path: string; readonly reference: string }
  | { readonly kind: 'bank_account'; readonly path: string; readonly sealed: string };

/** The part of an order document the references are read from (any OrderDocument fits). */
export interface OrderDocumentWithReferences {
  readonly billingCustomerId?: unknown;
  readonly additionalInfo?: { readonly customerID?: unknown; readonly billingCustomerID?: unknown } | null;
  readonly StoreInfo?: { readonly customerStoreId?: unknown } | null;
  readonly PaymentInstrumentInfo?: readonly (Record<string, unknown> | null | undefined)[] | null;
}

/** The request body holds the document under `json`: field paths name the body (`json.additionalInfo.customerID`). */
export const ORDER_DOCUMENT_FIELD_PREFIX = 'json';

/**
 * An id as onboarding reads it (`Number(value)`): a positive whole number names that record; anything else (blank,
 * text, 0, negative, fractions) names none.
 */
export function documentIdOf(value: unknown): number | null {
  if (value == null || typeof value === 'boolean') return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** Every owned record the document names, in document order (blank fields name nothing). */
export function orderDocumentReferences(doc: OrderDocumentWithReferences): OrderDocumentReference[] {
  const at = (path: string) => `${ORDER_DOCUMENT_FIELD_PREFIX}.${path}`;
  const out: OrderDocumentReference[] = [];
  const customer = (path: string, value: unknown) => {
    const id = documentIdOf(value);
    if (id !== null) out.push({ kind: 'customer', path: at(path), id });
  };
  customer('additionalInfo.customerID', doc.additionalInfo?.customerID);
  customer('additionalInfo.billingCustomerID', doc.additionalInfo?.billingCustomerID);
  customer('billingCustomerId', doc.billingCustomerId);
  const store = documentIdOf(doc.StoreInfo?.customerStoreId);
  if (store !== null) out.push({ kind: 'store', path: at('StoreInfo.customerStoreId'), id: store });
  (doc.PaymentInstrumentInfo ?? []).forEach((entry, i) => {
    const reference = text(entry?.paymentProcessorReference);
    if (reference)
      out.push({ kind: 'card', path: at(`PaymentInstrumentInfo.${i}.paymentProcessorReference`), reference });
    const sealed = text(entry?.achAccountNumberEncrypted);
    if (sealed)
      out.push({ kind: 'bank_account', path: at(`PaymentInstrumentInfo.${i}.achAccountNumberEncrypted`), sealed });
  });
  return out;
}

/** The customer the order is for (`additionalInfo.customerID`), as onboarding reads it; null when none is named. */
export function documentCustomerId(doc: OrderDocumentWithReferences): number | null {
  return documentIdOf(doc.additionalInfo?.customerID);
}
