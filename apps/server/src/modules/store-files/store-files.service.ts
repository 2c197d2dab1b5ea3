import {
  isStoreFileKind,
  ORDER_STATUS,
  PREVIEWABLE_CONTENT_TYPES,
  STORE_FILE_KIND_MESSAGE,
  STORE_FILE_UPLOAD_KIND,
  type StoreFile,
  type StoreFileKind,
  type StoreFileList,
} from '@pos/domain';
import { and, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { isStoreVisible, loadVisibleOrder, viewerOf } from '../../access';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { storeFiles, stores, uploads } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError } from '../../http/errors';
import type { StoredObject } from '../../integrations/storage';
import { readSingleFile, storeUpload, type UploadOwner } from '../uploads';

/*
 * A store's files (spec §5; issue 31 item 1, decision 160): store pictures, business licenses and reseller files on the
 * customer page's store panel and the order flow's store-information step. The bytes go through the one upload service
 * (type by extension, declared type and magic bytes; ≤ 5 MB) as an upload owned by the store; the store_files row,
 * written in the same transaction, names the kind and who uploaded it when. Every call first checks that the session
 * may see the store (the store rule, decision 140): another agent's store is 404, like one that does not exist.
 *
 * A new merchant has no store before Complete: the order flow uploads to the order (`/api/orders/{orderId}/files`,
 * the order rule, the upload owned by the order, `store_files.order_id` with `store_id` null), and onboarding's
 * Complete transaction gives those files the new store (giveOrderFilesToStore: store_id set, order_id kept, the upload
 * then owned by the store). The same calls below serve both: a `Holder` is the store or the order of the path.
 */

/** The multipart field of the file; the kind comes in the text field 'kind'. */
export const STORE_FILE_FIELD = 'file';

type Log = Pick<FastifyBaseLogger, 'error'>;

/** What a path names: a store, or an order (a new merchant's files before Complete). */
export type FileHolderKey = { readonly storeId: number } | { readonly orderId: number };

/** The store or order of the path, once the session may see it. */
interface Holder {
  /** 'Store 5' / 'Order 700123', for messages. */
  readonly name: string;
  /** The rows of this holder (a file id is looked up within them). */
  readonly where: SQL;
  /** A new row's store and order, and the upload's owner. */
  readonly storeId: number | null;
  readonly orderId: number | null;
  readonly owner: UploadOwner;
  /** The customer the audit entries belong to (none yet for a new merchant's order). */
  readonly customerId: number | null;
  /** An order's: Complete (its files are the store's from then on). */
  readonly complete: boolean;
}

const storeNotFound = (storeId: number) => new AppError('not_found', `Store ${storeId} was not found.`);
const fileNotFound = (holder: Pick<Holder, 'name'>, fileId: number) =>
  new AppError('not_found', `File ${fileId} of ${holder.name.toLowerCase()} was not found.`);

/**
 * The store or order of the path, when the session may see it; else 404 worded as for a missing one (the store rule,
 * the order rule). An order onboarded already has its store: a file uploaded to it then goes to that store as well.
 */
async function visibleHolder(ctx: ServiceCtx, key: FileHolderKey): Promise<Holder> {
  const db = ctx.app.database.db;
  if ('storeId' in key) {
    const [store] = await db
      .select({ id: stores.id, customerId: stores.customerId })
      .from(stores)
      .where(eq(stores.id, key.storeId));
    if (!store || !(await isStoreVisible(db, viewerOf(ctx), key.storeId))) throw storeNotFound(key.storeId);
    return {
      name: `Store ${store.id}`,
      where: eq(storeFiles.storeId, store.id),
      storeId: store.id,
      orderId: null,
      owner: { type: 'store', id: store.id },
      customerId: store.customerId,
      complete: false,
    };
  }
  const order = await loadVisibleOrder(db, ctx.session, { id: key.orderId });
  const storeId = order.onboardedAt && order.storeId ? order.storeId : null;
  return {
    name: `Order ${order.id}`,
    where: eq(storeFiles.orderId, order.id),
    storeId,
    orderId: order.id,
    owner: storeId ? { type: 'store', id: storeId } : { type: 'order', id: order.id },
    customerId: order.customerId,
    complete: order.status === ORDER_STATUS.COMPLETE,
  };
}

