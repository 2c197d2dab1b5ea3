import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_SCHEMA } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import { deleteExpiredIdempotencyKeys, IDEMPOTENCY_KEY_TTL_MS } from '../../http/idempotency';
import { createTestApp, type TestApp } from '../../test/test-app';
import { SCHEDULED_DEFINITIONS, SCHEDULED_QUEUE } from '../definitions';
import { startWorkers } from '../registry';
import { idempotencyKeysExpireWorker } from './idempotency-keys-expire';

/* The janitor of the Idempotency-Keys (decision 104): a pg-boss schedule, hourly. */

const HOUR = 3_600_000;
let t: TestApp;

/** Keys whose first request came `agoMs` before the app clock's now (answered ones, and one still in flight). */
async function keysFrom(prefix: string, agoMs: number[], inFlight = false) {
  const now = t.clock.now().getTime();
  await t.database.db.insert(idempotencyKeys).values(
    agoMs.map((ago, i) => ({
      scope: 'staff:1 POST /paymentauthorizations',
      key: `${prefix}-${i}`,
      requestHash: 'h',
      createdAt: new Date(now - ago),
      expiresAt: new Date(now - ago + IDEMPOTENCY_KEY_TTL_MS),
      ...(inFlight
        ? { lockedUntil: new Date(now - ago + 60_000) }
        : { responseStatus: 200, responseBody: { info: { n: i } } }),
    })),
  );
}

const keysLeft = async (prefix: string) =>
  (await t.database.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys))
    .map((r) => r.key)
    .filter((k) => k.startsWith(prefix))
    .sort();

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('idempotency-keys-expire', () => {
  it('deletes the keys past their 24 h and keeps the live ones (the app clock decides)', async () => {
    await keysFrom('a', [25 * HOUR, 24 * HOUR, 23 * HOUR, HOUR, 0]);
    await keysFrom('a-flight', [30 * HOUR], true);
    expect(await idempotencyKeysExpireWorker.run(t.app.ctx)).toEqual({ deleted: 3 });
    expect(await keysLeft('a')).toEqual(['a-2', 'a-3', 'a-4']);
    t.clock.advance(23 * HOUR + 1);
    expect(await idempotencyKeysExpireWorker.run(t.app.ctx)).toEqual({ deleted: 2 });
    expect(await keysLeft('a')).toEqual(['a-4']);
  });

  it('deletes in batches until none is left', async () => {
    await keysFrom('b', [30 * HOUR, 30 * HOUR, 30 * HOUR, 30 * HOUR, 30 * HOUR, HOUR]);
    expect(await deleteExpiredIdempotencyKeys(t.database, t.clock.now(), 2)).toBe(5);
    expect(await keysLeft('b')).toEqual(['b-5']);
  });

  it('is scheduled hourly with the workers, and its worker runs the job the schedule sends', async () => {
    await keysFrom('c', [48 * HOUR, 0]);
    const queue = t.app.ctx.queue;
    await startWorkers(queue, t.app.ctx, { pollingIntervalSeconds: 0.5 });
    const name = SCHEDULED_QUEUE.idempotencyKeysExpire;
    const schedules = await t.database.query<{ name: string; cron: string; timezone: string }>(
      `select name, cron, timezone from ${JOB_SCHEMA}.schedule where name = $1`,
      [name],
    );
    expect(schedules).toEqual([{ name, cron: SCHEDULED_DEFINITIONS[name].cron, timezone: 'UTC' }]);
    expect(SCHEDULED_DEFINITIONS[name].cron).toBe('17 * * * *');
    // What pg-boss's cron monitor sends when the hour comes: an empty job on the queue.
    const id = await queue.send(name, {});
    queue.wake(name);
    const deadline = Date.now() + 20_000;
    let job = await queue.getJob(name, id!);
    while (job?.state !== 'completed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      job = await queue.getJob(name, id!);
    }
    expect(job).toMatchObject({ state: 'completed', output: { deleted: 1 } });
    expect(await keysLeft('c')).toEqual(['c-1']);
  }, 40_000);
});
