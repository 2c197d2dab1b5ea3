import { sql, type SQL } from 'drizzle-orm';
import { integer, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** `created_at`, `updated_at` on every table. */
export const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
};

/** Optimistic concurrency: an edit names the version it read; a stale one gets 409. */
export const version = { version: integer().notNull().default(1) };

const quote = (v: string | number) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`);

/** SQL for `col in ('a','b')`, used in CHECK constraints so an unknown code cannot be stored. */
export function inList(column: AnyPgColumn, values: readonly (string | number)[]): SQL {
  return sql`${column} in (${sql.raw(values.map(quote).join(', '))})`;
}

/** Money is integer cents with a currency; most amounts may not be negative. */
export function nonNegative(column: AnyPgColumn): SQL {
  return sql`${column} >= 0`;
}
