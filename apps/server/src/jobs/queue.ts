import { sql, type SQL } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { JOB_SCHEMA, type Database, type Db } from '../db/client';

type Executor = PgBoss.Db;

/**
 * Run pg-boss's SQL on the product's database. PGlite has one connection and no multi-statement `query`, so SQL
 * without parameters goes through `exec` (pg-boss sends its schema as one multi-statement text).
 */
export function databaseExecutor(database: Database): Executor {
  return {
    async executeSql(text, values) {
      if (!values || values.length === 0) {
        if (database.kind === 'pglite') {
          const results = await (
            database as Database & { pglite: { exec(t: string): Promise<Array<{ rows: unknown[] }>> } }
          ).pglite.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        }
        const rows = await database.query(text);
        return { rows };
      }
      return {
        rows: await database.query(
          text,
          values.map((v) => (v === undefined ? null : v)),
        ),
      };
    },
  };
}

/** Turn `text` with $1…$n placeholders and its values into a Drizzle SQL object, so it can run inside a transaction. */
export function toDrizzleSql(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) {
      if (parts[i]) chunks.push(sql.raw(parts[i] as string));
    } else {
      const value = values[Number(parts[i]) - 1];
      chunks.push(sql`${value === undefined ? null : value}`);
    }
  }
  return sql.join(chunks, sql.raw(''));
}

