/*
 * Who owns the records hung under a merchant (decision 140): a record that belongs to a store (terminal, plan,
 * billing item, bundle, transaction or invoice of a store, return, tax certificate, feature change) is visible exactly
 * when its store is; a record of the customer alone (payment instrument, note, receipt, memo or invoice without a
 * store) exactly when its customer is (store-scope.ts). One rule for every such kind, so a route that names one of
 * them by id checks it the same way (apps/server/src/access/records.ts).
 */

/** The kinds of records that hang under a customer (and maybe a store). */
export const CUSTOMER_RECORD_KINDS = [
  'terminal',
  'plan',
  'billing_item',
  'transaction',
  'invoice',
  'payment_instrument',
  'note',
  'memo',
  'write_off',
  'receipt',
  'return',
  'tax_certificate',
  'feature_change',
] as const;
export type CustomerRecordKind = (typeof CUSTOMER_RECORD_KINDS)[number];

/** Where a record hangs: its customer, and its store when it has one. */
export interface RecordPlace {
  readonly customerId: number;
  readonly storeId: number | null;
}

/** Whose visibility decides a record's: its store's when it has one, else its customer's. */
export type RecordOwner =
  { readonly kind: 'store'; readonly id: number } | { readonly kind: 'customer'; readonly id: number };

export function ownerOfRecord(place: RecordPlace): RecordOwner {
  return place.storeId !== null ? { kind: 'store', id: place.storeId } : { kind: 'customer', id: place.customerId };
}
