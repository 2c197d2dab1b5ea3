import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../client';

/**
 * Insert rows in statements of a few hundred rows. The rows travel as one JSON parameter expanded by
 * `json_populate_recordset` — on PGlite about four times faster than thousands of bound parameters. Rows are
 * grouped by the keys they set, so a column a row leaves out still gets its database default.
 */
export async function insertMany<T extends PgTable>(db: Db, table: T, rows: PgInsertValue<T>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table) as Record<string, { name: string; keyAsName: boolean }>;
  const columnName = (key: string) => {
    const c = columns[key];
    if (!c) throw new Error(`${getTableName(table)} has no column ${key}`);
    return c.keyAsName ? toSnakeCase(c.name) : c.name;
  };
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const row of rows as Record<string, unknown>[]) {
    const keys = Object.keys(row).filter((k) => row[k] !== undefined);
    const signature = keys.join(',');
    let list = groups.get(signature);
    if (!list) groups.set(signature, (list = []));
    list.push(Object.fromEntries(keys.map((k) => [columnName(k), row[k]])));
  }
  const tableSql = sql.identifier(getTableName(table));
  for (const list of groups.values()) {
    const names = sql.join(
      Object.keys(list[0]!).map((n) => sql.identifier(n)),
      sql`, `,
    );
    for (let i = 0; i < list.length; i += 500) {
      const json = JSON.stringify(list.slice(i, i + 500));
      await db.execute(
        sql`insert into ${tableSql} (${names}) select ${names} from json_populate_recordset(null::${tableSql}, ${json}::json)`,
      );
    }
  }
}

/** Take `n` ids from a table's identity sequence (so explicit ids never collide with later inserts). */
export async function reserveIds(db: Db, table: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const res = (await db.execute(
    sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${n}::int)`,
  )) as unknown as { rows: { id: number | string }[] };
  return res.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** After rows were inserted with explicit ids outside the sequence, move the sequence past them. */
export async function resetSequence(db: Db, table: string): Promise<void> {
  await db.execute(
    sql`select setval(pg_get_serial_sequence(${table}, 'id'), max(id)) from ${sql.identifier(table)} having max(id) is not null`,
  );
}