/** pg-boss's SQL run on an open Drizzle transaction: the job commits or rolls back with the change that caused it. */
export function transactionExecutor(tx: Db): Executor {
  return {
    async executeSql(text, values) {
      const result = (await tx.execute(toDrizzleSql(text, values ?? []))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

export interface QueueDefinition {
  name: string;
  /** How many retries after the first attempt. */
  retryLimit: number;
  /** Seconds before the first retry; doubled each time when backoff is on. */
  retryDelay: number;
  retryBackoff: boolean;
  /** A job still active after this long is taken to have died with its worker and is retried. */
  expireInSeconds: number;
  /** 'singleton': at most one job of this queue is active at once. */
  policy?: PgBoss.QueuePolicy;
}

export const deadLetterName = (queue: string) => `${queue}__dead`;

export interface JobQueueOptions {
  /** Seconds between pg-boss maintenance runs (expiry of dead workers' jobs, archiving). */
  maintenanceIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
  /**
   * Run pg-boss's cron monitor, which sends the jobs of the schedules (`schedule`) when they are due. On in the
   * processes that run the workers (main.ts, worker.ts; several may: pg-boss sends each due job once); off by
   * default, so tests start no timers.
   */
  runSchedules?: boolean;
}

export type JobHandler<T> = (data: T, job: PgBoss.Job<T>) => Promise<unknown>;

/**
 * Thrown by a handler when trying again cannot help (the record changed under the request, it was deleted…):
 * the job fails at once, without its remaining retries, and goes to the dead-letter queue.
 */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
  constructor(
    message: string,
    readonly code = 'permanent_failure',
  ) {
    super(message);
  }
}

/** The product's job queue: pg-boss on the product's own database. */
export class JobQueue {
  readonly boss: PgBoss;
  private starting: Promise<void> | null = null;
  private started = false;
  private readonly defined = new Set<string>();
  private readonly defining = new Map<string, Promise<void>>();
  /** Worker ids of this process per queue (to wake them when a job is sent from here). */
  private readonly workers = new Map<string, string[]>();

  constructor(
    private readonly database: Database,
    private readonly options: JobQueueOptions = {},
  ) {
    this.boss = new PgBoss({
      db: databaseExecutor(database),
      schema: JOB_SCHEMA,
      supervise: true,
      schedule: options.runSchedules ?? false,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    });
    this.boss.on('error', (err) => {
      // Maintenance errors are retried by pg-boss; they must not crash the process.
      console.error(`job queue: ${(err as Error).message}`);
    });
  }

  /** Start pg-boss (once; concurrent callers share the first start). */
  async start(): Promise<void> {
    this.starting ??= this.boss.start().then(
      () => {
        this.started = true;
      },
      (err: unknown) => {
        this.starting = null;
        throw err;
      },
    );
    return this.starting;
  }

  /** Stop workers (letting active jobs finish, up to 10 s) and maintenance. */
  async stop(): Promise<void> {
    if (!this.starting) return;
    await this.starting.catch(() => undefined);
    if (!this.started) return;
    this.started = false;
    this.starting = null;
    this.workers.clear();
    this.defining.clear();
    await this.boss.stop({ graceful: true, close: false, wait: true, timeout: 10_000 });
  }

  /** Start and define `def` once per process (later calls share the first); use before opening a transaction. */
  async ensure(def: QueueDefinition): Promise<void> {
    let pending = this.defining.get(def.name);
    if (!pending) {
      // One definition at a time: pg-boss's createQueue of two queues at once can deadlock on PostgreSQL.
      pending = this.start().then(() => this.oneAtATime(() => this.define(def)));
      pending.catch(() => this.defining.delete(def.name));
      this.defining.set(def.name, pending);
    }
    return pending;
  }

  private definitions: Promise<unknown> = Promise.resolve();

  /** Run `work` after every earlier one has settled (whatever its outcome). */
  private oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const next = this.definitions.then(work, work);
    this.definitions = next.catch(() => undefined);
    return next;
  }

  /** Create (or update) a queue and its dead-letter queue. */
  async define(def: QueueDefinition): Promise<void> {
    const dead = deadLetterName(def.name);
    if (!(await this.boss.getQueue(dead))) await this.boss.createQueue(dead, { name: dead, retryLimit: 0 });
    const options: PgBoss.Queue = {
      name: def.name,
      policy: def.policy ?? 'standard',
      retryLimit: def.retryLimit,
      retryDelay: def.retryDelay,
      retryBackoff: def.retryBackoff,
      expireInSeconds: def.expireInSeconds,
      deadLetter: dead,
    };
    if (await this.boss.getQueue(def.name)) await this.boss.updateQueue(def.name, options);
    else await this.boss.createQueue(def.name, options);
    this.defined.add(def.name);
  }

  /** Send a job to the (defined) queue `name` on a cron schedule (in `tz`, default UTC); replaces an earlier one. */
  async schedule(name: string, cron: string, tz = 'UTC'): Promise<void> {
    if (!this.defined.has(name)) throw new Error(`job queue "${name}" does not exist (define it first)`);
    await this.boss.schedule(name, cron, {}, { tz });
  }

  /**
   * Enqueue a job. Pass the open transaction (`tx`) so the job exists only if the change that caused it commits.
   * Returns the job id (null when a singleton key suppressed a duplicate).
   */
  async send<T extends object>(
    name: string,
    data: T,
    options: PgBoss.SendOptions = {},
    tx?: Db,
  ): Promise<string | null> {
    // pg-boss answers null for an unknown queue; a job that silently goes nowhere is a bug.
    if (!this.defined.has(name)) throw new Error(`job queue "${name}" does not exist (define it first)`);
    return this.boss.send(name, data, { ...options, ...(tx ? { db: transactionExecutor(tx) } : {}) });
  }

  async work<T extends object>(
    name: string,
    handler: JobHandler<T>,
    options: { pollingIntervalSeconds?: number } = {},
  ): Promise<string> {
    const id = await this.boss.work<T>(
      name,
      {
        batchSize: 1,
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? this.options.pollingIntervalSeconds ?? 2,
      },
      async ([job]) => {
        if (!job) return undefined;
        try {
          return await handler(job.data, job);
        } catch (err) {
          // No retries left for a permanent failure: pg-boss then fails the job and copies it to the dead letter.
          if (err instanceof PermanentJobError) {
            await this.database.query(
              `UPDATE ${JOB_SCHEMA}.job SET retry_limit = retry_count WHERE name = $1 AND id = $2`,
              [name, job.id],
            );
          }
          throw err;
        }
      },
    );
    this.workers.set(name, [...(this.workers.get(name) ?? []), id]);
    return id;
  }

  /** Wake this process's workers of `name` now instead of at their next poll (call after the sending transaction commits). */
  wake(name: string): void {
    for (const id of this.workers.get(name) ?? []) this.boss.notifyWorker(id);
  }

  async getJob<T = unknown>(name: string, id: string) {
    return this.boss.getJobById<T>(name, id, { includeArchive: true });
  }
}
