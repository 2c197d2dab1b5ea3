import { hasAnyPermission, type Permission } from './permissions';

/*
 * Who may read an upload back (decision 140): an upload belongs to a record (an order's contract, a payment
 * instrument's check image, a receipt's check, a tax certificate's file, a store's picture or licence) and is readable
 * exactly when that record is — the record's own rule decides (order-scope.ts, store-scope.ts, record-scope.ts) and
 * the session holds a privilege that reads that kind of record. An upload not yet attached to anything (a check image
 * uploaded a moment before the receipt that will use it) is readable only by whoever uploaded it. Everything else is
 * answered like an unknown upload (404).
 */

/** The records an upload can belong to (uploads.owner_type). */
export const UPLOAD_OWNER_TYPES = ['order', 'payment_instrument', 'receipt', 'tax_certificate', 'store'] as const;
export type UploadOwnerType = (typeof UPLOAD_OWNER_TYPES)[number];

export function isUploadOwnerType(value: unknown): value is UploadOwnerType {
  return typeof value === 'string' && (UPLOAD_OWNER_TYPES as readonly string[]).includes(value);
}

const CUSTOMER_READERS: readonly Permission[] = ['customer_details_view', 'customer_details_edit'];
const ORDER_READERS: readonly Permission[] = [
  'search_orders_view',
  'search_orders_edit',
  'create_distributor_orders',
  ...CUSTOMER_READERS,
];

/** The privileges that read each kind of owner record (one of them is needed). */
export const UPLOAD_OWNER_READERS: Readonly<Record<UploadOwnerType, readonly Permission[]>> = {
  order: ORDER_READERS,
  payment_instrument: CUSTOMER_READERS,
  receipt: ['receipts', 'apply_receipt'],
  tax_certificate: CUSTOMER_READERS,
  store: ORDER_READERS,
};

export interface UploadFacts {
  readonly ownerType: string | null;
  /** E-mail of the session that uploaded it (null for files the product made itself, e.g. contract PDFs). */
  readonly createdByEmail: string | null;
}

export interface UploadReader {
  readonly email: string;
  readonly privileges: readonly string[];
  /** Does the owner record's own rule let this reader see it? (Ignored for an unattached upload.) */
  readonly ownerVisible: boolean;
}

/** May `reader` download `upload`? */
export function mayReadUpload(upload: UploadFacts, reader: UploadReader): boolean {
  if (upload.ownerType === null) return upload.createdByEmail !== null && upload.createdByEmail === reader.email;
  if (!isUploadOwnerType(upload.ownerType)) return false;
  return reader.ownerVisible && hasAnyPermission(reader.privileges, UPLOAD_OWNER_READERS[upload.ownerType]);
}

/** May `reader` attach `upload` to a record it is creating (a receipt, an instrument, a certificate)? Only its own. */
export function mayAttachUpload(upload: UploadFacts, reader: Pick<UploadReader, 'email'>): boolean {
  return upload.ownerType === null && upload.createdByEmail !== null && upload.createdByEmail === reader.email;
}