const columns = {
  id: storeFiles.id,
  storeId: storeFiles.storeId,
  orderId: storeFiles.orderId,
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
type Value<C> = C extends { _: { data: infer D; notNull: infer N } } ? (N extends true ? D : D | null) : never;
type Row = { [K in keyof typeof columns]: Value<(typeof columns)[K]> };

function toStoreFile(row: Row): StoreFile {
  return {
    id: row.id,
    store_id: row.storeId,
    order_id: row.orderId,
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

async function loadFile(ctx: ServiceCtx, holder: Holder, fileId: number): Promise<Row> {
  const [row] = await ctx.app.database.db
    .select(columns)
    .from(storeFiles)
    .innerJoin(uploads, eq(uploads.id, storeFiles.uploadId))
    .where(and(eq(storeFiles.id, fileId), holder.where));
  if (!row) throw fileNotFound(holder, fileId);
  return row;
}

/** POST /api/stores/{storeId}/files/{token} and /api/orders/{orderId}/files/{token}: 'kind' and one file in 'file'. */
export async function uploadStoreFile(
  ctx: ServiceCtx,
  request: FastifyRequest,
  input: FileHolderKey,
): Promise<StoreFile> {
  const holder = await visibleHolder(ctx, input);
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
      owner: holder.owner,
      attach: async (tx, uploadId) => {
        const [row] = await tx
          .insert(storeFiles)
          .values({
            storeId: holder.storeId,
            orderId: holder.orderId,
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
          customerId: holder.customerId,
          after: {
            store_id: holder.storeId,
            ...(holder.orderId ? { order_id: holder.orderId } : {}),
            kind,
            file_name: file.fileName,
            size: file.bytes.length,
          },
          requestId: ctx.requestId,
        });
      },
    },
    request.log,
  );
  return toStoreFile(await loadFile(ctx, holder, fileId));
}

/** GET /api/stores/{storeId}/files/{token} and /api/orders/{orderId}/files/{token}: newest first. */
export async function listStoreFiles(ctx: ServiceCtx, input: FileHolderKey): Promise<StoreFileList> {
  const holder = await visibleHolder(ctx, input);
  const rows = await ctx.app.database.db
    .select(columns)
    .from(storeFiles)
    .innerJoin(uploads, eq(uploads.id, storeFiles.uploadId))
    .where(holder.where)
    .orderBy(desc(storeFiles.uploadedAt), desc(storeFiles.id));
  return { items: rows.map(toStoreFile) };
}

export interface OpenedStoreFile {
  file: StoreFile;
  object: StoredObject;
}

/** GET …/files/{fileId}/{token} of a store or an order: the bytes (a file gone from storage is a logged 404). */
export async function openStoreFile(
  ctx: ServiceCtx,
  input: FileHolderKey & { fileId: number },
  log: Log,
): Promise<OpenedStoreFile> {
  const holder = await visibleHolder(ctx, input);
  const row = await loadFile(ctx, holder, input.fileId);
  const object = await ctx.app.storage.get(row.storageKey);
  if (!object) {
    log.error({ storeFileId: row.id, storageKey: row.storageKey }, 'the file of a store file is missing from storage');
    throw fileNotFound(holder, input.fileId);
  }
  return { file: toStoreFile(row), object };
}

/**
 * DELETE …/files/{fileId}/{token}: the row and its upload go, audited; then the bytes. Through an order only while the
 * file is the order's alone (before Complete): from then on it is the store's, deleted on the customer page (409).
 */
export async function deleteStoreFile(
  ctx: ServiceCtx,
  input: FileHolderKey & { fileId: number },
  log: Log,
): Promise<void> {
  const holder = await visibleHolder(ctx, input);
  const row = await loadFile(ctx, holder, input.fileId);
  if (holder.orderId !== null && (holder.complete || row.storeId !== null)) {
    const store = row.storeId ?? holder.storeId;
    throw new AppError(
      'conflict',
      `File ${row.id} is the store's now that order ${holder.orderId} is complete${store ? ` (store ${store})` : ''}: ` +
        "delete it on the customer page's Store files panel.",
    );
  }
  await withTx(ctx, async (tx) => {
    const gone = await tx
      .delete(storeFiles)
      .where(and(eq(storeFiles.id, row.id), holder.where))
      .returning({ id: storeFiles.id });
    if (gone.length === 0) throw fileNotFound(holder, input.fileId);
    await tx.delete(uploads).where(eq(uploads.id, row.uploadRowId));
    await writeAudit(tx, {
      at: ctx.app.clock.now(),
      ...ctx.actor,
      action: 'delete',
      entity: 'store_file',
      entityId: row.id,
      customerId: holder.customerId,
      before: {
        store_id: row.storeId,
        ...(row.orderId ? { order_id: row.orderId } : {}),
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

/**
 * Onboarding's Complete transaction (decision 083; `db` is that transaction): the order's files that have no store yet
 * (a new merchant's, uploaded in the order flow) become the store's — store_id set, order_id kept (which order brought
 * them in), the upload owned by the store from now on (GET /api/uploads reads it under the store rule) — one audit
 * entry each, under the customer. Returns how many moved.
 */
export async function giveOrderFilesToStore(
  db: Db,
  input: {
    orderId: number;
    storeId: number;
    customerId: number;
    at: Date;
    actor: AuditActor;
    requestId?: string | null;
  },
): Promise<number> {
  const moved = await db
    .update(storeFiles)
    .set({ storeId: input.storeId })
    .where(and(eq(storeFiles.orderId, input.orderId), isNull(storeFiles.storeId)))
    .returning({ id: storeFiles.id, uploadId: storeFiles.uploadId, kind: storeFiles.kind });
  if (moved.length === 0) return 0;
  await db
    .update(uploads)
    .set({ ownerType: 'store', ownerId: String(input.storeId) })
    .where(
      inArray(
        uploads.id,
        moved.map((m) => m.uploadId),
      ),
    );
  for (const m of moved)
    await writeAudit(db, {
      at: input.at,
      ...input.actor,
      action: 'update',
      entity: 'store_file',
      entityId: m.id,
      customerId: input.customerId,
      before: { store_id: null, order_id: input.orderId },
      after: { store_id: input.storeId, order_id: input.orderId, kind: m.kind },
      requestId: input.requestId ?? null,
    });
  return moved.length;
}
