import { TEST_STORE_TYPES } from '@pos/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/*
 * The SQL twin of the domain's isBillableStoreType (codes/sales.ts, decision 149): a record of a test (T) or demo (D)
 * store is never billed, charged, dunned or counted in a report; a record with no store is. One expression, given the
 * SQL of the record's store id: an anti-probe of the partial index stores_not_billable_idx (migration 0034), which
 * holds only the test and demo stores — a hashed anti-join over a few rows in a set-based statement, one index probe
 * per row otherwise. billable-stores.test.ts compares it with the domain rule for every store type.
 */

/** The non-billable store types as an SQL list: ('T', 'D'). */
export const NOT_BILLABLE_STORE_TYPES_SQL = `(${TEST_STORE_TYPES.map((t) => `'${t}'`).join(', ')})`;

/** True when the store `storeId` (an SQL expression; null: no store) is billable. */
export function billableStoreSql(storeId: string): string {
  return `not exists (select 1 from stores nbs where nbs.id = ${storeId} and nbs.store_type in ${NOT_BILLABLE_STORE_TYPES_SQL})`;
}

/** The same for Drizzle queries: the store id column of the record. */
export function billableStoreWhere(storeId: AnyPgColumn | SQL): SQL<boolean> {
  return sql<boolean>`not exists (select 1 from stores nbs where nbs.id = ${storeId} and nbs.store_type in ${sql.raw(NOT_BILLABLE_STORE_TYPES_SQL)})`;
}
