import {
  isStoreFileKind,
  PREVIEWABLE_CONTENT_TYPES,
  STORE_FILE_KIND_MESSAGE,
  STORE_FILE_UPLOAD_KIND,
  type StoreFile,
  type StoreFileKind,
  type StoreFileList,
} from '@pos/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { isStoreVisible, viewerOf } from '../../access';
import { withTx, type ServiceCtx } from '../../context';
import { storeFiles, stores, uploads } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError } from '../../http/errors';
import type { StoredObject } from '../../integrations/storage';
import { readSingleFile, storeUpload } from '../uploads';

/*
 * A store's files (spec §5; issue 31 item 1, decision 160): store pictures, business licenses and reseller files on the
 * customer page's store panel and the order flow's store-information step. The bytes go through the one upload service
 * (type by extension, declared type and magic bytes; ≤ 5 MB) as an upload owned by the store; the store_files row,
 * written in the same transaction, names the kind and who uploaded it when. Every call first checks that the session
 * may see the store (the store rule, decision 140): another agent's store is 404, like one that does not exist.
 */

/** The multipart field of the file; the kind comes in the text field 'kind'. */
export const STORE_FILE_FIELD = 'file';

type Log = Pick<FastifyBaseLogger, 'error'>;

const storeNotFound = (storeId: number) => new AppError('not_found', `Store ${storeId} was not found.`);
const fileNotFound = (storeId: number, fileId: number) =>
  new AppError('not_found', `File ${fileId} of store ${storeId} was not found.`);

/** The store, when the session may see it; else 404 worded as for a missing store. */
async function visibleStore(ctx: ServiceCtx, storeId: number): Promise<{ id: number; customerId: number }> {
  const db = ctx.app.database.db;
  const [store] = await db
    .select({ id: stores.id, customerId: stores.customerId })
    .from(stores)
    .where(eq(stores.id, storeId));
  if (!store || !(await isStoreVisible(db, viewerOf(ctx), storeId))) throw storeNotFound(storeId);
  return store;
}

const columns = {
  id: storeFiles.id,
  storeId: storeFiles.storeId,
  kind: storeFiles.kind,
  uploadedByName: storeFiles.uploadedByName,
  uploadedByEmail: storeFiles.uploadedByEmail,
  uploadedAt: storeFiles.uploadedAt,
  publicId: uploads.publicId,
  fileName: uploads.originalName,
  contentType: uploads.contentType,
  size: uploads.sizeBytes,
  storageKey: uploads.storageKey,
  uploadRowId: uploads.id,
};
type Row = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] };

function toStoreFile(row: Row): StoreFile {
  return {
    id: row.id,
    store_id: row.storeId,
    kind: row.kind as StoreFileKind,
    file_name: row.fileName,
    content_type: row.contentType,
    size: row.size,
    upload_id: row.publicId,
    previewable: PREVIEWABLE_CONTENT_TYPES.includes(row.contentType),
    uploaded_by_name: row.uploadedByName,
    uploaded_by_email: row.uploadedByEmail,
    uploaded_at: row.uploadedAt.toISOString(),
  };
}

async function loadFile(ctx: ServiceCtx, storeId: number, fileId: number): Promise<Row> {
  const [row] = await ctx.app.database.db
    .select(columns)
    .from(storeFiles)
    .innerJoin(uploads, eq(uploads.id, storeFiles.uploadId))
    .where(and(eq(storeFiles.id, fileId), eq(storeFiles.storeId, storeId)));
  if (!row) throw fileNotFound(storeId, fileId);
  return row;
}

