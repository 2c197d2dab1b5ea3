import { STORE_FILE_KINDS } from '@pos/domain';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { inList } from './columns';
import { stores } from './merchants';
import { orders, uploads } from './orders';

/**
 * A store's files (decision 160): store pictures, business licenses and reseller files. The bytes and their checks are
 * the upload's (`uploads`, owner 'store'); this row says which store, what kind, and who uploaded it when (the name as
 * the session had it then, kept for the list). A new merchant's file uploaded in the order flow is the order's
 * (`order_id`, `store_id` null) until onboarding's Complete transaction gives it the new store; `order_id` stays (which
 * order brought it in). Migration 0038.
 */
export const storeFiles = pgTable(
  'store_files',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    storeId: integer().references(() => stores.id),
    orderId: integer().references(() => orders.id),
    uploadId: integer()
      .notNull()
      .references(() => uploads.id),
    kind: text().notNull(),
    uploadedByName: text().notNull(),
    uploadedByEmail: text().notNull(),
    uploadedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('store_files_store_idx').on(t.storeId, t.uploadedAt),
    index('store_files_order_idx').on(t.orderId, t.uploadedAt),
    uniqueIndex('store_files_upload_uq').on(t.uploadId),
    check('store_files_kind_check', inList(t.kind, STORE_FILE_KINDS)),
    check('store_files_owner_check', sql`${t.storeId} is not null or ${t.orderId} is not null`),
  ],
);
