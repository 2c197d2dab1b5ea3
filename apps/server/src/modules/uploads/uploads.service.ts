import {
  FILE_TYPE_CONTENT_TYPES,
  UPLOAD_KINDS,
  validateUpload,
  validateUploadBytes,
  type FileType,
  type UploadErrorCode,
  type UploadInfo,
  type UploadKind,
  type UploadOwnerType,
} from '@pos/domain';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { loadReadableUpload } from '../../access';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, type AppErrorCode } from '../../http/errors';
import type { StoredObject } from '../../integrations/storage';
import { newStorageKey, newUploadPublicId } from '../../lib/storage-key';
import { readSingleFile, type ReceivedFile } from './multipart';

/** Where the upload service reports a file it could not clean up or find (the request's log). */
export type UploadLog = Pick<FastifyBaseLogger, 'error'>;

/** What an upload belongs to, when the caller knows (e.g. { type: 'order', id: 500123 }). */
export interface UploadOwner {
  type: UploadOwnerType;
  id: number;
}

/** A stored upload: its internal key (foreign keys of the record that attaches it) and what the API answers. */
export interface StoredUpload {
  id: number;
  info: UploadInfo;
}

/** The multipart field of a kind: the spec's name where it has one ('checkimage', 'achcadimage'), else 'file'. */
export function uploadFieldOf(kind: UploadKind): string {
  const rule = UPLOAD_KINDS[kind] as { multipartField?: string };
  return rule.multipartField ?? 'file';
}

const STATUS_OF_RULE: Readonly<Record<UploadErrorCode, AppErrorCode>> = {
  missing_name: 'validation_failed',
  empty_file: 'validation_failed',
  too_large: 'payload_too_large',
  bad_extension: 'unsupported_media_type',
  bad_content_type: 'unsupported_media_type',
  unrecognized_content: 'unsupported_media_type',
  content_not_allowed: 'unsupported_media_type',
  name_content_mismatch: 'unsupported_media_type',
};

/**
 * Check a received file against its kind with the domain rules: name + declared type + size
 * (`validateUpload`), then the bytes and that they are what the name says (`validateUploadBytes`)
 * (a PNG named '.pdf' is refused even where both PNG and PDF are allowed). Returns the sniffed type.
 */
export function checkReceivedFile(
  kind: UploadKind,
  file: Pick<ReceivedFile, 'fileName' | 'declaredType' | 'bytes'>,
  field: string,
): FileType {
  const refuse = (code: UploadErrorCode, message: string) =>
    new AppError(STATUS_OF_RULE[code], message, { [field]: message });
  const described = validateUpload({
    kind,
    fileName: file.fileName,
    contentType: file.declaredType,
    size: file.bytes.length,
  });
  if (!described.ok) throw refuse(described.code, described.message);
  const content = validateUploadBytes(kind, file.bytes, file.fileName);
  if (!content.ok) throw refuse(content.code, content.message);
  return content.type;
}

/**
 * The upload service every upload goes through: read one file from the multipart request (field of the
 * kind), check it, store it under a server-made key, and record the `uploads` row (with its random public id) and its
 * audit entry in one transaction. Nothing is written before every check passed; if recording fails the stored file is
 * removed. Without `owner` the upload is attached to nothing: readable by its uploader alone until a call of the same
 * user attaches it (access/uploads.ts loadAttachableUpload).
 */
export async function receiveUpload(
  ctx: ServiceCtx,
  request: FastifyRequest,
  options: { kind: UploadKind; field?: string; owner?: UploadOwner },
): Promise<StoredUpload> {
  const field = options.field ?? uploadFieldOf(options.kind);
  const file = await readSingleFile(request, field);
  return storeUpload(ctx, { kind: options.kind, field, file, owner: options.owner }, request.log);
}

export async function storeUpload(
  ctx: ServiceCtx,
  input: {
    kind: UploadKind;
    field: string;
    file: ReceivedFile;
    owner?: UploadOwner;
    /** Record what the upload is for in the same transaction (e.g. a store's file row, decision 160). */
    attach?: (tx: Db, uploadId: number) => Promise<void>;
  },
  log: UploadLog,
): Promise<StoredUpload> {
  const { kind, file } = input;
  const type = checkReceivedFile(kind, file, input.field);
  const now = ctx.app.clock.now();
  const storageKey = newStorageKey(kind, type, now);
  const contentType = FILE_TYPE_CONTENT_TYPES[type][0]!;
  const publicId = newUploadPublicId();
  await ctx.app.storage.put(storageKey, file.bytes, contentType);
  try {
    const id = await withTx(ctx, async (tx) => {
      const [row] = await tx
        .insert(uploads)
        .values({
          publicId,
          kind,
          originalName: file.fileName,
          contentType,
          sizeBytes: file.bytes.length,
          sha256: file.sha256,
          storageKey,
          ownerType: input.owner?.type ?? null,
          ownerId: input.owner ? String(input.owner.id) : null,
          createdByEmail: ctx.session.email,
          createdAt: now,
        })
        .returning({ id: uploads.id });
      await writeAudit(tx, {
        at: now,
        ...ctx.actor,
        action: 'create',
        entity: 'upload',
        entityId: row!.id,
        after: {
          upload_id: publicId,
          kind,
          original_name: file.fileName,
          content_type: contentType,
          size: file.bytes.length,
          sha256: file.sha256,
          owner: input.owner ?? null,
        },
        requestId: ctx.requestId,
      });
      if (input.attach) await input.attach(tx, row!.id);
      return row!.id;
    });
    return {
      id,
      info: {
        upload_id: publicId,
        sha256: file.sha256,
        size: file.bytes.length,
        content_type: contentType,
        original_name: file.fileName,
      },
    };
  } catch (err) {
    await ctx.app.storage
      .delete(storageKey)
      .catch((cleanupError: unknown) =>
        log.error({ err: cleanupError, storageKey }, 'could not remove the file of a failed upload'),
      );
    throw err;
  }
}

export interface OpenedUpload {
  fileName: string;
  contentType: string;
  size: number;
  object: StoredObject;
}

/**
 * An upload's file for download (GET /api/uploads/{id}/{token}), named by its public id. Readable exactly when the
 * record it belongs to is (access/uploads.ts, domain upload-access.ts); not attached yet: by its uploader only. Unknown
 * and not readable are the same 404; a readable upload whose file is gone is a 404 of its own (logged).
 */
export async function openUpload(ctx: ServiceCtx, input: { publicId: string }, log: UploadLog): Promise<OpenedUpload> {
  const row = await loadReadableUpload(ctx.app.database.db, ctx.session, input.publicId);
  const object = await ctx.app.storage.get(row.storageKey);
  if (!object) {
    log.error({ uploadId: row.id, storageKey: row.storageKey }, 'the file of an upload is missing from storage');
    throw new AppError('not_found', `The file of upload ${row.publicId} is missing from storage.`);
  }
  return { fileName: row.originalName, contentType: row.contentType, size: row.sizeBytes, object };
}
