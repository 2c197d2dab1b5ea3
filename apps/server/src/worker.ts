/**
 * `npm run worker`: job workers as their own process, for scale. Several of these (and servers with
 * JOBS_INLINE_WORKERS=true) can share one PostgreSQL: pg-boss hands each job to one worker at a time.
 * Needs DATABASE_URL — the embedded database (PGlite) belongs to the one `npm start` process, which runs the
 * workers itself. SIGTERM/SIGINT: stop taking jobs, let active ones finish (up to 10 s), exit.
 */
import { ConfigError, loadConfig, type AppConfig } from './config';
import { createAppContext } from './context';
import { JOB_SCHEMA, openPostgres, type Database } from './db/client';
import { JobQueue } from './jobs/queue';
import { startWorkers } from './jobs/registry';
import { registerListeners } from './listeners';
import { exitGracefully } from './lib/graceful-exit';

function fail(message: string): never {
  console.error(`\npos-backoffice worker: ${message}\n`);
  process.exit(1);
}

let config: AppConfig;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}

if (!config.databaseUrl) {
  fail(
    'DATABASE_URL is not set. `npm run worker` runs against a PostgreSQL server shared with the API servers. ' +
      'With the embedded database (PGlite, no DATABASE_URL) the data directory belongs to the `npm start` process, ' +
      'which already runs the job workers itself (JOBS_INLINE_WORKERS=true, the default) — no separate worker is needed.',
  );
}

let database: Database;
try {
  database = await openPostgres(config.databaseUrl);
  const [installed] = await database.query<{ jobs: string | null; migrations: string | null }>(
    `select to_regclass('${JOB_SCHEMA}.version')::text as jobs, to_regclass('drizzle.__drizzle_migrations')::text as migrations`,
  );
  if (!installed?.jobs || !installed.migrations) {
    await database.close();
    fail(
      'the database at DATABASE_URL is not migrated yet: start the server once (`npm start`) or run `npm run db:migrate`, then start the worker.',
    );
  }
} catch (err) {
  fail(`could not open the database: ${(err as Error).message}`);
}

// The same context the server makes (SMTP_URL or the Mailbox; CRM_URL or the local CRM; …), without HTTP.
// This process sends the scheduled jobs when due too (pg-boss sends each once however many processes watch).
const ctx = await createAppContext({ config, database, queue: new JobQueue(database, { runSchedules: true }) });
const queue = ctx.queue;
registerListeners();

const stop = exitGracefully({
  graceMs: 15_000,
  database,
  announce: (signal) => console.log(`pos-backoffice worker: ${signal}, finishing active jobs`),
  stop: () => queue.stop(),
});

try {
  const workers = await startWorkers(queue, ctx);
  console.log(
    `pos-backoffice worker ${config.version}: ${workers} job workers running (PostgreSQL, pid ${process.pid})`,
  );
} catch (err) {
  console.error(`pos-backoffice worker: could not start the job workers: ${(err as Error).message}`);
  await stop('start failure', 1);
}
