import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { ReconciliationDifference, ReconciliationRun } from '@pos/domain';
import { JOB_SCHEMA } from '../../db/client';
import { createCustomer, createInvoice, createStore, createTransaction } from '../../db/factories';
import { auditLog, reconciliationRuns } from '../../db/schema';
import type { LocalGateway } from '../../integrations/gateway';
import { SCHEDULED_DEFINITIONS, SCHEDULED_QUEUE } from '../../jobs/definitions';
import { startWorkers } from '../../jobs/registry';
import { gatewayReconciliationWorker } from '../../jobs/workers/gateway-reconciliation';
import { signIn, signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Reconciliation with the gateway's books (issue 28 item 4, decision 146), through HTTP: the money is moved through the
 * local gateway (its own books) and our side written by the factories, a day at a time (the app clock moves a day per
 * test, so each test's day holds only its own lines).
 */

let t: TestApp;
let tok: Record<'ar' | 'admin' | 'cs', string>;
let gateway: LocalGateway;
let customerId: number;
let storeId: number;

const DAY_MS = 86_400_000;
const today = () => t.clock.now().toISOString().slice(0, 10);
const card = (amountCents: number, key: string) =>
  gateway.charge({
    customerId,
    amountCents,
    currency: 'USD',
    paymentReference: 'pm_local_x_4242',
    instrumentKind: 'card',
    idempotencyKey: key,
    description: 'test',
  });
/** Our books: the charge as the product records it (settled now, by the app clock). */
async function ourCharge(reference: string, amountCents: number, extra: Record<string, unknown> = {}) {
  const invoice = await createInvoice(t.database.db, { customerId, storeId, totalCents: amountCents });
  const tx = await createTransaction(t.database.db, {
    invoiceId: invoice.id,
    customerId,
    storeId,
    amountCents,
    currency: 'USD',
    status: 'S',
    gatewayReference: reference,
    settledAt: t.clock.now(),
    attemptedAt: t.clock.now(),
    ...extra,
  });
  return { invoice, tx };
}
/** The next day: the clock moves on and the staff sign in again (a session does not last a day). */
async function nextDay() {
  t.clock.advance(DAY_MS);
  for (const key of Object.keys(tok) as Array<keyof typeof tok>) tok[key] = await signIn(t, `${key}@example.com`);
}
async function reconcile(body: Record<string, unknown>, token = tok.ar, key?: string) {
  return t.request({
    method: 'POST',
    url: `/api/reconciliation/runs/${token}`,
    payload: body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
}
async function reconcileUsd(): Promise<ReconciliationRun> {
  const res = await reconcile({ day: today(), currency: 'USD' });
  expect(res.statusCode, res.body).toBe(201);
  const runs = res.json().info.runs as ReconciliationRun[];
  expect(runs).toHaveLength(1);
  return runs[0]!;
}
async function differencesOf(runId: number): Promise<ReconciliationDifference[]> {
  const res = await t.request({ method: 'GET', url: `/api/reconciliation/runs/${runId}/${tok.ar}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info.differences;
}

beforeAll(async () => {
  t = await createTestApp();
  tok = await signInStaff(t, { ar: 'AR Team', admin: 'Admin', cs: 'Customer Service' });
  gateway = t.app.ctx.gateway as LocalGateway;
  const c = await createCustomer(t.database.db, { legalName: 'Reconcile Me LLC' });
  customerId = c.id;
  storeId = (await createStore(t.database.db, { customerId })).id;
}, 60_000);
afterAll(() => t?.close());

describe('reconciliation with the gateway (decision 146)', () => {
  it('a day that matches: totals both sides, no difference; every currency when none is named; an audit entry', async () => {
    const paid = await card(120_00, 'match-1');
    const { tx } = await ourCharge(paid.reference, 120_00);
    const refund = await gateway.refund({
      chargeReference: paid.reference,
      amountCents: 20_00,
      idempotencyKey: 'match-r1',
      reason: 'r',
    });
    await createTransaction(t.database.db, {
      customerId,
      storeId,
      kind: 'refund',
      status: 'S',
      amountCents: 20_00,
      currency: 'USD',
      gatewayReference: refund.reference,
      paymentInstrumentId: tx.paymentInstrumentId,
      settledAt: t.clock.now(),
    });
    const res = await reconcile({ day: today() }, tok.ar, 'match-key');
    expect(res.statusCode, res.body).toBe(201);
    const runs = res.json().info.runs as ReconciliationRun[];
    expect(runs.map((r) => [r.currency, r.status, r.difference_count])).toEqual([
      ['USD', 'matched', 0],
      ['CAD', 'matched', 0],
    ]);
    const totals = { charged_cents: 120_00, refunded_cents: 20_00, charged_back_cents: 0, voided_cents: 0 };
    expect(runs[0]).toMatchObject({ source: 'staff', requested_by: 'ar@example.com', day: today() });
    expect(runs[0]!.gateway).toEqual({ ...totals, net_cents: 100_00, entries: 2 });
    expect(runs[0]!.books).toEqual(runs[0]!.gateway);
    // The same key again: the same answer, no second run.
    const again = await reconcile({ day: today() }, tok.ar, 'match-key');
    expect(again.json()).toEqual(res.json());
    expect(await t.database.db.$count(reconciliationRuns, eq(reconciliationRuns.day, today()))).toBe(2);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'reconcile_day'), eq(auditLog.entity, 'reconciliation_run')));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorEmail: 'ar@example.com', after: { day: today() } });
  });

  it('a transaction our books have that the gateway does not: missing at the gateway, with our transaction', async () => {
    await nextDay();
    const { tx, invoice } = await ourCharge('ch_never_sent', 45_00);
    const run = await reconcileUsd();
    expect(run).toMatchObject({ status: 'differences', difference_count: 1 });
    expect(run.books).toMatchObject({ charged_cents: 45_00, entries: 1 });
    expect(run.gateway).toMatchObject({ charged_cents: 0, entries: 0 });
    expect(await differencesOf(run.id)).toEqual([
      expect.objectContaining({
        kind: 'missing_at_gateway',
        entry_kind: 'charge',
        gateway_transaction_id: null,
        charge_reference: 'ch_never_sent',
        transaction_id: tx.id,
        customer_id: customerId,
        customer_name: 'Reconcile Me LLC',
        invoice_id: invoice.id,
        invoice_number: invoice.invoiceNumber,
        gateway_amount_cents: null,
        books_amount_cents: 45_00,
        currency: 'USD',
      }),
    ]);
  });

  it('an amount that differs: both books have the charge, with other amounts', async () => {
    await nextDay();
    const paid = await card(50_00, 'differs-1');
    const { tx } = await ourCharge(paid.reference, 55_00);
    const run = await reconcileUsd();
    expect(run).toMatchObject({ status: 'differences', difference_count: 1 });
    expect([run.gateway.net_cents, run.books.net_cents]).toEqual([50_00, 55_00]);
    expect(await differencesOf(run.id)).toEqual([
      expect.objectContaining({
        kind: 'amount_differs',
        entry_kind: 'charge',
        gateway_transaction_id: paid.reference,
        transaction_id: tx.id,
        gateway_amount_cents: 50_00,
        books_amount_cents: 55_00,
      }),
    ]);
  });

  it('a gateway refund our books lack: missing in our books, linked to our charge it refunds', async () => {
    await nextDay();
    const paid = await card(80_00, 'lack-1');
    const { tx, invoice } = await ourCharge(paid.reference, 80_00);
    const refund = await gateway.refund({
      chargeReference: paid.reference,
      amountCents: 30_00,
      idempotencyKey: 'lack-r1',
      reason: 'made at the gateway only',
    });
    const run = await reconcileUsd();
    expect(run).toMatchObject({ status: 'differences', difference_count: 1 });
    expect(run.gateway).toMatchObject({ charged_cents: 80_00, refunded_cents: 30_00, net_cents: 50_00 });
    expect(run.books).toMatchObject({ charged_cents: 80_00, refunded_cents: 0, net_cents: 80_00 });
    expect(await differencesOf(run.id)).toEqual([
      expect.objectContaining({
        kind: 'missing_at_ours',
        entry_kind: 'refund',
        gateway_transaction_id: refund.reference,
        charge_reference: paid.reference,
        transaction_id: tx.id,
        customer_id: customerId,
        invoice_id: invoice.id,
        gateway_amount_cents: 30_00,
        books_amount_cents: null,
      }),
    ]);
  });

  it('lists runs with filters, sort and CSV; refuses a day to come, other roles, an unknown run', async () => {
    const list = await t.request({
      method: 'GET',
      url: `/api/reconciliation/runs/${tok.admin}?currency=USD&status=differences&sort=day`,
    });
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json().info.items as ReconciliationRun[];
    expect(list.json().info.total).toBe(3);
    expect(items.map((r) => r.day)).toEqual([...items.map((r) => r.day)].sort());
    const ranged = await t.request({
      method: 'GET',
      url: `/api/reconciliation/runs/${tok.ar}?from=${items[1]!.day}&to=${items[1]!.day}&currency=USD`,
    });
    expect(ranged.json().info.items.map((r: ReconciliationRun) => r.day)).toEqual([items[1]!.day]);
    const csv = await t.request({ method: 'GET', url: `/api/reconciliation/runs/${tok.ar}?format=csv&currency=USD` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^id,day,currency,status,source,gateway_charged,/);
    expect(lines).toHaveLength(1 + 4);
    expect(csv.body).toContain('$55.00');

    const tomorrow = new Date(t.clock.now().getTime() + DAY_MS).toISOString().slice(0, 10);
    const future = await reconcile({ day: tomorrow });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.fields.day).toMatch(/has not begun/);
    expect((await reconcile({ day: today() }, tok.cs)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/reconciliation/runs/${tok.cs}` })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/reconciliation/runs/999999/${tok.ar}` })).statusCode).toBe(404);
  });

  it('the daily job runs on its schedule: yesterday by the app clock, every currency; a retry redoes only what failed', async () => {
    await nextDay();
    const yesterday = today();
    const paid = await card(33_00, 'sched-1');
    await ourCharge(paid.reference, 33_00);
    await nextDay();

    const queue = t.app.ctx.queue;
    await startWorkers(queue, t.app.ctx, { pollingIntervalSeconds: 0.5 });
    const name = SCHEDULED_QUEUE.gatewayReconciliation;
    const schedules = await t.database.query<{ name: string; cron: string; timezone: string }>(
      `select name, cron, timezone from ${JOB_SCHEMA}.schedule where name = $1`,
      [name],
    );
    expect(schedules).toEqual([{ name, cron: '30 1 * * *', timezone: 'UTC' }]);
    expect(SCHEDULED_DEFINITIONS[name].cron).toBe('30 1 * * *');
    // What pg-boss's cron monitor sends at 01:30 UTC: an empty job on the queue.
    const id = await queue.send(name, {});
    queue.wake(name);
    const deadline = Date.now() + 20_000;
    let job = await queue.getJob(name, id!);
    while (job?.state !== 'completed' && job?.state !== 'failed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      job = await queue.getJob(name, id!);
    }
    expect(job).toMatchObject({
      state: 'completed',
      output: {
        day: yesterday,
        runs: [
          { currency: 'USD', status: 'matched' },
          { currency: 'CAD', status: 'matched' },
        ],
      },
    });
    const runs = await t.database.db
      .select()
      .from(reconciliationRuns)
      .where(eq(reconciliationRuns.day, yesterday))
      .orderBy(reconciliationRuns.id);
    expect(runs.map((r) => [r.source, r.currency, r.status, r.gatewayChargedCents, r.booksChargedCents])).toEqual([
      ['schedule', 'USD', 'matched', 33_00, 33_00],
      ['schedule', 'CAD', 'matched', 0, 0],
    ]);
    // A retry of the same day's job: nothing left to redo.
    expect(await gatewayReconciliationWorker.run(t.app.ctx, {})).toEqual({ day: yesterday, runs: [] });
  }, 40_000);
});
