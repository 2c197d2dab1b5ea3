import { z } from 'zod';
import { UPLOAD_MAX_BYTES } from '../limits';

/*
 * Upload contracts (spec §5 uploads, §7 Other). Every upload goes through one server service: multipart with
 * exactly one file in the kind's field, ≤ 5,242,880 bytes, type checked by extension, declared type and magic
 * bytes (rules/upload.ts). Paths:
 *   POST /api/customers/paymentinstruments/check/addimage/{token}   multipart field 'checkimage'  → 201 uploadInfo
 *   POST /api/customers/paymentinstruments/achcad/addimage/{token}  multipart field 'achcadimage' → 201 uploadInfo
 *   GET  /api/uploads/{id}/{token}  → the file (its stored content type, Content-Disposition: attachment)
 */

export const uploadInfo = z.object({
  upload_id: z.number().int().positive(),
  /** Hex SHA-256 of the bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().min(1).max(UPLOAD_MAX_BYTES),
  /** The content type the server stores and serves (from the bytes, not from the browser). */
  content_type: z.string(),
  original_name: z.string(),
});
export type UploadInfo = z.infer<typeof uploadInfo>;

export const uploadFileParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  token: z.string(),
});
