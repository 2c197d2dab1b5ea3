import { z } from 'zod';
import { UPLOAD_MAX_BYTES } from '../limits';

/*
 * Upload contracts (spec §5 uploads, §7 Other). Every upload goes through one server service: multipart with
 * exactly one file in the kind's field, ≤ 5,242,880 bytes, type checked by extension, declared type and magic
 * bytes (rules/upload.ts). Paths:
 *   POST /api/customers/paymentinstruments/check/addimage/{token}   multipart field 'checkimage'  → 201 uploadInfo
 *   POST /api/customers/paymentinstruments/achcad/addimage/{token}  multipart field 'achcadimage' → 201 uploadInfo
 *   GET  /api/uploads/{id}/{token}  → the file (its stored content type, Content-Disposition: attachment), when the
 *                                    session may read it (its owner record's rule, access/upload-access.ts), else 404
 * Every API surface names an upload by its public id (decision 140): 24 random bytes (192 bits) in base64url, made by
 * the server — never the table's sequential key, which stays internal (foreign keys). An id of another shape is a 400.
 */

/** The random bytes of an upload's public id. */
export const UPLOAD_PUBLIC_ID_BYTES = 24;
/** Its shape: base64url (no padding) of UPLOAD_PUBLIC_ID_BYTES bytes — 32 characters. */
export const UPLOAD_PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{32}$/;
export const UPLOAD_ID_MESSAGE = 'This is not an upload id: upload the file again.';

/** An upload's public id, as every contract takes and gives it. */
export const uploadPublicId = z
  .string({ message: UPLOAD_ID_MESSAGE })
  .regex(UPLOAD_PUBLIC_ID_PATTERN, { message: UPLOAD_ID_MESSAGE });

export const uploadInfo = z.object({
  /** The public id (GET /api/uploads/{upload_id}/{token}; the upload_id of the call that attaches it). */
  upload_id: uploadPublicId,
  /** Hex SHA-256 of the bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().min(1).max(UPLOAD_MAX_BYTES),
  /** The content type the server stores and serves (from the bytes, not from the browser). */
  content_type: z.string(),
  original_name: z.string(),
});
export type UploadInfo = z.infer<typeof uploadInfo>;

export const uploadFileParams = z.object({
  id: uploadPublicId,
  token: z.string(),
});
