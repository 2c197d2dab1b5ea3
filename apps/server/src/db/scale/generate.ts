/**
 * npm run seed:scale -- --stores N [--batch 50000] [--parallel 2]
 *
 * Fills the PostgreSQL database at DATABASE_URL with N more stores and proportional customers, terminals,
 * plans, 12 invoices per plan, transactions and orders, with set-based SQL (INSERT … SELECT generate_series),
 * printing progress. Applies migrations first. For speed, foreign-key triggers are skipped during the load
 * (session_replication_role = replica; the generator writes consistent ids) and the secondary indexes of the
 * filled tables are dropped first and rebuilt after (their definitions are kept in app_meta until then, so a
 * run that dies half-way gets them back on the next run).
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { migrateDatabase, openPostgres } from '../client';
import { rangeStatements, SCALE_TABLES, type Offsets } from './scale.sql';

function arg(name: string, fallback?: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i > -1 ? process.argv[i + 1] : undefined;
  if (raw === undefined) {
    if (fallback === undefined) throw new Error(`--${name} is required`);
    return fallback;
  }
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

async function maxId(client: pg.PoolClient, table: string): Promise<number> {
  const { rows } = await client.query<{ m: string | null }>(`select max(id) as m from ${table}`);
  return Number(rows[0]?.m ?? 0);
}

const INDEX_META_KEY = 'scale_dropped_indexes';

async function restoreIndexes(pool: pg.Pool, parallel: number) {
  const { rows } = await pool.query<{ value: Array<{ name: string; def: string }> }>(
    `select value from app_meta where key = $1`,
    [INDEX_META_KEY],
  );
  const defs = rows[0]?.value ?? [];
  if (!defs.length) return;
  console.log(`  rebuilding ${defs.length} indexes…`);
  const t0 = performance.now();
  let i = 0;
  async function builder() {
    const client = await pool.connect();
    try {
      await client.query(`set maintenance_work_mem = '512MB'`);
      for (;;) {
        const d = defs[i++];
        if (!d) return;
        await client.query(d.def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
      }
    } finally {
      client.release();
    }
  }
  await Promise.all(Array.from({ length: parallel }, builder));
  await pool.query(`delete from app_meta where key = $1`, [INDEX_META_KEY]);
  console.log(`  indexes rebuilt in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function dropIndexes(pool: pg.Pool) {
  const { rows } = await pool.query<{ name: string; def: string }>(
    `select i.indexname as name, i.indexdef as def from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = any($1::text[])
       and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [[...SCALE_TABLES]],
  );
  await pool.query(
    `insert into app_meta (key, value) values ($1, $2::jsonb) on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [INDEX_META_KEY, JSON.stringify(rows)],
  );
  for (const r of rows) await pool.query(`drop index if exists "${r.name}"`);
  console.log(`  dropped ${rows.length} secondary indexes for the load`);
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('seed:scale fills a PostgreSQL server: set DATABASE_URL=postgres://user@host:5432/db');
    process.exit(2);
  }
  const stores = arg('stores');
  const batch = Math.min(arg('batch', 50_000), stores);
  const parallel = arg('parallel', 2);

  const database = await openPostgres(url, { max: parallel + 1 });
  await migrateDatabase(database);
  const pool = database.pool;

  const started = performance.now();
  const setup = await pool.connect();
  let offsets: Offsets;
  try {
    const customer = await maxId(setup, 'customers');
    const store = await maxId(setup, 'stores');
    // Stores and customers move in step (2 stores per customer): start both on a fresh, aligned block.
    offsets = {
      customer,
      store,
      terminal: await maxId(setup, 'terminals'),
      plan: await maxId(setup, 'customer_payment_plans'),
      invoice: await maxId(setup, 'invoices'),
      transaction: await maxId(setup, 'transactions'),
      order: await maxId(setup, 'orders'),
    };
  } finally {
    setup.release();
  }
  const statements = rangeStatements(offsets);
  await restoreIndexes(pool, parallel); // a previous run that died half-way
  await dropIndexes(pool);
  console.log(
    `seed:scale: ${stores.toLocaleString('en-US')} stores in batches of ${batch.toLocaleString('en-US')}, ${parallel} at a time`,
  );

  const ranges: Array<[number, number]> = [];
  // Batches start on odd store numbers so each customer's two stores land in the same batch.
  const even = batch % 2 === 0 ? batch : batch + 1;
  for (let a = 1; a <= stores; a += even) ranges.push([a, Math.min(stores, a + even - 1)]);

  let done = 0;
  let next = 0;
  async function worker() {
    const client = await pool.connect();
    try {
      await client.query(`set session_replication_role = replica`);
      await client.query(`set synchronous_commit = off`);
      for (;;) {
        const range = ranges[next++];
        if (!range) return;
        await client.query('begin');
        for (const statement of statements) await client.query(statement, range);
        await client.query('commit');
        done += range[1] - range[0] + 1;
        const secs = (performance.now() - started) / 1000;
        const rate = done / secs;
        const eta = (stores - done) / rate;
        console.log(
          `  ${done.toLocaleString('en-US')} / ${stores.toLocaleString('en-US')} stores (${Math.round((100 * done) / stores)}%)` +
            `  ${secs.toFixed(0)} s elapsed, ~${eta.toFixed(0)} s left`,
        );
      }
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(parallel, ranges.length) }, worker));
  } finally {
    await restoreIndexes(pool, parallel);
  }

  // Identity sequences must continue after the explicit ids.
  for (const table of SCALE_TABLES) {
    await pool.query(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
  }
  // The load ran without triggers (replica): the report facts (decision 137) are summed once from what it wrote.
  console.log('  report facts…');
  await pool.query(`select report_facts_rebuild()`);
  // …and the journal (issue 28, decision 145): every invoice, payment, receipt, memo and write-off it wrote posted
  // set-based by journal_rebuild() — the same journal_expected_* functions the triggers post by — so the journal
  // equals the old figures (the ledger check compares them).
  console.log('  journal…');
  const t1 = performance.now();
  const posted = await pool.query<{ n: number }>(`select journal_rebuild() as n`);
  console.log(
    `  journal: ${Number(posted.rows[0]?.n ?? 0).toLocaleString('en-US')} lines in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
  );
  // VACUUM too: a freshly loaded table has no visibility map yet, and the reports' index-only scans (decision 137)
  // would visit every row's page to learn it is visible.
  console.log('  vacuuming and analyzing…');
  await pool.query(`vacuum (analyze) ${[...SCALE_TABLES, 'journal_entries', 'journal_lines'].join(', ')}`);
  const counts = await pool.query<{ t: string; n: string }>(
    SCALE_TABLES.map((t) => `select '${t}' as t, count(*)::text as n from ${t}`).join(' union all '),
  );
  console.log(`seed:scale done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.table(Object.fromEntries(counts.rows.map((r) => [r.t, Number(r.n)])));
  await database.close();
}

await main();
