import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../test/db-template';
import { JobQueue } from './queue';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../test/job-worker-fixture.ts');

function startWorker(url: string, env: Record<string, string>): ChildProcess & { ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: { ...process.env, DATABASE_URL: url, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  }) as ChildProcess & { ready: Promise<void> };
  child.ready = new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => String(d).includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
  return child;
}

async function until<T>(probe: () => Promise<T | false | null | undefined>, timeoutMs: number): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

// Separate worker processes need a shared server: these run on PostgreSQL (CI's second pass), not on PGlite.
describe.skipIf(!process.env.TEST_DATABASE_URL)('worker processes on PostgreSQL', () => {
  let database: Database & { url?: string };
  let url: string;
  let producer: JobQueue;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    url = (database as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
    await database.exec(
      `create table job_effects (id serial primary key, job_id uuid not null, n int not null, worker_pid int not null)`,
    );
    producer = new JobQueue(database);
    await producer.start();
  }, 60_000);
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await producer.stop();
    await database.close();
  });

  it('a job whose worker is SIGKILLed mid-job completes exactly once after a worker restarts', async () => {
    const env = { QUEUE: 'test-kill', DELAY_MS: '4000', EXPIRE_S: '2' };
    const first = startWorker(url, env);
    children.push(first);
    await first.ready;
    await producer.define({ name: 'test-kill', retryLimit: 3, retryDelay: 1, retryBackoff: false, expireInSeconds: 2 });
    const id = (await producer.send('test-kill', { n: 1 }))!;
    await until(async () => (await producer.getJob('test-kill', id))?.state === 'active', 15_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    const second = startWorker(url, { ...env, DELAY_MS: '100' });
    children.push(second);
    await second.ready;
    const job = await until(async () => {
      const j = await producer.getJob('test-kill', id);
      return j?.state === 'completed' ? j : null;
    }, 45_000);
    expect(job.retryCount).toBeGreaterThanOrEqual(1);
    const effects = await database.query<{ n: number; worker_pid: number }>(
      `select n, worker_pid from job_effects where job_id = $1`,
      [id],
    );
    expect(effects).toHaveLength(1);
    expect(effects[0]!.worker_pid).toBe(second.pid);
    second.kill('SIGTERM');
  }, 90_000);

  it('two worker processes share 1,000 jobs and do each exactly once', async () => {
    await producer.define({
      name: 'test-share',
      retryLimit: 3,
      retryDelay: 1,
      retryBackoff: false,
      expireInSeconds: 60,
    });
    await producer.boss.insert(Array.from({ length: 1000 }, (_, n) => ({ name: 'test-share', data: { n } })));
    const env = { QUEUE: 'test-share', DELAY_MS: '0', CONCURRENCY: '10' };
    const a = startWorker(url, env);
    const b = startWorker(url, env);
    children.push(a, b);
    await Promise.all([a.ready, b.ready]);
    await until(async () => {
      const rows = await database.query<{ c: number }>(
        `select count(*)::int as c from job_effects where n >= 0 and job_id in (select id from pgboss.job where name = 'test-share' union all select id from pgboss.archive where name = 'test-share')`,
      );
      return rows[0]!.c >= 1000;
    }, 120_000);
    await new Promise((r) => setTimeout(r, 1500)); // let any duplicate show itself
    const rows = await database.query<{ total: number; distinct_jobs: number; distinct_n: number; workers: number }>(
      `select count(*)::int as total, count(distinct job_id)::int as distinct_jobs, count(distinct n)::int as distinct_n,
              count(distinct worker_pid)::int as workers
       from job_effects where job_id in (select id from pgboss.job where name = 'test-share' union all select id from pgboss.archive where name = 'test-share')`,
    );
    expect(rows[0]).toEqual({ total: 1000, distinct_jobs: 1000, distinct_n: 1000, workers: 2 });
    a.kill('SIGTERM');
    b.kill('SIGTERM');
  }, 150_000);
});
