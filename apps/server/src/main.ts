// Only what opening the database needs is imported up front: the database opens (PGlite reads and compiles its
// WebAssembly off the main thread) while the HTTP app's modules load, and the job workers' modules load after
// the server listens (decision 041: a later start answers within 5 s).
import { ConfigError, loadConfig, type AppConfig } from './config';
import { migrateDatabase, type Database } from './db/client';
import { DataDirInUseError } from './db/data-dir-lock';
import { openConfiguredDatabase } from './db/open';
import { exitGracefully } from './lib/graceful-exit';

function fail(message: string): never {
  console.error(`\npos-backoffice: ${message}\n`);
  process.exit(1);
}

let config: AppConfig;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}

const opening = openConfiguredDatabase(config);
const appModule = import('./app');
appModule.catch(() => undefined); // awaited below, after the database is open

let database: Database;
try {
  database = await opening;
} catch (err) {
  if (err instanceof DataDirInUseError) fail(err.message);
  fail(`could not open the database: ${(err as Error).message}`);
}

await migrateDatabase(database);
// Demo data on first start (SEED_DEMO_DATA, default true); a marker row makes later starts skip it. The seed is
// one transaction: if it fails nothing is written, the server still starts, and the next start tries again.
// The seed module (and its factories) is loaded only when the marker is missing, to keep later starts fast.
const seeded = await database.query(`select 1 from app_meta where key = 'demo_seed_version'`);
if (config.seedDemoData && seeded.length === 0) {
  const { seedDemoData } = await import('./db/seed');
  await seedDemoData(database, { log: (message) => console.log(message) }).catch((err: Error) =>
    console.error(`pos-backoffice: demo data not loaded: ${err.message}`),
  );
}

const { buildApp } = await appModule;
const { JobQueue } = await import('./jobs/queue');
// The server's queue also sends the scheduled jobs (the janitor of Idempotency-Keys) when they are due.
const app = await buildApp({ config, database, queue: new JobQueue(database, { runSchedules: true }) });
const shutdown = exitGracefully({
  graceMs: 10_000,
  database,
  announce: (signal) => app.log.info({ signal }, 'shutting down'),
  stop: () => app.close(),
});

try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  await database.close();
  fail(`could not listen on ${config.host}:${config.port}: ${(err as Error).message}`);
}
const where = database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
console.log(`pos-backoffice ${config.version} is running on http://localhost:${config.port} (database: ${where})`);

// Jobs: the queue is started and its queues defined; the workers run here unless JOBS_INLINE_WORKERS=false
// (then `npm run worker` processes do the work). The app's onClose hook stops them on shutdown.
try {
  const { defineQueues, startWorkers } = await import('./jobs/registry');
  if (config.jobsInlineWorkers) {
    const workers = await startWorkers(app.ctx.queue, app.ctx);
    console.log(`pos-backoffice: ${workers} job workers running in this process`);
  } else {
    await defineQueues(app.ctx.queue, { config: app.ctx.config });
    console.log('pos-backoffice: job workers are not started here (JOBS_INLINE_WORKERS=false); run `npm run worker`');
  }
} catch (err) {
  console.error(`pos-backoffice: the job queue did not start: ${(err as Error).message}`);
  await shutdown('job queue failure', 1);
}
