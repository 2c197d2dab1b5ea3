import { SEARCH_TOTAL_CAP, type CappedPaged } from '@pos/domain';
import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** `{ total, total_capped }` of a count that read at most SEARCH_TOTAL_CAP + 1 rows (decision 107). */
export function cappedTotal(n: number): Omit<CappedPaged<never>, 'items'> {
  return { total: Math.min(n, SEARCH_TOTAL_CAP), total_capped: n > SEARCH_TOTAL_CAP };
}

/**
 * The rows of `table` matching `where`, counted exactly up to SEARCH_TOTAL_CAP and "more" beyond:
 * `select count(*) from (select 1 from table where … limit cap + 1)`, so a list of millions costs what 1,001 rows do.
 */
export async function cappedCount(db: Db, table: PgTable, where: SQL | undefined) {
  const matches = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(SEARCH_TOTAL_CAP + 1)
    .as('matches');
  const [row] = await db.select({ n: count() }).from(matches);
  return cappedTotal(row?.n ?? 0);
}
