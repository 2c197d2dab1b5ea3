import { JOB_QUEUE, JOB_QUEUE_NAMES, licenseStatus, PAYMENT_PLAN_STATUSES } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { PLAN_STATUSES } from '../db/schema';
import { QUEUE_DEFINITIONS } from './definitions';
import { enqueueJob, WORKERS } from './registry';
import type { JobQueue } from './queue';

describe('queue registry', () => {
  it('has one definition and one worker per queue of the domain', () => {
    expect(Object.keys(QUEUE_DEFINITIONS).sort()).toEqual([...JOB_QUEUE_NAMES].sort());
    expect(Object.keys(WORKERS).sort()).toEqual([...JOB_QUEUE_NAMES].sort());
    for (const name of JOB_QUEUE_NAMES) {
      expect(QUEUE_DEFINITIONS[name].name).toBe(name);
      expect(WORKERS[name].queue).toBe(name);
      expect(QUEUE_DEFINITIONS[name]).toMatchObject({ retryBackoff: true });
      expect(QUEUE_DEFINITIONS[name].retryLimit).toBeGreaterThan(0);
    }
  });

  it('keeps one job at a time per record where two must not run at once', () => {
    const singletons = JOB_QUEUE_NAMES.filter((n) => QUEUE_DEFINITIONS[n].policy === 'singleton').sort();
    expect(singletons).toEqual(
      [
        JOB_QUEUE.invoiceCharge,
        JOB_QUEUE.orderStatus,
        JOB_QUEUE.pushLicense,
        JOB_QUEUE.retireTerminals,
        JOB_QUEUE.storeInfo,
      ].sort(),
    );
  });

  it('refuses a singleton-queue job without its key', async () => {
    const queue = { send: async () => 'x' } as unknown as JobQueue;
    await expect(
      enqueueJob(
        queue,
        JOB_QUEUE.pushLicense,
        { input: { storeId: 1 }, requestedBy: { actorType: 'system' }, requestId: null },
        {} as never,
      ),
    ).rejects.toThrow(/singletonKey/);
  });

  it("the contract's plan statuses are the database's", () => {
    expect([...PAYMENT_PLAN_STATUSES]).toEqual([...PLAN_STATUSES]);
  });
});

describe('license state pushed to terminals', () => {
  it.each([
    [{ storeStatus: 'active', expiresOn: null, today: '2026-11-22' }, 'active', null],
    [{ storeStatus: 'active', expiresOn: '2026-11-22', today: '2026-11-22' }, 'active', '2026-12-29'],
    [{ storeStatus: 'active', expiresOn: '2026-11-01', today: '2026-12-08' }, 'grace', '2026-12-08'],
    [{ storeStatus: 'active', expiresOn: '2026-11-01', today: '2026-12-09' }, 'expired', '2026-12-08'],
    [{ storeStatus: 'suspended', expiresOn: '2027-01-01', today: '2026-11-22' }, 'disabled', '2027-02-07'],
  ] as const)('%o → %s', (input, status, graceUntil) => {
    expect(licenseStatus(input)).toEqual({ status, graceUntil });
  });
});
