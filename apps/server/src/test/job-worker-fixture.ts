/**
 * A worker process for the queue tests: the product's JobQueue with one test queue whose handler records its
 * effect in `job_effects`. Env: DATABASE_URL, QUEUE, DELAY_MS (how long a job takes), EXPIRE_S.
 */
import { openPostgres } from '../db/client';
import { JobQueue } from '../jobs/queue';

const database = await openPostgres(process.env.DATABASE_URL as string, { max: 4 });
const queue = new JobQueue(database, { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
await queue.start();
const name = process.env.QUEUE as string;
await queue.define({
  name,
  retryLimit: 3,
  retryDelay: 1,
  retryBackoff: false,
  expireInSeconds: Number(process.env.EXPIRE_S ?? 60),
});
const delay = Number(process.env.DELAY_MS ?? 0);
for (let i = 0; i < Number(process.env.CONCURRENCY ?? 1); i++) {
  await queue.work<{ n: number }>(
    name,
    async (data, job) => {
      if (delay) await new Promise((r) => setTimeout(r, delay));
      await database.query(`insert into job_effects (job_id, n, worker_pid) values ($1, $2, $3)`, [
        job.id,
        data.n,
        process.pid,
      ]);
    },
    { pollingIntervalSeconds: 0.5 },
  );
}
console.log('ready');
process.on('SIGTERM', async () => {
  await queue.stop();
  await database.close();
  process.exit(0);
});
