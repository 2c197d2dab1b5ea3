import {
  addDays,
  CERTIFICATE_STATE,
  certificateStatus,
  type TaxCertificate,
  type TaxCertificateCreate,
  type TaxCertificateKind,
  type TaxCertificateList,
  type UploadInfo,
} from '@pos/domain';
import { and, asc, desc, eq, gte, isNull, lte, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { customers, stores, taxCertificates, uploads } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import {
  isRecordVisible,
  isStoreVisible,
  loadAttachableUpload,
  viewerOf,
  visibleCustomersWhere,
  visibleRecordsWhere,
} from '../../access';
import { AppError, fieldError } from '../../http/errors';
import { receiveUpload } from '../uploads';
import { taxToday } from './tax-rules.service';

/*
 * Arizona TPT / resale certificates (#/arizona, issue 17 point 6, decision 127). A certificate belongs to an Arizona
 * store; while it is valid (not revoked, expiring on or after the sale date) the store's hardware sale is not taxed
 * (domain saleTaxExempt, used by taxes/fetch, the contract, onboarding and the billing run's installments).
 */

const columns = {
  id: taxCertificates.id,
  customerId: taxCertificates.customerId,
  customerName: customers.legalName,
  storeId: taxCertificates.storeId,
  storeName: stores.doingBusinessAs,
  state: taxCertificates.state,
  kind: taxCertificates.kind,
  certificateNumber: taxCertificates.certificateNumber,
  expiresOn: taxCertificates.expiresOn,
  uploadPublicId: uploads.publicId,
  fileName: uploads.originalName,
  createdAt: taxCertificates.createdAt,
  createdBy: taxCertificates.createdByEmail,
  revokedAt: taxCertificates.revokedAt,
};

async function selectCertificates(db: Db, where: SQL | undefined, order: 'expiry' | 'newest') {
  return db
    .select(columns)
    .from(taxCertificates)
    .innerJoin(customers, eq(customers.id, taxCertificates.customerId))
    .leftJoin(stores, eq(stores.id, taxCertificates.storeId))
    .leftJoin(uploads, eq(uploads.id, taxCertificates.uploadId))
    .where(where)
    .orderBy(
      ...(order === 'expiry'
        ? [asc(taxCertificates.expiresOn), asc(taxCertificates.id)]
        : [desc(taxCertificates.createdAt), desc(taxCertificates.id)]),
    )
    .limit(500);
}

type Row = Awaited<ReturnType<typeof selectCertificates>>[number];

function toItem(r: Row, today: string): TaxCertificate {
  return {
    id: r.id,
    customer_id: r.customerId,
    customer_name: r.customerName,
    store_id: r.storeId,
    store_name: r.storeName,
    state: r.state,
    kind: r.kind as TaxCertificateKind,
    certificate_number: r.certificateNumber,
    expires_on: r.expiresOn,
    upload_id: r.uploadPublicId ?? null,
    file_name: r.fileName,
    status: certificateStatus(r, today),
    created_at: r.createdAt.toISOString(),
    created_by: r.createdBy,
    revoked_at: r.revokedAt ? r.revokedAt.toISOString() : null,
  };
}

/**
 * GET /api/taxcertificates/{token}?store_id=&expiring=: a store's certificates (newest first; 404 for an unknown
 * store), or those not revoked expiring within `expiring` days from today (soonest first), or both filters.
 */
export async function listCertificates(
  ctx: ServiceCtx,
  query: { store_id?: number; expiring?: number },
): Promise<TaxCertificateList> {
  const db = ctx.app.database.db;
  const today = taxToday(ctx.app);
  const where: SQL[] = [];
  const scope = and(
    visibleCustomersWhere(viewerOf(ctx), taxCertificates.customerId),
    visibleRecordsWhere(viewerOf(ctx), taxCertificates.storeId),
  );
  if (scope) where.push(scope);
  if (query.store_id !== undefined) {
    const [store] = await db.select({ id: stores.id }).from(stores).where(eq(stores.id, query.store_id));
    // Another agent's store is answered like a missing one (decision 140).
    if (!store || !(await isStoreVisible(db, viewerOf(ctx), store.id))) {
      const message = `There is no store ${query.store_id}.`;
      throw new AppError('not_found', message, { store_id: message });
    }
    where.push(eq(taxCertificates.storeId, query.store_id));
  }
  if (query.expiring !== undefined) {
    where.push(
      isNull(taxCertificates.revokedAt),
      gte(taxCertificates.expiresOn, today),
      lte(taxCertificates.expiresOn, addDays(today, query.expiring)),
    );
  }
  const rows = await selectCertificates(db, and(...where), query.expiring !== undefined ? 'expiry' : 'newest');
  return { today, items: rows.map((r) => toItem(r, today)) };
}

/** POST /api/taxcertificates/upload/{token}: the certificate's file (pdf, jpeg, png; type checked by magic bytes). */
export async function uploadCertificateFile(ctx: ServiceCtx, request: FastifyRequest): Promise<UploadInfo> {
  return (await receiveUpload(ctx, request, { kind: 'taxCertificate' })).info;
}

/**
 * POST /api/taxcertificates/{token}: record a certificate for an Arizona store with its uploaded file. Refused: an
 * unknown store (404); a file that is unknown, another user's upload or already attached to a record (404 upload_id,
 * the same answer, decision 140); a store outside Arizona, an expiry date already past, a file that is not a
 * certificate upload (400).
 */
export async function createCertificate(ctx: ServiceCtx, body: TaxCertificateCreate): Promise<TaxCertificate> {
  const today = taxToday(ctx.app);
  const now = ctx.app.clock.now();
  const id = await withTx(ctx, async (tx) => {
    const [store] = await tx
      .select({ id: stores.id, customerId: stores.customerId, country: stores.country, state: stores.state })
      .from(stores)
      .where(eq(stores.id, body.store_id));
    if (!store || !(await isStoreVisible(tx, viewerOf(ctx), store.id))) {
      const message = `There is no store ${body.store_id}.`;
      throw new AppError('not_found', message, { store_id: message });
    }
    if (store.country !== 'US' || store.state.toUpperCase() !== CERTIFICATE_STATE)
      throw fieldError(
        'store_id',
        `Store ${store.id} is not in Arizona: only an Arizona store's certificate is recorded.`,
      );
    if (body.expires_on < today)
      throw fieldError('expires_on', `The certificate expired on ${body.expires_on}: record a current one.`);
    // The file: one this user uploaded and that is on no certificate yet (else 404, like a missing one).
    const upload = await loadAttachableUpload(tx, ctx.session, body.upload_id, 'upload_id', true);
    if (upload.kind !== 'taxCertificate')
      throw fieldError('upload_id', 'Upload the certificate file first (from this page).');
    const [row] = await tx
      .insert(taxCertificates)
      .values({
        customerId: store.customerId,
        storeId: store.id,
        state: CERTIFICATE_STATE,
        kind: body.kind,
        certificateNumber: body.certificate_number,
        expiresOn: body.expires_on,
        uploadId: upload.id,
        createdByEmail: ctx.session.email,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: taxCertificates.id });
    await tx
      .update(uploads)
      .set({ ownerType: 'tax_certificate', ownerId: String(row!.id) })
      .where(eq(uploads.id, upload.id));
    await writeAudit(tx, {
      at: now,
      ...ctx.actor,
      action: 'create',
      entity: 'tax_certificate',
      entityId: row!.id,
      after: { ...body, customer_id: store.customerId },
      requestId: ctx.requestId,
    });
    return row!.id;
  });
  return (await certificateById(ctx.app.database.db, id, today))!;
}

async function certificateById(db: Db, id: number, today: string): Promise<TaxCertificate | null> {
  const [row] = await selectCertificates(db, eq(taxCertificates.id, id), 'newest');
  return row ? toItem(row, today) : null;
}

/** POST /api/taxcertificates/{id}/revoke/{token}: the certificate stops exempting sales from now (409 if revoked). */
export async function revokeCertificate(ctx: ServiceCtx, input: { certificateId: number }): Promise<TaxCertificate> {
  const today = taxToday(ctx.app);
  const now = ctx.app.clock.now();
  await withTx(ctx, async (tx) => {
    const [cert] = await tx
      .select({
        id: taxCertificates.id,
        customerId: taxCertificates.customerId,
        storeId: taxCertificates.storeId,
        revokedAt: taxCertificates.revokedAt,
      })
      .from(taxCertificates)
      .where(eq(taxCertificates.id, input.certificateId))
      .for('update');
    if (!cert || !(await isRecordVisible(tx, viewerOf(ctx), cert)))
      throw new AppError('not_found', `Certificate ${input.certificateId} was not found.`);
    if (cert.revokedAt) throw new AppError('conflict', `Certificate ${cert.id} is already revoked.`);
    await tx
      .update(taxCertificates)
      .set({ revokedAt: now, revokedByEmail: ctx.session.email, updatedAt: now })
      .where(eq(taxCertificates.id, cert.id));
    await writeAudit(tx, {
      at: now,
      ...ctx.actor,
      action: 'revoke',
      entity: 'tax_certificate',
      entityId: cert.id,
      after: { customer_id: cert.customerId, revoked_at: now.toISOString() },
      requestId: ctx.requestId,
    });
  });
  return (await certificateById(ctx.app.database.db, input.certificateId, today))!;
}
