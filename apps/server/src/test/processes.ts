import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../db/client';
import { XSRF_COOKIE, XSRF_HEADER } from '../http/xsrf';
import { faultPointLine, type FaultPoint } from '../lib/fault-point';

/*
 * Real server and worker processes for the crash tests (PostgreSQL only: the processes share the test's
 * database). `npm start`'s entry (main.ts) and `npm run worker`'s (worker.ts), run with tsx like the scripts.
 */

const SRC = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Wait until the output matches. */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
  /** SIGKILL (no cleanup, no graceful shutdown: a crash) and wait for the exit. */
  kill(): Promise<void>;
}

const running = new Set<Proc>();

function start(entry: string, env: Record<string, string | undefined>): Proc {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(SRC, entry)], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const proc: Proc = {
    child,
    output: () => output,
    exited,
    async waitFor(pattern, timeoutMs = 60_000) {
      const matches = () => (typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output));
      await until(async () => matches() || child.exitCode !== null, timeoutMs, `${entry}: ${String(pattern)}`);
      if (!matches()) throw new Error(`${entry} exited (${child.exitCode}) before ${String(pattern)}:\n${output}`);
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      running.delete(proc);
    },
  };
  running.add(proc);
  return proc;
}

/** SIGKILL whatever is still running (afterAll). */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill()));
}

/** The connection string of a PostgreSQL test database (createTestDatabase). */
export function urlOf(database: Database): string {
  return (database as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
}

let dataDir: string | undefined;

/** `npm start` on the test database: no demo data, no job workers (a worker process does the jobs). */
export async function startServer(
  database: Database,
  opts: { faultPoint?: FaultPoint; port?: number; env?: Record<string, string> } = {},
): Promise<Proc & { baseUrl: string }> {
  const port = opts.port ?? 20_000 + Math.floor(Math.random() * 20_000);
  const proc = start('main.ts', {
    NODE_ENV: 'test',
    DATABASE_URL: urlOf(database),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: (dataDir ??= mkdtempSync(path.join(os.tmpdir(), 'pos-crash-'))),
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
    JOBS_INLINE_WORKERS: 'false',
    TEST_FAULT_POINT: opts.faultPoint,
    ...opts.env,
  });
  await proc.waitFor(/is running on http/);
  return { ...proc, baseUrl: `http://127.0.0.1:${port}` };
}

/** `npm run worker` on the test database. */
export async function startWorker(database: Database, opts: { faultPoint?: FaultPoint } = {}): Promise<Proc> {
  const proc = start('worker.ts', {
    NODE_ENV: 'test',
    DATABASE_URL: urlOf(database),
    LOG_LEVEL: 'silent',
    TEST_FAULT_POINT: opts.faultPoint,
  });
  await proc.waitFor(/job workers running/);
  return proc;
}

/** Wait for the process to stop at the fault point. */
export const reached = (proc: Proc, point: FaultPoint, timeoutMs = 30_000) =>
  proc.waitFor(faultPointLine(point), timeoutMs);

/**
 * A JSON request to a real server as the web app sends it (the XSRF cookie and header). Does not throw when the
 * server dies meanwhile: answers null.
 */
export async function call(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown } | null> {
  const health = await fetch(`${baseUrl}/api/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1];
  if (!xsrf) throw new Error(`no ${XSRF_COOKIE} cookie from ${baseUrl}`);
  try {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        cookie: `${XSRF_COOKIE}=${xsrf}`,
        [XSRF_HEADER]: xsrf,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  } catch {
    return null;
  }
}

export async function until<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
