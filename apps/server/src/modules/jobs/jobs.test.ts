import { randomUUID } from 'node:crypto';
import { JOB_QUEUE } from '@pos/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createDistributorAccount,
  createDomainData,
  createStore,
  createTerminal,
  ensureAccessData,
} from '../../db/factories';
import { stores, terminals } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { CrmPort } from '../../integrations/crm';
import { QUEUE_DEFINITIONS, SCHEDULED_DEFINITIONS, SCHEDULED_QUEUE } from '../../jobs/definitions';
import { startWorkers, WORKERS } from '../../jobs/registry';
import { waitForJob } from '../../test/jobs';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('GET /api/jobs/{jobId}/{token}, retries, dead letters', () => {
  let t: TestApp;
  let admin: string;
  let distributor: string;
  let crmCalls = 0;

  beforeAll(async () => {
    t = await createTestApp({
      beforeReady(app) {
        // A CRM that is down: every MID check fails (the other call works).
        const down: CrmPort = {
          requestFeatureChange: async () => ({ reference: 'CRM-TEST' }),
          getLead: async () => null,
          validateMid: async () => {
            crmCalls++;
            throw new AppError('unavailable', `The CRM is unavailable (call ${crmCalls}). Try again later.`);
          },
        };
        app.ctx.crm = down;
      },
    });
    await ensureAccessData(t.database.db);
    ({ admin } = await signInStaff(t, { admin: 'Admin' }));
    const agent = await createAgent(t.database.db);
    await createDistributorAccount(t.database.db, {
      email: 'dist@example.com',
      password: 'Distributor-Pass-2026!',
      agentId: agent.id,
    });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/distributor/login',
      payload: { email: 'dist@example.com', password: 'Distributor-Pass-2026!' },
    });
    expect(login.statusCode, login.body).toBe(200);
    distributor = login.json().info.token;
  }, 60_000);
  afterAll(() => t.close());

  it("shows a waiting job's queue, state and times (no worker runs it yet)", async () => {
    const store = await createStore(t.database.db);
    const res = await t.request({
      method: 'POST',
      url: `/api/customers/stores/${admin}/${store.id}/pushlicense`,
      payload: {},
    });
    expect(res.statusCode).toBe(202);
    const { jobId } = res.json().info;
    const status = await t.request({ method: 'GET', url: `/api/jobs/${jobId}/${admin}` });
    expect(status.statusCode).toBe(200);
    expect(status.json().info).toMatchObject({
      id: jobId,
      queue: JOB_QUEUE.pushLicense,
      state: 'created',
      retryCount: 0,
      retryLimit: 5,
      startedOn: null,
      completedOn: null,
      output: null,
      error: null,
      deadLetterQueue: null,
    });
    expect(Date.parse(status.json().info.createdOn)).not.toBeNaN();
  });

  it('is for staff only (a distributor session gets 403), needs a UUID (400) and a known job (404)', async () => {
    const id = randomUUID();
    const asDistributor = await t.request({ method: 'GET', url: `/api/jobs/${id}/${distributor}` });
    expect(asDistributor.statusCode).toBe(403);
    expect(asDistributor.json().error.code).toBe('forbidden');
    expect((await t.request({ method: 'GET', url: `/api/jobs/${id}/${'Q'.repeat(43)}` })).json().error.code).toBe(
      'session_invalid',
    );
    const notUuid = await t.request({ method: 'GET', url: `/api/jobs/12345/${admin}` });
    expect(notUuid.statusCode).toBe(400);
    expect(notUuid.json().error.fields).toHaveProperty('jobId');
    const unknown = await t.request({ method: 'GET', url: `/api/jobs/${id}/${admin}` });
    expect(unknown.statusCode).toBe(404);
  });

  it("a job is read by its requester and by Admin only: another staff user gets the unknown job's 404; system and scheduled jobs are Admin's", async () => {
    const { cs1, cs2, ar } = await signInStaff(t, {
      cs1: 'Customer Service',
      cs2: 'Customer Service',
      ar: 'AR Team',
    });
    const store = await createStore(t.database.db);
    const res = await t.request({
      method: 'POST',
      url: `/api/customers/stores/${cs1}/${store.id}/pushlicense`,
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json().info as { jobId: string };
    const read = (id: string, token: string) => t.request({ method: 'GET', url: `/api/jobs/${id}/${token}` });
    const notFound = (id: string) => ({
      error: { code: 'not_found', message: `Job ${id} was not found (finished jobs are kept for 7 days).` },
    });

    // The requester and Admin.
    for (const token of [cs1, admin]) {
      const own = await read(jobId, token);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().info).toMatchObject({ id: jobId, queue: JOB_QUEUE.pushLicense });
    }
    // Anyone else: exactly what an unknown job answers (status, code, message shape), nothing of the job.
    const unknownId = randomUUID();
    const unknown = await read(unknownId, cs2);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(notFound(unknownId));
    for (const token of [cs2, ar]) {
      const other = await read(jobId, token);
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual(notFound(jobId));
      expect(other.body).not.toContain(JOB_QUEUE.pushLicense);
    }

    // A job the system asked for (the billing run's license pushes), and a scheduled one (no requester): Admin only.
    await t.app.ctx.queue.ensure(QUEUE_DEFINITIONS[JOB_QUEUE.pushLicense]);
    const systemJob = await t.app.ctx.queue.send(
      JOB_QUEUE.pushLicense,
      {
        input: { storeId: store.id + 1_000 },
        requestedBy: { actorType: 'system', actorId: 'billing-run' },
        requestId: null,
      },
      { singletonKey: String(store.id + 1_000) },
    );
    await t.app.ctx.queue.ensure(SCHEDULED_DEFINITIONS[SCHEDULED_QUEUE.reportFactsCompact]);
    const scheduledJob = await t.app.ctx.queue.send(SCHEDULED_QUEUE.reportFactsCompact, {});
    for (const id of [systemJob!, scheduledJob!]) {
      expect((await read(id, admin)).statusCode).toBe(200);
      for (const token of [cs1, cs2, ar]) expect((await read(id, token)).json()).toEqual(notFound(id));
    }
  });

  it('a failing worker is retried with backoff, then the job fails and is copied to the dead-letter queue', async () => {
    await startWorkers(t.app.ctx.queue, t.app.ctx, {
      queues: [JOB_QUEUE.crmStoreMidValidate],
      pollingIntervalSeconds: 0.5,
      overrides: { [JOB_QUEUE.crmStoreMidValidate]: { retryLimit: 2, retryDelay: 1, retryBackoff: true } },
    });
    const res = await t.request({
      method: 'POST',
      url: `/api/zoho/storemidvalidate/${admin}`,
      payload: { MID: '800000001234' },
    });
    expect(res.statusCode).toBe(202);
    const { jobId } = res.json().info;
    const retrying = await waitForJob(t, admin, jobId, { states: ['retry'], timeoutMs: 20_000 });
    expect(retrying.error).toMatch(/^unavailable: The CRM is unavailable/);

    const job = await waitForJob(t, admin, jobId, { timeoutMs: 40_000 });
    expect(job).toMatchObject({
      state: 'failed',
      retryCount: 2,
      retryLimit: 2,
      deadLetterQueue: `${JOB_QUEUE.crmStoreMidValidate}__dead`,
      output: null,
    });
    expect(job.error).toMatch(/unavailable: The CRM is unavailable \(call 3\)/);
    expect(crmCalls).toBe(3);
    // Backoff: the three attempts were spread out, not back to back.
    expect(Date.parse(job.completedOn!) - Date.parse(job.createdOn)).toBeGreaterThanOrEqual(2000);
    // The dead letter keeps the request for staff to see and retry; the error does not carry a stack.
    const dead = await t.database.query<{ data: { input: unknown }; state: string }>(
      `select data, state::text as state from pgboss.job where name = $1`,
      [`${JOB_QUEUE.crmStoreMidValidate}__dead`],
    );
    expect(dead).toHaveLength(1);
    expect(dead[0]!.data.input).toEqual({ MID: '800000001234' });
    expect(JSON.stringify(job)).not.toMatch(/at .*\.ts:\d+/);
  }, 60_000);

  it('a permanent failure (the store changed before the worker ran) fails at once, without retries, and is dead-lettered', async () => {
    const store = await createStore(t.database.db);
    const res = await t.request({
      method: 'POST',
      url: `/api/storeinfo/sns/${admin}`,
      payload: { storeid: store.id, version: store.version, changes: { storeName: 'Renamed' } },
    });
    expect(res.statusCode).toBe(202);
    // Someone else edits the store while the job waits.
    await t.database.db
      .update(stores)
      .set({ phone: '555-000-1111', version: sql`${stores.version} + 1` })
      .where(eq(stores.id, store.id));
    await startWorkers(t.app.ctx.queue, t.app.ctx, { queues: [JOB_QUEUE.storeInfo], pollingIntervalSeconds: 0.5 });
    const job = await waitForJob(t, admin, res.json().info.jobId);
    expect(job).toMatchObject({ state: 'failed', retryCount: 0, deadLetterQueue: `${JOB_QUEUE.storeInfo}__dead` });
    expect(job.error).toMatch(/^version_conflict: Store \d+ was changed by someone else/);
    const [s] = await t.database.db.select().from(stores).where(eq(stores.id, store.id));
    expect(s!.storeName).toBe(store.storeName);
  }, 30_000);

  it('a job delivered twice (a worker died after committing) applies its effect once and answers the same output', async () => {
    const store = await createStore(t.database.db);
    const terminal = await createTerminal(t.database.db, { storeId: store.id });
    const reason = await createDomainData(t.database.db, { type: 'retire_reason', code: 'damaged', label: 'Damaged' });
    const job = { id: randomUUID(), queue: JOB_QUEUE.retireTerminals };
    const request = {
      input: { elmer_ids: [terminal.elmerId], reason_id: reason.id },
      requestedBy: { actorType: 'staff' as const, actorId: 1, actorEmail: 'a@example.com' },
      requestId: null,
    };
    const first = await WORKERS[JOB_QUEUE.retireTerminals].run(t.app.ctx, request, job);
    const second = await WORKERS[JOB_QUEUE.retireTerminals].run(t.app.ctx, request, job);
    expect(first).toEqual({ retired: [terminal.elmerId], alreadyRetired: [], reason: 'damaged' });
    expect(second).toEqual(first);
    const retires = await t.database.query(`select 1 from audit_log where action = 'retire' and request_id = $1`, [
      job.id,
    ]);
    expect(retires).toHaveLength(1);
    const [row] = await t.database.db.select().from(terminals).where(eq(terminals.id, terminal.id));
    expect(row!.version).toBe(terminal.version + 1);
  });
});
