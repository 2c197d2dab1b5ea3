import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createStaffUser, createStore } from '../db/factories';
import { createTestDatabase } from '../test/db-template';
import { waitForJob } from '../test/jobs';
import { signIn } from '../test/sign-in';
import { createTestApp, type TestApp } from '../test/test-app';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../worker.ts');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startWorker(env: Record<string, string | undefined>): Run {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function until(probe: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('npm run worker', () => {
  it('refuses to start without DATABASE_URL and says why (PGlite belongs to npm start)', async () => {
    const run = startWorker({ NODE_ENV: 'test' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/DATABASE_URL is not set/);
    expect(run.output()).toMatch(/belongs to the `npm start` process/);
  }, 30_000);
});

// A separate process needs a shared server: PostgreSQL only (CI's second pass).
describe.skipIf(!process.env.TEST_DATABASE_URL)('npm run worker on PostgreSQL', () => {
  let database: Database;
  let t: TestApp;
  let url: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    url = (database as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
    // The API side: a server that does not run workers itself.
    t = await createTestApp({ database, config: { jobsInlineWorkers: false } });
    await createStaffUser(database.db, { email: 'ada.admin@example.com', role: 'Admin' });
  }, 60_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await t.close();
    await database.close();
  });

  it('does the jobs the API enqueues, and stops gracefully on SIGTERM', async () => {
    const run = startWorker({ NODE_ENV: 'test', DATABASE_URL: url, LOG_LEVEL: 'silent' });
    children.push(run.child);
    await until(() => /job workers running/.test(run.output()), 60_000, `the worker to start (${run.output()})`);

    const admin = await signIn(t, 'ada.admin@example.com');
    const store = await createStore(database.db);
    const res = await t.request({
      method: 'POST',
      url: `/api/zoho/storemidvalidate/${admin}`,
      payload: { MID: '800000004321', storeid: store.id },
    });
    expect(res.statusCode).toBe(202);
    const job = await waitForJob(t, admin, res.json().info.jobId, { timeoutMs: 30_000 });
    expect(job).toMatchObject({ state: 'completed', output: { MID: '800000004321', valid: true } });

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/SIGTERM, finishing active jobs/);
  }, 120_000);
});
