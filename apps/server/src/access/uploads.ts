import { isUploadOwnerType, mayAttachUpload, mayReadUpload, type UploadOwnerType } from '@pos/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, paymentInstruments, receipts, taxCertificates, uploads } from '../db/schema';
import { AppError } from '../http/errors';
import { isOrderVisible } from './orders';
import { isCustomerVisible, isStoreVisible } from './stores';
import { orderScopeOfViewer, type Viewer } from './viewer';

/*
 * "Which uploads may this session read, and which may it attach" on the server (decision 140): the domain's rule
 * (packages/domain access/upload-access.ts) fed with the owner record's own rule —
 *   order               → the order rule (order-scope.ts, decision 102)
 *   payment_instrument  → its customer's rule (as the payment-method screens read an instrument)
 *   receipt             → its customer's rule
 *   tax_certificate     → its store's rule (its customer's when it has no store)
 *   store               → the store rule
 *   none (not attached) → its uploader only.
 * Uploads are named by their public id (never the sequential key). An upload the session may not read or attach is
 * answered exactly like one that does not exist: 404 not_found, the same message, the field named when the id came in
 * a body.
 */

type UploadRow = typeof uploads.$inferSelect;

/** Who reads or attaches: a session (its e-mail names what it uploaded; its privileges read the kinds of records). */
export interface UploadViewer {
  readonly email: string;
  readonly privileges: readonly string[];
}

/** The answer for an upload that does not exist or that the session may not read or attach: the same in every case. */
export function uploadNotFound(publicId: string, field?: string): AppError {
  const message = `Upload ${publicId} was not found.`;
  return new AppError(
    'not_found',
    message,
    field ? { [field]: 'This file was not found: upload it again.' } : undefined,
  );
}

const recordId = (ownerId: string | null): number | null =>
  ownerId !== null && /^\d{1,10}$/.test(ownerId) && Number(ownerId) <= 2_147_483_647 ? Number(ownerId) : null;

/** Does the owner record's own rule let `viewer` see it? (A record that no longer exists: no.) */
export async function isUploadOwnerVisible(
  db: Db,
  viewer: Viewer,
  ownerType: UploadOwnerType,
  ownerId: string | null,
): Promise<boolean> {
  const id = recordId(ownerId);
  if (id === null) return false;
  switch (ownerType) {
    case 'order': {
      const [order] = await db.select({ id: orders.id, agentId: orders.agentId }).from(orders).where(eq(orders.id, id));
      return order !== undefined && (await isOrderVisible(db, orderScopeOfViewer(viewer), order));
    }
    case 'payment_instrument': {
      const [pi] = await db
        .select({ customerId: paymentInstruments.customerId })
        .from(paymentInstruments)
        .where(eq(paymentInstruments.id, id));
      return pi !== undefined && (await isCustomerVisible(db, viewer, pi.customerId));
    }
    case 'receipt': {
      const [receipt] = await db.select({ customerId: receipts.customerId }).from(receipts).where(eq(receipts.id, id));
      return receipt !== undefined && (await isCustomerVisible(db, viewer, receipt.customerId));
    }
    case 'tax_certificate': {
      const [cert] = await db
        .select({ customerId: taxCertificates.customerId, storeId: taxCertificates.storeId })
        .from(taxCertificates)
        .where(eq(taxCertificates.id, id));
      if (!cert) return false;
      return cert.storeId !== null
        ? isStoreVisible(db, viewer, cert.storeId)
        : isCustomerVisible(db, viewer, cert.customerId);
    }
    case 'store':
      return isStoreVisible(db, viewer, id);
  }
}

/** May `session` read this upload? The domain's mayReadUpload with its owner record's rule. */
export async function mayReadUploadRow(
  db: Db,
  session: Viewer & UploadViewer,
  row: Pick<UploadRow, 'ownerType' | 'ownerId' | 'createdByEmail'>,
): Promise<boolean> {
  const facts = { ownerType: row.ownerType, createdByEmail: row.createdByEmail };
  const reader = { email: session.email, privileges: session.privileges };
  // Not attached (the uploader alone) or an owner of no known kind (nobody): the owner rule has nothing to say.
  if (row.ownerType === null || !isUploadOwnerType(row.ownerType))
    return mayReadUpload(facts, { ...reader, ownerVisible: false });
  // Without a privilege that reads that kind of record the answer is no, whatever the record.
  if (!mayReadUpload(facts, { ...reader, ownerVisible: true })) return false;
  const ownerVisible = await isUploadOwnerVisible(db, session, row.ownerType, row.ownerId);
  return mayReadUpload(facts, { ...reader, ownerVisible });
}

/** The upload `publicId` names, when `session` may read it; otherwise 404, worded as for a missing upload. */
export async function loadReadableUpload(db: Db, session: Viewer & UploadViewer, publicId: string): Promise<UploadRow> {
  const [row] = await db.select().from(uploads).where(eq(uploads.publicId, publicId));
  if (!row || !(await mayReadUploadRow(db, session, row))) throw uploadNotFound(publicId);
  return row;
}

/**
 * The upload a body names (`field`) for the caller to attach to a record it is creating: only one it uploaded itself
 * and that is attached to nothing yet (mayAttachUpload); anything else is 404 naming the field, exactly like a missing
 * upload. Without a session (a merchant's link page) nothing is attachable. Locked (FOR UPDATE) when `lock`: the
 * caller attaches it in the same transaction.
 */
export async function loadAttachableUpload(
  db: Db,
  session: UploadViewer | null,
  publicId: string,
  field: string,
  lock = false,
): Promise<UploadRow> {
  if (session === null) throw uploadNotFound(publicId, field);
  const query = db.select().from(uploads).where(eq(uploads.publicId, publicId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || !mayAttachUpload(row, { email: session.email })) throw uploadNotFound(publicId, field);
  return row;
}