/** POST /api/stores/{storeId}/files/{token}: the form's 'kind' and one file in 'file'. */
export async function uploadStoreFile(
  ctx: ServiceCtx,
  request: FastifyRequest,
  input: { storeId: number },
): Promise<StoreFile> {
  const store = await visibleStore(ctx, input.storeId);
  const file = await readSingleFile(request, STORE_FILE_FIELD);
  const kind = file.fields?.kind?.trim() ?? '';
  if (!isStoreFileKind(kind)) {
    throw new AppError('validation_failed', STORE_FILE_KIND_MESSAGE, { kind: STORE_FILE_KIND_MESSAGE });
  }
  const session = ctx.session;
  const uploadedAt = ctx.app.clock.now();
  let fileId = 0;
  await storeUpload(
    ctx,
    {
      kind: STORE_FILE_UPLOAD_KIND[kind],
      field: STORE_FILE_FIELD,
      file,
      owner: { type: 'store', id: store.id },
      attach: async (tx, uploadId) => {
        const [row] = await tx
          .insert(storeFiles)
          .values({
            storeId: store.id,
            uploadId,
            kind,
            uploadedByName: session.name,
            uploadedByEmail: session.email,
            uploadedAt,
          })
          .returning({ id: storeFiles.id });
        fileId = row!.id;
        await writeAudit(tx, {
          at: uploadedAt,
          ...ctx.actor,
          action: 'create',
          entity: 'store_file',
          entityId: fileId,
          customerId: store.customerId,
          after: { store_id: store.id, kind, file_name: file.fileName, size: file.bytes.length },
          requestId: ctx.requestId,
        });
      },
    },
    request.log,
  );
  return toStoreFile(await loadFile(ctx, store.id, fileId));
}

/** GET /api/stores/{storeId}/files/{token}: newest first. */
export async function listStoreFiles(ctx: ServiceCtx, input: { storeId: number }): Promise<StoreFileList> {
  await visibleStore(ctx, input.storeId);
  const rows = await ctx.app.database.db
    .select(columns)
    .from(storeFiles)
    .innerJoin(uploads, eq(uploads.id, storeFiles.uploadId))
    .where(eq(storeFiles.storeId, input.storeId))
    .orderBy(desc(storeFiles.uploadedAt), desc(storeFiles.id));
  return { items: rows.map(toStoreFile) };
}

export interface OpenedStoreFile {
  file: StoreFile;
  object: StoredObject;
}

/** GET /api/stores/{storeId}/files/{fileId}/{token}: the bytes (a file gone from storage is a logged 404). */
export async function openStoreFile(
  ctx: ServiceCtx,
  input: { storeId: number; fileId: number },
  log: Log,
): Promise<OpenedStoreFile> {
  await visibleStore(ctx, input.storeId);
  const row = await loadFile(ctx, input.storeId, input.fileId);
  const object = await ctx.app.storage.get(row.storageKey);
  if (!object) {
    log.error({ storeFileId: row.id, storageKey: row.storageKey }, 'the file of a store file is missing from storage');
    throw fileNotFound(input.storeId, input.fileId);
  }
  return { file: toStoreFile(row), object };
}

/** DELETE /api/stores/{storeId}/files/{fileId}/{token}: the row and its upload go, audited; then the bytes. */
export async function deleteStoreFile(
  ctx: ServiceCtx,
  input: { storeId: number; fileId: number },
  log: Log,
): Promise<void> {
  const store = await visibleStore(ctx, input.storeId);
  const row = await loadFile(ctx, input.storeId, input.fileId);
  await withTx(ctx, async (tx) => {
    const gone = await tx
      .delete(storeFiles)
      .where(and(eq(storeFiles.id, row.id), eq(storeFiles.storeId, store.id)))
      .returning({ id: storeFiles.id });
    if (gone.length === 0) throw fileNotFound(input.storeId, input.fileId);
    await tx.delete(uploads).where(eq(uploads.id, row.uploadRowId));
    await writeAudit(tx, {
      at: ctx.app.clock.now(),
      ...ctx.actor,
      action: 'delete',
      entity: 'store_file',
      entityId: row.id,
      customerId: store.customerId,
      before: {
        store_id: store.id,
        kind: row.kind,
        file_name: row.fileName,
        size: row.size,
        uploaded_by_email: row.uploadedByEmail,
        uploaded_at: row.uploadedAt.toISOString(),
      },
      requestId: ctx.requestId,
    });
  });
  await ctx.app.storage
    .delete(row.storageKey)
    .catch((err: unknown) =>
      log.error({ err, storageKey: row.storageKey }, 'could not remove the file of a deleted store file'),
    );
}
