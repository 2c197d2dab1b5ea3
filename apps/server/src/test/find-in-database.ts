import type { Database } from '../db/client';

/** Column types whose values are text when cast (`::text`): strings, JSON, arrays, enums. */
const TEXT_LIKE_TYPES = ['text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED'];

/**
 * Where any of `needles` occurs in the database: every text, varchar, json/jsonb, array and enum column of every
 * base table of every schema (ours and the job queue's), searched with `position(needle in column::text)`.
 * Answers `schema.table.column: needle` for each hit (empty = found nowhere).
 */
export async function findInDatabase(database: Database, needles: readonly string[]): Promise<string[]> {
  const columns = await database.query<{ table_schema: string; table_name: string; column_name: string }>(
    `select c.table_schema, c.table_name, c.column_name
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where t.table_type = 'BASE TABLE'
        and c.table_schema not in ('pg_catalog', 'information_schema')
        and c.data_type = any($1)
      order by 1, 2, 3`,
    [TEXT_LIKE_TYPES],
  );
  const byTable = new Map<string, string[]>();
  for (const c of columns) {
    const table = `"${c.table_schema}"."${c.table_name}"`;
    byTable.set(table, [...(byTable.get(table) ?? []), c.column_name]);
  }
  const hits: string[] = [];
  for (const [table, cols] of byTable) {
    for (const needle of needles) {
      const counts = cols.map((col, i) => `count(*) filter (where position($1 in "${col}"::text) > 0)::int as c${i}`);
      const [row] = await database.query<Record<string, number>>(`select ${counts.join(', ')} from ${table}`, [needle]);
      cols.forEach((col, i) => {
        if (Number(row?.[`c${i}`] ?? 0) > 0) hits.push(`${table}.${col}: ${needle}`);
      });
    }
  }
  return hits;
}

/** How many base tables and text-like columns `findInDatabase` searches (a test asserts it searched something). */
export async function searchedColumnCount(database: Database): Promise<number> {
  const [row] = await database.query<{ n: number }>(
    `select count(*)::int as n
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where t.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema')
        and c.data_type = any($1)`,
    [TEXT_LIKE_TYPES],
  );
  return Number(row?.n ?? 0);
}
