import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type Logger, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { SERVER_DIR } from '../config';
import * as schema from './schema';

export { schema };
export type Schema = typeof schema;
/** The Drizzle database (or an open transaction on it); the same type for PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DbKind = 'pglite' | 'postgres';

/** The committed migrations (from apps/server: this module may run from the bundle in apps/server/dist). */
export const MIGRATIONS_DIR = path.join(SERVER_DIR, 'src/db/migrations');

export interface Database {
  readonly kind: DbKind;
  readonly db: Db;
  /** Run SQL without parameters (several statements allowed). */
  exec(sqlText: string): Promise<void>;
  /**
   * Run one parameterised statement and return its rows. `prepared`: a name under which PostgreSQL keeps the
   * statement parsed and planned on each connection (hot statements whose plan does not depend on the values; a
   * name must always mean the same text). PGlite ignores it.
   */
  query<T = Record<string, unknown>>(sqlText: string, params?: unknown[], options?: { prepared?: string }): Promise<T[]>;
  close(): Promise<void>;
}

/** Told the text of every statement a Database runs (Drizzle's, inside transactions too, and query/exec). */
export type OnQuery = (sqlText: string) => void;

export interface PgliteOptions {
  /** Tests count queries with this (the customer page's N+1 test); the product passes nothing. */
  onQuery?: OnQuery;
  /** Folder to persist to; omit for an in-memory database. */
  dataDir?: string;
  /** A tarball made by `dumpDataDir` to start from (tests use a migrated template). */
  loadDataDir?: Blob;
}

export async function openPglite(options: PgliteOptions = {}): Promise<Database & { pglite: PGlite }> {
  const pglite = await PGlite.create(options.dataDir, {
    extensions: { pg_trgm },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const onQuery = options.onQuery;
  const db = drizzlePglite({
    client: pglite,
    schema,
    casing: 'snake_case',
    logger: queryLogger(onQuery),
  }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    pglite,
    async exec(sqlText) {
      onQuery?.(sqlText);
      await pglite.exec(sqlText);
    },
    async query<T>(sqlText: string, params: unknown[] = []) {
      onQuery?.(sqlText);
      const res = await pglite.query<T>(sqlText, params);
      return res.rows;
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}

export async function openPostgres(
  url: string,
  options: { max?: number; onQuery?: OnQuery } = {},
): Promise<Database & { pool: pg.Pool }> {
  const onQuery = options.onQuery;
  // Every connection of the app: no JIT compilation (it costs 20–30 ms on plans over jit_above_cost and pays off
  // only on long analytic queries, which may `set local jit = on`), and no synchronized sequential scans (a scan
  // under a LIMIT must find the same first rows on every call, decision 111).
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: '-c jit=off -c synchronize_seqscans=off',
  });
  // A pool error on an idle client must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case', logger: queryLogger(onQuery) }) as unknown as Db;
  let closed = false;
  return {
    kind: 'postgres',
    db,
    pool,
    async exec(sqlText) {
      onQuery?.(sqlText);
      await pool.query(sqlText);
    },
    async query<T>(sqlText: string, params: unknown[] = [], options: { prepared?: string } = {}) {
      onQuery?.(sqlText);
      const res = options.prepared
        ? await pool.query({ name: options.prepared, text: sqlText, values: params })
        : await pool.query(sqlText, params);
      return res.rows as T[];
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** Drizzle's logger seam, only when someone listens (otherwise Drizzle's default: no logger). */
function queryLogger(onQuery: OnQuery | undefined): Logger | undefined {
  return onQuery ? { logQuery: (sqlText) => onQuery(sqlText) } : undefined;
}

/** Where pg-boss keeps the job tables (same database as the product). */
export const JOB_SCHEMA = 'pgboss';

/**
 * Apply every committed migration that has not run yet, and install the job queue's tables (pg-boss's own
 * schema, at the version of the installed pg-boss; pg-boss migrates it itself on a later upgrade).
 */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
  } else {
    await migratePg(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
  const installed = await database.query<{ t: string | null }>(
    `select to_regclass('${JOB_SCHEMA}.version')::text as t`,
  );
  if (!installed[0]?.t) await database.exec(PgBoss.getConstructionPlans(JOB_SCHEMA));
}

/**
 * A statement written with numbered parameters (`$1`, `$2`…) as a drizzle `sql` object with those values bound, so
 * it can run on a transaction (`tx.execute(numberedSql(text, params))`) — `database.query` runs on the pool.
 * A JS array value is spread into a list by drizzle: pass an array as PostgreSQL's array text (`'{1,2}'`).
 */
export function numberedSql(text: string, params: readonly unknown[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, m.index)));
    const i = Number(m[1]) - 1;
    if (i < 0 || i >= params.length) throw new Error(`numberedSql: $${m[1]} has no value`);
    chunks.push(sql`${params[i]}`);
    last = m.index + m[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}
