import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../test/db-template';
import { deadLetterName, JobQueue, toDrizzleSql } from './queue';

async function until<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('job queue on the product database', () => {
  let database: Database;
  let queue: JobQueue;

  beforeAll(async () => {
    database = await createTestDatabase();
    queue = new JobQueue(database, { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
    await queue.start();
    await queue.define({ name: 'test-echo', retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 });
    await queue.define({ name: 'test-flaky', retryLimit: 2, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 });
    await queue.define({
      name: 'test-single',
      retryLimit: 0,
      retryDelay: 1,
      retryBackoff: false,
      expireInSeconds: 60,
      policy: 'singleton',
    });
    await database.exec(
      `create table if not exists job_effects (id serial primary key, queue text not null, payload jsonb not null)`,
    );
  }, 60_000);
  afterAll(async () => {
    await queue.stop();
    await database.close();
  });

  it('binds pg-boss style $n placeholders, repeated ones included, when run through Drizzle', async () => {
    const result = (await database.db.execute(
      toDrizzleSql('select $1::int + $2::int as s, $1::int as a, $3::text as n', [1, 2, undefined]),
    )) as unknown as {
      rows: Array<{ s: number; a: number; n: string | null }>;
    };
    expect(result.rows[0]).toEqual({ s: 3, a: 1, n: null });
  });

  it('runs a job sent outside a transaction and records it completed', async () => {
    await queue.work<{ n: number }>('test-echo', async (data) => {
      await database.query(`insert into job_effects (queue, payload) values ('test-echo', $1)`, [JSON.stringify(data)]);
      return { doubled: data.n * 2 };
    });
    const id = await queue.send('test-echo', { n: 21 });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const job = await until(async () => {
      const j = await queue.getJob<{ n: number }>('test-echo', id!);
      return j?.state === 'completed' ? j : null;
    });
    expect(job.output).toEqual({ doubled: 42 });
  });

  it('enqueues inside the transaction: a rolled-back change leaves no job, a committed one does', async () => {
    let rolledBackId: string | null = null;
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into job_effects (queue, payload) values ('tx', '{"a":1}')`);
        rolledBackId = await queue.send('test-single', { a: 1 }, {}, tx);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(rolledBackId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await queue.getJob('test-single', rolledBackId!)).toBeNull();

    const committedId = await database.db.transaction(async (tx) => queue.send('test-single', { a: 2 }, {}, tx));
    expect(await queue.getJob('test-single', committedId!)).toMatchObject({ state: 'created', data: { a: 2 } });
  });

  it('retries a failing job with backoff and then moves it to the dead-letter queue', async () => {
    let attempts = 0;
    await queue.work(
      'test-flaky',
      async () => {
        attempts++;
        throw new Error(`gateway timeout #${attempts}`);
      },
      { pollingIntervalSeconds: 0.5 },
    );
    const id = await queue.send('test-flaky', { invoice: 7 });
    const job = await until(async () => {
      const j = await queue.getJob('test-flaky', id!);
      return j?.state === 'failed' ? j : null;
    }, 30_000);
    expect(attempts).toBe(3);
    expect(job.retryCount).toBe(2);
    expect(JSON.stringify(job.output)).toContain('gateway timeout #3');
    const dead = await queue.boss.fetch<{ invoice: number }>(deadLetterName('test-flaky'));
    expect(dead.map((d) => d.data)).toEqual([{ invoice: 7 }]);
  }, 40_000);

  it('refuses a job for a queue that was never defined', async () => {
    await expect(queue.send('test-no-such-queue', {})).rejects.toThrow(/does not exist|not found/i);
  });

  it('collapses a second job with the same key while the first waits (stately policy)', async () => {
    await queue.define({
      name: 'test-keyed',
      retryLimit: 0,
      retryDelay: 1,
      retryBackoff: false,
      expireInSeconds: 60,
      policy: 'stately',
    });
    const a = await queue.send('test-keyed', { store: 1 }, { singletonKey: 'store-1' });
    const b = await queue.send('test-keyed', { store: 1 }, { singletonKey: 'store-1' });
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toBeNull();
  });
});
