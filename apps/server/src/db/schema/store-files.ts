import { STORE_FILE_KINDS } from '@pos/domain';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { inList } from './columns';
import { stores } from './merchants';
import { uploads } from './orders';

/**
 * A store's files (decision 160): store pictures, business licenses and reseller files. The bytes and their checks are
 * the upload's (`uploads`, owner 'store'); this row says which store, what kind, and who uploaded it when (the name as
 * the session had it then, kept for the list).
 */
export const storeFiles = pgTable(
  'store_files',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    storeId: integer()
      .notNull()
      .references(() => stores.id),
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
    uniqueIndex('store_files_upload_uq').on(t.uploadId),
    check('store_files_kind_check', inList(t.kind, STORE_FILE_KINDS)),
  ],
);
