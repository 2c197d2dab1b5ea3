import { z } from 'zod';
import { UPLOAD_OWNER_READERS } from '../access/upload-access';
import type { Permission } from '../access/permissions';
import { UPLOAD_KINDS, type UploadKind } from '../rules/upload';
import { idParam } from './customers';
import { uploadPublicId } from './uploads';

/*
 * A store's files (spec §5 uploads; issue 31 item 1, decision 160): store pictures, business licenses and reseller
 * files, each checked by the domain's upload rules (rules/upload.ts: types by extension, declared type and magic bytes;
 * ≤ 5,242,880 bytes). Paths (token last, as every route):
 *   POST   /api/stores/{storeId}/files/{token}            multipart: field 'kind' (below) then one file in 'file' → 201
 *   GET    /api/stores/{storeId}/files/{token}            the store's files, newest first
 *   GET    /api/stores/{storeId}/files/{fileId}/{token}   the file (?size=thumb: an image's preview; see decision 160)
 *   DELETE /api/stores/{storeId}/files/{fileId}/{token}   remove it (audited)
 * A store the session may not see is 404, like one that does not exist (decision 140).
 *
 * A new merchant has no store until Complete (onboarding makes it, decision 083): the order flow uploads its files to
 * the order instead, under the order rule (an order the session may not see is 404), and the Complete transaction gives
 * them the new store (store_id set; order_id kept):
 *   POST   /api/orders/{orderId}/files/{token}            multipart, as the store's → 201
 *   GET    /api/orders/{orderId}/files/{token}            the order's files, newest first
 *   GET    /api/orders/{orderId}/files/{fileId}/{token}   the file (?size=thumb as the store's)
 *   DELETE /api/orders/{orderId}/files/{fileId}/{token}   the order's editors, until the file is the store's (Complete)
 */

/** The kinds of store file, as the API names them, and the domain's upload kind of each. */
export const STORE_FILE_KINDS = ['store_picture', 'business_license', 'reseller_file'] as const;
export type StoreFileKind = (typeof STORE_FILE_KINDS)[number];

export const STORE_FILE_UPLOAD_KIND: Readonly<Record<StoreFileKind, UploadKind>> = {
  store_picture: 'storePicture',
  business_license: 'businessLicense',
  reseller_file: 'resellerFile',
};

/** 'Store picture', 'Business license', 'Reseller file'. */
export const STORE_FILE_KIND_LABELS: Readonly<Record<StoreFileKind, string>> = {
  store_picture: 'Store picture',
  business_license: 'Business license',
  reseller_file: 'Reseller file',
};

export const STORE_FILE_KIND_MESSAGE = `Choose what the file is: ${STORE_FILE_KINDS.map((k) => STORE_FILE_KIND_LABELS[k].toLowerCase()).join(', ')}.`;

export function isStoreFileKind(value: unknown): value is StoreFileKind {
  return typeof value === 'string' && (STORE_FILE_KINDS as readonly string[]).includes(value);
}

/** The upload rule label of a store file kind ('Store pictures'), for messages. */
export function storeFileKindRule(kind: StoreFileKind) {
  return UPLOAD_KINDS[STORE_FILE_UPLOAD_KIND[kind]];
}

export const storeFile = z.object({
  id: z.number().int().positive(),
  /** The store it belongs to; null while it is a new merchant's order's file (until Complete). */
  store_id: z.number().int().positive().nullable(),
  /** The order it was uploaded to in the order flow (kept after Complete); null when uploaded to the store. */
  order_id: z.number().int().positive().nullable(),
  kind: z.enum(STORE_FILE_KINDS),
  file_name: z.string(),
  content_type: z.string(),
  size: z.number().int().positive(),
  /** The upload's public id (GET /api/uploads/{upload_id}/{token} reads it too). */
  upload_id: uploadPublicId,
  /** Whether the browser can show it as an image (PNG, JPEG, GIF; not HEIC or PDF). */
  previewable: z.boolean(),
  uploaded_by_name: z.string(),
  uploaded_by_email: z.string(),
  uploaded_at: z.string(),
});
export type StoreFile = z.infer<typeof storeFile>;

export const storeFileList = z.object({ items: z.array(storeFile) });
export type StoreFileList = z.infer<typeof storeFileList>;

export const storeFileParams = z.object({ storeId: idParam, fileId: idParam, token: z.string() });
export const orderFileParams = z.object({ orderId: idParam, fileId: idParam, token: z.string() });
export const storeFileQuery = z.object({ size: z.enum(['thumb', 'full']).optional() });

/** Content types a browser shows in an <img> (HEIC is not among them). */
export const PREVIEWABLE_CONTENT_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif'];

/*
 * Who may do what with a store's files (decision 160), always within the store rule (another agent's store is 404):
 * read — whoever reads a store's uploads (customer details, or the orders privileges: a rep on the order flow);
 * upload — the customer page's editors and the order flow's reps; delete — the customer page's editors only.
 */
export const STORE_FILE_READERS: readonly Permission[] = UPLOAD_OWNER_READERS.store;
export const STORE_FILE_UPLOADERS: readonly Permission[] = [
  'customer_details_edit',
  'search_orders_edit',
  'create_distributor_orders',
];
export const STORE_FILE_DELETERS: readonly Permission[] = ['customer_details_edit'];
/** An order's files (a new merchant's, before Complete): read by its readers, removed by the order's editors. */
export const ORDER_FILE_READERS: readonly Permission[] = UPLOAD_OWNER_READERS.order;
export const ORDER_FILE_DELETERS: readonly Permission[] = ['search_orders_edit', 'create_distributor_orders'];
